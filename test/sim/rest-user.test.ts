import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { createUser } from '../../src/sim/ops/admin-ops.ts';
import { heartbeatFor } from '../../src/sim/heartbeat.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

const UNAUTHORIZED = { error: { message: 'InvalidCredentials', code: 401 } };
const HEX256 = /^[0-9a-f]{256}$/;
const DAY = 86_400_000;

function manual(t: TestSim): ManualTimeSource {
  return t.sim.context.time as ManualTimeSource;
}

/** Rest one order through REST and return its order id. */
async function rest(t: TestSim, token: string, order: Record<string, unknown>): Promise<string> {
  const res = await t.http('POST', '/session/v3/place', { token, body: { orders: [order] } });
  expect(res.status).toBe(200);
  const entry = res.body.data.createdSessions[0];
  expect(entry.unmatched?.orderID, JSON.stringify(entry)).toMatch(/^[0-9a-f]{24}$/);
  return entry.unmatched.orderID as string;
}

describe('POST /user/login', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim();
    createUser(t.sim.context, {
      username: 'alice',
      password: 'secret-1',
      email: 'Alice@Example.com',
      balance: 1234.567,
      commission: 0.02,
    });
  });
  afterAll(() => t?.close());

  it('logs in by username: token, user fields and the signed auth cookie', async () => {
    const res = await t.http('POST', '/user/login', { body: { username: 'alice', password: 'secret-1' } });
    expect(res.status).toBe(200);
    const user = res.body.data.user;
    expect(user.id).toBe(t.sim.context.accounts.byUsername('alice')!.id);
    expect(user.username).toBe('alice');
    expect(user.email).toBe('Alice@Example.com');
    expect(user.auth).toMatch(HEX256);
    expect(user.displayBalance).toBe(1234.57);
    expect(user.commissionCharged).toBe(0.02);
    const cookie = res.headers.get('set-cookie');
    expect(cookie).toMatch(/^auth=s%3A[0-9a-f]{256}\.[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(decodeURIComponent(cookie!.slice('auth='.length, cookie!.indexOf(';')))).toContain(user.auth);
  });

  it('logs in by e-mail, case-insensitively, and mints a new token each time', async () => {
    const a = await t.http('POST', '/user/login', { body: { username: 'alice@example.com', password: 'secret-1' } });
    const b = await t.http('POST', '/user/login', { body: { username: 'ALICE', password: 'secret-1' } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.data.user.username).toBe('alice');
    expect(a.body.data.user.auth).not.toBe(b.body.data.user.auth);
    for (const token of [a.body.data.user.auth, b.body.data.user.auth])
      expect((await t.http('GET', '/user/getMe', { token })).status).toBe(200);
  });

  it('answers 401 with the same message for a wrong password and an unknown account', async () => {
    const wrong = await t.http('POST', '/user/login', { body: { username: 'alice', password: 'nope' } });
    const unknown = await t.http('POST', '/user/login', { body: { username: 'nobody', password: 'secret-1' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'incorrect username or password' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    [{ password: 'secret-1' }, 'username'],
    [{ username: 'alice' }, 'password'],
    [{ username: '', password: 'secret-1' }, 'username'],
    [{ username: 'alice', password: 42 }, 'password'],
    [undefined, 'username'],
  ])('answers 400 naming the missing field for %j', async (body, field) => {
    const res = await t.http('POST', '/user/login', body === undefined ? {} : { body });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect(res.body.error).toContain(field);
  });

  it('answers 400 for a body that is not a JSON object or not JSON at all', async () => {
    const arr = await t.http('POST', '/user/login', { body: ['alice', 'secret-1'] });
    expect(arr.status).toBe(400);
    expect(arr.body.error).toMatch(/JSON object/);
    const bad = await t.http('POST', '/user/login', {
      body: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe('string');
  });

  it.each(['banned', 'closed', 'frozen'] as const)(
    'answers 403 for a %s account with the right password',
    async (status) => {
      const made = createUser(t.sim.context, { username: `u-${status}`, password: 'pw' });
      if (!made.ok) throw new Error(made.error);
      t.sim.context.accounts.setStatus(made.value.id, status);
      const res = await t.http('POST', '/user/login', { body: { username: `u-${status}`, password: 'pw' } });
      expect(res.status).toBe(403);
      expect(res.body.error).toContain(status);
      // A wrong password still reads as 401: status is not revealed to a guesser.
      expect((await t.http('POST', '/user/login', { body: { username: `u-${status}`, password: 'x' } })).status).toBe(
        401,
      );
    },
  );

  it('answers 428 CHALLENGE_REQUIRED while the challenge fault is on', async () => {
    t.sim.context.faults.loginChallenge = true;
    try {
      const res = await t.http('POST', '/user/login', { body: { username: 'alice', password: 'secret-1' } });
      expect(res.status).toBe(428);
      expect(res.body).toEqual({ error: { message: 'CHALLENGE_REQUIRED', code: 428 } });
    } finally {
      t.sim.context.faults.loginChallenge = false;
    }
    expect((await t.http('POST', '/user/login', { body: { username: 'alice', password: 'secret-1' } })).status).toBe(
      200,
    );
  });
});

describe('login rate limit', () => {
  let t: TestSim;
  afterEach(() => t?.close());

  it('answers 429 with Retry-After after 30 attempts per IP in 60 s, then admits again', async () => {
    t = await startTestSim({ time: manualTime(Date.UTC(2026, 1, 1)) });
    createUser(t.sim.context, { username: 'carol', password: 'pw' });
    for (let i = 0; i < 30; i++) {
      const res = await t.http('POST', '/user/login', {
        body: { username: 'carol', password: i % 2 ? 'wrong' : 'pw' },
      });
      expect(res.status, `attempt ${i + 1}`).not.toBe(429);
    }
    const limited = await t.http('POST', '/user/login', { body: { username: 'carol', password: 'pw' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(typeof limited.body.error).toBe('string');
    manual(t).advance(30_000);
    const still = await t.http('POST', '/user/login', { body: { username: 'carol', password: 'pw' } });
    expect(still.status).toBe(429);
    expect(still.headers.get('retry-after')).toBe('30');
    manual(t).advance(30_000);
    expect((await t.http('POST', '/user/login', { body: { username: 'carol', password: 'pw' } })).status).toBe(200);
  });
});

describe('authentication', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim();
  });
  afterAll(() => t?.close());

  it('answers 401 InvalidCredentials for a missing or unknown token', async () => {
    const missing = await t.http('GET', '/user/getMe');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual(UNAUTHORIZED);
    const unknown = await t.http('GET', '/user/getMe', { token: 'ab'.repeat(128) });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(UNAUTHORIZED);
  });

  it('accepts the token with or without the Bearer prefix', async () => {
    const u = await t.user('dave');
    const bare = await t.http('GET', '/user/getMe', { token: u.token, raw: true });
    expect(bare.status).toBe(200);
    expect(bare.body.data.user.id).toBe(u.id);
    const lower = await t.http('GET', '/user/getMe', { headers: { authorization: `bearer ${u.token}` } });
    expect(lower.status).toBe(200);
  });

  it('accepts the signed auth cookie set by login, and rejects a tampered one', async () => {
    createUser(t.sim.context, { username: 'erin', password: 'pw' });
    const login = await t.http('POST', '/user/login', { body: { username: 'erin', password: 'pw' } });
    const setCookie = login.headers.get('set-cookie')!;
    const pair = setCookie.slice(0, setCookie.indexOf(';'));
    const ok = await t.http('GET', '/user/getMe', { headers: { cookie: pair } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.username).toBe('erin');
    const tampered = pair.slice(0, -2) + (pair.endsWith('AA') ? 'BB' : 'AA');
    const bad = await t.http('GET', '/user/getMe', { headers: { cookie: tampered } });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual(UNAUTHORIZED);
  });

  it('accepts the token as `token` in the JSON body', async () => {
    const u = await t.user('frank');
    const res = await t.http('POST', '/user/ordersHeartbeat', { body: { timeout: 60, token: u.token } });
    expect(res.status).toBe(200);
    expect(res.body.data.type).toBe('heartbeatAck');
    heartbeatFor(t.sim.context).disarm(u.id);
  });

  it('logout invalidates only the token used for the call', async () => {
    const u = await t.user('gina');
    const second = await t.http('POST', '/user/login', { body: { username: 'gina', password: u.password } });
    const other = second.body.data.user.auth as string;
    const out = await t.http('POST', '/user/logout', { token: u.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ data: { success: true } });
    const dead = await t.http('GET', '/user/getMe', { token: u.token });
    expect(dead.status).toBe(401);
    expect(dead.body).toEqual(UNAUTHORIZED);
    expect((await t.http('GET', '/user/getMe', { token: other })).status).toBe(200);
  });

  it('logout with the token in the body kills that token', async () => {
    const u = await t.user('hank');
    const out = await t.http('POST', '/user/logout', { body: { token: u.token } });
    expect(out.status).toBe(200);
    expect((await t.http('GET', '/user/getMe', { token: u.token })).status).toBe(401);
  });
});

describe('token rotation after 30 days', () => {
  let t: TestSim;
  afterEach(() => t?.close());

  it('rotates on the next request: X-Auth-Token carries the replacement, the old token dies', async () => {
    t = await startTestSim({ time: manualTime(Date.UTC(2026, 2, 1)) });
    const u = await t.user('ivan');
    manual(t).advance(30 * DAY - 1);
    const before = await t.http('GET', '/user/getMe', { token: u.token });
    expect(before.status).toBe(200);
    expect(before.headers.get('x-auth-token')).toBeNull();
    manual(t).advance(2);
    const rotated = await t.http('GET', '/user/getMe', { token: u.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.user.id).toBe(u.id);
    const next = rotated.headers.get('x-auth-token');
    expect(next).toMatch(HEX256);
    expect(next).not.toBe(u.token);
    const old = await t.http('GET', '/user/getMe', { token: u.token });
    expect(old.status).toBe(401);
    expect(old.body).toEqual(UNAUTHORIZED);
    const fresh = await t.http('GET', '/user/getMe', { token: next! });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-auth-token')).toBeNull();
  });
});

describe('GET /user/getMe', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim();
  });
  afterAll(() => t?.close());

  it('returns the account with balance, credit, liability, commission and max liability', async () => {
    const u = await t.user('judy', {
      balance: 5000.125,
      creditLimit: 500,
      commission: 0.015,
      email: 'judy@example.com',
    });
    const res = await t.http('GET', '/user/getMe', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        user: {
          id: u.id,
          username: 'judy',
          email: 'judy@example.com',
          displayBalance: 5000.13,
          creditLimit: 500,
          liability: 0,
          commissionCharged: 0.015,
          maxLiability: 5500.13,
        },
      },
    });
  });

  it('reports resting exposure as a non-positive liability', async () => {
    const u = await t.user('kate');
    const g = t.game();
    await rest(t, u.token, { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: -110, bet: 250 });
    const res = await t.http('GET', '/user/getMe', { token: u.token });
    expect(res.body.data.user.liability).toBe(-250);
  });
});

describe('POST /user/ordersHeartbeat', () => {
  let t: TestSim;
  afterEach(() => t?.close());

  async function setup() {
    t = await startTestSim({ time: manualTime(Date.UTC(2026, 3, 1)) });
    const maker = await t.user('maker');
    const other = await t.user('other');
    const g1 = t.game();
    const g2 = t.game();
    const ids = [
      await rest(t, maker.token, {
        gameID: g1.id,
        type: 'moneyline',
        side: g1.participants[1].id,
        odds: -110,
        bet: 100,
      }),
      await rest(t, maker.token, { gameID: g2.id, type: 'total', side: 'over', number: 210.5, odds: 105, bet: 50 }),
    ];
    const otherId = await rest(t, other.token, {
      gameID: g1.id,
      type: 'moneyline',
      side: g1.participants[1].id,
      odds: -130,
      bet: 40,
    });
    return { maker, other, ids, otherId };
  }

  const unmatchedIds = async (token: string) =>
    ((await t.http('GET', '/user/getUnmatched', { token })).body.data.unmatched as { id: string }[]).map((o) => o.id);

  it.each([[5], [0], [-10], [5.5], ['10'], [null], [undefined]])('answers 400 for timeout %j', async (timeout) => {
    t = await startTestSim();
    const u = await t.user('x');
    const res = await t.http('POST', '/user/ordersHeartbeat', {
      token: u.token,
      body: timeout === undefined ? {} : { timeout },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('timeout');
    expect(heartbeatFor(t.sim.context).isArmed(u.id)).toBe(false);
  });

  it('acknowledges with the server time and the timeout', async () => {
    const { maker } = await setup();
    manual(t).advance(1234);
    const res = await t.http('POST', '/user/ordersHeartbeat', { token: maker.token, body: { timeout: 6 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { type: 'heartbeatAck', serverTime: new Date(Date.UTC(2026, 3, 1) + 1234).toISOString(), timeoutSec: 6 },
    });
  });

  it('cancels every open order of the account when the timeout lapses, and only that account', async () => {
    const { maker, other, ids, otherId } = await setup();
    expect((await t.http('POST', '/user/ordersHeartbeat', { token: maker.token, body: { timeout: 10 } })).status).toBe(
      200,
    );
    manual(t).advance(9_999);
    expect(await unmatchedIds(maker.token)).toEqual(ids);
    manual(t).advance(1);
    expect(await unmatchedIds(maker.token)).toEqual([]);
    expect(t.sim.context.engine.openOrders(maker.id)).toEqual([]);
    for (const id of ids) expect(t.sim.context.engine.order(id)?.closeReason).toBe('heartbeat');
    expect(await unmatchedIds(other.token)).toEqual([otherId]);
    expect(heartbeatFor(t.sim.context).isArmed(maker.id)).toBe(false);
  });

  it('re-arming pushes the deadline out and keeps the orders', async () => {
    const { maker, ids } = await setup();
    await t.http('POST', '/user/ordersHeartbeat', { token: maker.token, body: { timeout: 10 } });
    manual(t).advance(8_000);
    await t.http('POST', '/user/ordersHeartbeat', { token: maker.token, body: { timeout: 10 } });
    manual(t).advance(8_000);
    expect(await unmatchedIds(maker.token)).toEqual(ids);
    // The orders socket arms the same switch.
    heartbeatFor(t.sim.context).arm(maker.id, 7);
    manual(t).advance(6_000);
    expect(await unmatchedIds(maker.token)).toEqual(ids);
    manual(t).advance(1_000);
    expect(await unmatchedIds(maker.token)).toEqual([]);
  });

  it('a disarmed switch never cancels', async () => {
    const { maker, ids } = await setup();
    await t.http('POST', '/user/ordersHeartbeat', { token: maker.token, body: { timeout: 10 } });
    expect(heartbeatFor(t.sim.context)).toBe(heartbeatFor(t.sim.context));
    expect(heartbeatFor(t.sim.context).deadline(maker.id)).toBe(Date.UTC(2026, 3, 1) + 10_000);
    expect(heartbeatFor(t.sim.context).disarm(maker.id)).toBe(true);
    manual(t).advance(60_000);
    expect(await unmatchedIds(maker.token)).toEqual(ids);
  });
});

describe('GET /user/getUnmatched', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim();
  });
  afterAll(() => t?.close());

  it("lists the caller's resting orders with fill state, oldest first", async () => {
    const maker = await t.user('lena');
    const taker = await t.user('mike');
    const g = t.game();
    const [away, home] = g.participants;
    const ml = await rest(t, maker.token, {
      gameID: g.id,
      type: 'moneyline',
      side: home.id,
      odds: -110,
      bet: 110,
      userReference: 'ref-1',
      expirationMinutes: 30,
    });
    const tot = await rest(t, maker.token, {
      gameID: g.id,
      type: 'total',
      side: 'over',
      number: 209.5,
      odds: -104,
      bet: 265.2,
    });
    const sp = await rest(t, maker.token, {
      gameID: g.id,
      type: 'spread',
      side: away.id,
      number: 3.5,
      odds: 120,
      bet: 20,
    });
    // A taker backs away at +110 for 50: the maker's home order is hit for 55 of its 110.
    const take = await t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: { orders: [{ gameID: g.id, type: 'moneyline', side: away.id, odds: 110, bet: 50 }] },
    });
    expect(take.body.data.createdSessions[0].matched[0].amount).toBeCloseTo(50, 9);

    const res = await t.http('GET', '/user/getUnmatched', { token: maker.token });
    expect(res.status).toBe(200);
    const list = res.body.data.unmatched;
    expect(list.map((o: { id: string }) => o.id)).toEqual([ml, tot, sp]);
    const [a, b, c] = list;
    const created = t.sim.context.engine.order(ml)!.createdAt;
    expect(a).toMatchObject({
      id: ml,
      type: 'moneyline',
      bet: 110,
      odds: -110,
      spread: null,
      total: null,
      participantID: home.id,
      otherParticipantID: away.id,
      expiry: new Date(created + 30 * 60_000).toISOString(),
      offered: 110,
      createdAt: new Date(created).toISOString(),
      userReference: 'ref-1',
      wagerRequestID: t.sim.context.engine.order(ml)!.wagerRequestID,
    });
    expect(a.filled).toBeCloseTo(55, 9);
    expect(a.remaining).toBeCloseTo(55, 9);
    expect(a.takenRatio).toBeCloseTo(0.5, 9);
    expect(a.game).toMatchObject({ id: g.id, league: 'NBA', isFutures: false });
    expect(a.game.participants.map((p: { id: string }) => p.id)).toEqual([away.id, home.id]);
    expect(b).toMatchObject({ type: 'total', total: 209.5, spread: null, filled: 0, remaining: 265.2, takenRatio: 0 });
    for (const absent of ['participantID', 'otherParticipantID', 'userReference']) expect(b).not.toHaveProperty(absent);
    // Pre-game orders without their own expiry are offered until the game starts.
    expect(b.expiry).toBe(new Date(g.start).toISOString());
    expect(c).toMatchObject({ type: 'spread', spread: 3.5, participantID: away.id, otherParticipantID: home.id });

    const others = await t.http('GET', '/user/getUnmatched', { token: taker.token });
    expect(others.body).toEqual({ data: { unmatched: [] } });
  });
});
