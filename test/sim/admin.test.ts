import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { manualTime } from '../../src/shared/time.ts';
import type { Faults } from '../../src/sim/context.ts';
import { createUser } from '../../src/sim/ops/admin-ops.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

const T0 = Date.UTC(2026, 2, 1, 12);
const DAY = 86_400_000;
const UNAUTHORIZED = { error: { message: 'InvalidCredentials', code: 401 } };
const TIMEOUT_BODY = { error: { message: 'Network Error', code: 503 } };
const HEX24 = /^[0-9a-f]{24}$/;
const iso = (ms: number) => new Date(ms).toISOString();

interface U {
  readonly id: string;
  readonly token: string;
}

function mkUser(t: TestSim, username: string): U {
  const made = createUser(t.sim.context, { username, password: `pw-${username}`, balance: 100_000 });
  if (!made.ok) throw new Error(made.error);
  return { id: made.value.id, token: t.sim.context.tokens.issue(made.value.id) };
}

const away = (g: EngineGame) => g.participants[0].id;
const home = (g: EngineGame) => g.participants[1].id;

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(options: Parameters<typeof startTestSim>[0] = {}): Promise<TestSim> {
  t = await startTestSim({ time: manualTime(T0), ...options });
  return t;
}

/** Every admin endpoint with a plausible body. */
const ENDPOINTS: readonly [string, string, unknown?][] = [
  ['POST', '/admin/users', { username: 'x', password: 'y' }],
  ['POST', '/admin/users/0000000b0000000000000001/status', { status: 'banned' }],
  [
    'POST',
    '/admin/games',
    {
      league: 'NBA',
      sport: 'basketball',
      participants: [
        { longName: 'A', shortName: 'A' },
        { longName: 'B', shortName: 'B' },
      ],
    },
  ],
  ['GET', '/admin/games/0000000b0000000000000001'],
  ['POST', '/admin/games/0000000b0000000000000001', { live: true }],
  ['POST', '/admin/games/0000000b0000000000000001/result', { awayScore: 1, homeScore: 2 }],
  ['POST', '/admin/games/0000000b0000000000000001/refund'],
  ['GET', '/admin/clock'],
  ['POST', '/admin/clock', { advanceMs: 1000 }],
  ['GET', '/admin/faults'],
  ['POST', '/admin/faults', { rateLimitBurst: 5 }],
  ['POST', '/admin/tokens/expire', {}],
  ['DELETE', '/admin/games'],
  ['GET', '/admin/nothing-here'],
];

describe('admin API mounting', () => {
  it('answers 404 for every /admin/* path on a simulator without admin, and changes nothing', async () => {
    const s = await start({ admin: false });
    const before = { ...s.sim.context.faults };
    const now = s.sim.context.time.clock.now();
    for (const [method, path, body] of ENDPOINTS) {
      const res = await s.http(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toEqual({ error: `no route for ${path}` });
    }
    expect(s.sim.context.faults).toEqual(before);
    expect(s.sim.context.time.clock.now()).toBe(now);
    expect(s.sim.context.accounts.byUsername('x')).toBeUndefined();
    expect(s.sim.context.engine.games()).toEqual([]);
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;
  it.skipIf(external === undefined)('answers 404 to a client that is not on loopback, even with admin on', async () => {
    const s = await start({ host: '0.0.0.0' });
    const base = `http://${external}:${s.sim.port}`;
    for (const [method, path, body] of ENDPOINTS) {
      const res = await fetch(base + path, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // The same call from loopback is admitted.
    expect((await fetch(`http://127.0.0.1:${s.sim.port}/admin/clock`)).status).toBe(200);
    expect(s.sim.context.faults.rateLimitBurst).toBe(0);
  });

  it('answers 405 for a wrong method and 404 for an unknown path on an admin simulator', async () => {
    const s = await start();
    expect((await s.http('DELETE', '/admin/games')).status).toBe(405);
    expect((await s.http('GET', '/admin/users')).status).toBe(405);
    expect((await s.http('GET', '/admin/nothing-here')).status).toBe(404);
  });
});

describe('POST /admin/users', () => {
  it('creates users, rejects duplicates with 409 and bad bodies with 400', async () => {
    const s = await start();
    const res = await s.http('POST', '/admin/users', {
      body: {
        username: 'alice',
        password: 'pw',
        email: 'alice@example.com',
        balance: 500,
        creditLimit: 50,
        commission: 0.02,
        referrer: 'bob',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { user: { id: expect.stringMatching(HEX24), username: 'alice' } } });
    const id: string = res.body.data.user.id;
    expect(s.sim.context.accounts.get(id)).toMatchObject({
      username: 'alice',
      email: 'alice@example.com',
      referrer: 'bob',
      status: 'active',
    });
    expect(s.sim.context.engine.account(id)).toMatchObject({ balance: 500, creditLimit: 50, commissionRate: 0.02 });
    expect(s.sim.context.accounts.verify('alice', 'pw')?.id).toBe(id);

    const dup = await s.http('POST', '/admin/users', { body: { username: 'ALICE', password: 'other' } });
    expect(dup.status).toBe(409);
    expect(typeof dup.body.error).toBe('string');

    for (const body of [
      undefined,
      {},
      { username: 'bob' },
      { username: 'bob', password: 'p', commission: 1.5 },
      { username: 'bob', password: 'p', extra: 1 },
      { username: 'bob', password: 'p', status: 'sleeping' },
      '[1,2',
    ]) {
      const bad = await s.http('POST', '/admin/users', body === undefined ? {} : { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(typeof bad.body.error).toBe('string');
    }
    expect(s.sim.context.accounts.byUsername('bob')).toBeUndefined();

    const frozen = await s.http('POST', '/admin/users', {
      body: { username: 'carol', password: 'pw', status: 'frozen' },
    });
    expect(s.sim.context.accounts.get(frozen.body.data.user.id)?.status).toBe('frozen');
  });

  it('sets a status; banning revokes the account’s tokens', async () => {
    const s = await start();
    const u = mkUser(s, 'dave');
    const other = mkUser(s, 'erin');
    expect((await s.http('GET', '/user/getMatchedBets', { token: u.token })).status).toBe(200);

    const frozen = await s.http('POST', `/admin/users/${u.id}/status`, { body: { status: 'frozen' } });
    expect(frozen.status).toBe(200);
    expect(frozen.body.data.user).toEqual({ id: u.id, username: 'dave', status: 'frozen' });
    expect((await s.http('GET', '/user/getMatchedBets', { token: u.token })).status).toBe(403);

    const banned = await s.http('POST', `/admin/users/${u.id}/status`, { body: { status: 'banned' } });
    expect(banned.body.data.user.status).toBe('banned');
    await s.http('POST', `/admin/users/${u.id}/status`, { body: { status: 'active' } });
    // Active again, but the old token died with the ban.
    const dead = await s.http('GET', '/user/getMatchedBets', { token: u.token });
    expect(dead.status).toBe(401);
    expect(dead.body).toEqual(UNAUTHORIZED);
    expect((await s.http('GET', '/user/getMatchedBets', { token: other.token })).status).toBe(200);

    expect(
      (await s.http('POST', '/admin/users/0000000b00000000000000ff/status', { body: { status: 'banned' } })).status,
    ).toBe(404);
    expect((await s.http('POST', `/admin/users/${u.id}/status`, { body: { status: 'gone' } })).status).toBe(400);
  });
});

describe('/admin/games', () => {
  it('creates a game and renders it', async () => {
    const s = await start();
    const res = await s.http('POST', '/admin/games', {
      body: {
        league: 'EPL',
        sport: 'soccer',
        participants: [
          { longName: 'Arsenal', shortName: 'ARS' },
          { longName: 'Chelsea', shortName: 'CHE' },
        ],
        start: '2026-03-02T15:00:00Z',
        eventName: 'Derby',
        markets: ['moneyline1x2', 'total'],
      },
    });
    expect(res.status).toBe(200);
    const game = res.body.data.game;
    expect(game).toMatchObject({
      league: 'EPL',
      sport: 'soccer',
      live: false,
      ended: false,
      eventName: 'Derby',
      start: '2026-03-02T15:00:00.000Z',
    });
    expect(game.id).toMatch(HEX24);
    expect(game.participants).toEqual([
      { id: expect.stringMatching(HEX24), longName: 'Arsenal', shortName: 'ARS', homeAway: 'away' },
      { id: expect.stringMatching(HEX24), longName: 'Chelsea', shortName: 'CHE', homeAway: 'home' },
    ]);
    expect(s.sim.context.engine.game(game.id)?.markets).toEqual(['moneyline1x2', 'total']);
    expect((await s.http('GET', `/admin/games/${game.id}`)).body.data.game).toEqual(game);

    const defaults = await s.http('POST', '/admin/games', {
      body: {
        league: 'NBA',
        sport: 'basketball',
        participants: [
          { longName: 'A', shortName: 'A' },
          { longName: 'B', shortName: 'B' },
        ],
      },
    });
    expect(defaults.body.data.game.start).toBe(iso(T0 + 2 * 3_600_000));

    for (const body of [
      { league: 'NBA', sport: 'basketball', participants: [{ longName: 'A', shortName: 'A' }] },
      {
        league: 'NBA',
        sport: 'basketball',
        participants: [
          { longName: 'A', shortName: 'A' },
          { longName: 'B', shortName: 'B' },
        ],
        start: 'tomorrow',
      },
      {
        league: 'NBA',
        sport: 'basketball',
        participants: [
          { longName: 'A', shortName: 'A' },
          { longName: 'B', shortName: 'B' },
        ],
        markets: ['props'],
      },
      {
        sport: 'basketball',
        participants: [
          { longName: 'A', shortName: 'A' },
          { longName: 'B', shortName: 'B' },
        ],
      },
    ]) {
      const bad = await s.http('POST', '/admin/games', { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(typeof bad.body.error).toBe('string');
    }
  });

  it('updates live and start; 404 for an unknown game', async () => {
    const s = await start();
    const g = s.game();
    const maker = mkUser(s, 'maker');
    const [rest] = s.sim.context.engine.place(maker.id, [
      { gameID: g.id, type: 'moneyline', side: home(g), odds: 120, bet: 10 },
    ]);
    expect(rest?.status).toBe('ok');

    const moved = await s.http('POST', `/admin/games/${g.id}`, { body: { start: '2026-03-05T00:00:00Z' } });
    expect(moved.status).toBe(200);
    expect(moved.body.data.game.start).toBe('2026-03-05T00:00:00.000Z');
    expect(s.sim.context.engine.game(g.id)?.start).toBe(Date.parse('2026-03-05T00:00:00Z'));

    const live = await s.http('POST', `/admin/games/${g.id}`, { body: { live: true } });
    expect(live.body.data.game.live).toBe(true);
    // Going live expires pre-game orders.
    expect(s.sim.context.engine.openOrders(maker.id)).toEqual([]);

    expect((await s.http('POST', `/admin/games/${g.id}`, { body: {} })).status).toBe(400);
    expect((await s.http('POST', '/admin/games/0000000b00000000000000ff', { body: { live: true } })).status).toBe(404);
    expect((await s.http('GET', '/admin/games/0000000b00000000000000ff')).status).toBe(404);
  });

  it('settles with a result, regrades with another, refunds; validates scores', async () => {
    const s = await start();
    const g = s.game();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const e = s.sim.context.engine;
    e.place(maker.id, [{ gameID: g.id, type: 'moneyline', side: away(g), odds: -110, bet: 220 }]);
    e.place(taker.id, [
      { gameID: g.id, type: 'moneyline', side: home(g), odds: 110, bet: 100 },
      { gameID: g.id, type: 'moneyline', side: home(g), odds: 110, bet: 50 },
    ]);
    for (const body of [
      {},
      { awayScore: -1, homeScore: 2 },
      { awayScore: 1.5, homeScore: 2 },
      { awayScore: '1', homeScore: 2 },
    ]) {
      expect((await s.http('POST', `/admin/games/${g.id}/result`, { body })).status, JSON.stringify(body)).toBe(400);
    }
    expect(e.game(g.id)?.ended).toBe(false);

    const first = await s.http('POST', `/admin/games/${g.id}/result`, { body: { awayScore: 99, homeScore: 101 } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { graded: 4 } });
    expect(e.game(g.id)).toMatchObject({ ended: true, score: { away: 99, home: 101 } });
    expect(e.bets(taker.id).map((b) => b.grade?.outcome)).toEqual(['winner', 'winner']);

    // The same score again changes nothing; another score regrades every bet.
    expect(
      (await s.http('POST', `/admin/games/${g.id}/result`, { body: { awayScore: 99, homeScore: 101 } })).body.data
        .graded,
    ).toBe(0);
    const regrade = await s.http('POST', `/admin/games/${g.id}/result`, { body: { awayScore: 101, homeScore: 99 } });
    expect(regrade.body.data.graded).toBe(4);
    expect(e.bets(taker.id).map((b) => [b.grade?.outcome, b.grade?.version])).toEqual([
      ['loser', 2],
      ['loser', 2],
    ]);

    const refund = await s.http('POST', `/admin/games/${g.id}/refund`);
    expect(refund.body.data.graded).toBe(4);
    expect(e.bets(taker.id).map((b) => [b.grade?.outcome, b.grade?.adminRefund])).toEqual([
      ['refunded', true],
      ['refunded', true],
    ]);
    expect(e.account(taker.id)?.balance).toBe(100_000);

    expect(
      (await s.http('POST', '/admin/games/0000000b00000000000000ff/result', { body: { awayScore: 1, homeScore: 2 } }))
        .status,
    ).toBe(404);
    expect((await s.http('POST', '/admin/games/0000000b00000000000000ff/refund')).status).toBe(404);
  });
});

describe('/admin/clock', () => {
  it('reads and advances a manual clock, running hooks and due engine work', async () => {
    const s = await start();
    let hookCalls = 0;
    s.sim.context.hooks.onClockAdvanced.push(() => hookCalls++);
    expect((await s.http('GET', '/admin/clock')).body).toEqual({ data: { now: iso(T0) } });

    // An order with expirationMinutes expires once the clock passes it.
    const g = s.game({ start: T0 + 10 * DAY });
    const maker = mkUser(s, 'maker');
    const [placed] = s.sim.context.engine.place(maker.id, [
      { gameID: g.id, type: 'moneyline', side: home(g), odds: 120, bet: 10, expirationMinutes: 1 },
    ]);
    if (placed?.status !== 'ok' || !placed.unmatched) throw new Error('order did not rest');
    const orderID = placed.unmatched.orderID;

    const a = await s.http('POST', '/admin/clock', { body: { advanceMs: 59_999 } });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ data: { now: iso(T0 + 59_999) } });
    expect(s.sim.context.engine.order(orderID)?.status).toBe('open');
    const b = await s.http('POST', '/admin/clock', { body: { advanceMs: 1 } });
    expect(b.body.data.now).toBe(iso(T0 + 60_000));
    expect(s.sim.context.engine.order(orderID)).toMatchObject({ status: 'expired', closeReason: 'expiry' });
    expect(hookCalls).toBe(2);

    const to = await s.http('POST', '/admin/clock', { body: { to: iso(T0 + DAY) } });
    expect(to.body.data.now).toBe(iso(T0 + DAY));
    expect((await s.http('POST', '/admin/clock', { body: { to: iso(T0) } })).status).toBe(400);
    for (const body of [{}, { advanceMs: -5 }, { advanceMs: 'soon' }, { advanceMs: 1, to: iso(T0 + 2 * DAY) }]) {
      expect((await s.http('POST', '/admin/clock', { body })).status, JSON.stringify(body)).toBe(400);
    }
    expect(s.sim.context.time.clock.now()).toBe(T0 + DAY);
  });

  it('moves token lifetime: after 30 days the next call rotates the token', async () => {
    const s = await start();
    const u = mkUser(s, 'u');
    const res = await s.http('POST', '/admin/clock', { body: { advanceMs: 30 * DAY } });
    expect(res.status).toBe(200);
    const rotated = await s.http('GET', '/user/getMatchedBets', { token: u.token });
    expect(rotated.status).toBe(200);
    const next = rotated.headers.get('x-auth-token');
    expect(next).toMatch(/^[0-9a-f]{256}$/);
    expect(next).not.toBe(u.token);
    expect((await s.http('GET', '/user/getMatchedBets', { token: u.token })).status).toBe(401);
    const fresh = await s.http('GET', '/user/getMatchedBets', { token: next! });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-auth-token')).toBeNull();
  });

  it('answers 400 when the clock is not manual', async () => {
    t = await startTestSim();
    const res = await t.http('POST', '/admin/clock', { body: { advanceMs: 1000 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'clock is not manual' });
    const now = await t.http('GET', '/admin/clock');
    expect(Math.abs(Date.parse(now.body.data.now) - Date.now())).toBeLessThan(5_000);
  });
});

describe('/admin/faults', () => {
  it('merges into the live faults object and notifies listeners; rateLimitBurst makes the next N calls 429', async () => {
    const s = await start();
    const faults = s.sim.context.faults;
    const seen: Faults[] = [];
    s.sim.context.hooks.onFaultsChanged.push((f) => seen.push({ ...f }));
    const u = mkUser(s, 'u');

    const initial = await s.http('GET', '/admin/faults');
    expect(initial.body.data.faults).toEqual({
      dropSocketsEveryMs: 0,
      restErrorRate: 0,
      restHangRate: 0,
      restLatencyMs: 0,
      malformedFeedRate: 0,
      rateLimitBurst: 0,
      loginChallenge: false,
    });
    expect(initial.body.data.injected).toMatchObject({ rateLimited429: 0, rest503: 0, restHangs: 0 });

    const set = await s.http('POST', '/admin/faults', { body: { rateLimitBurst: 2, loginChallenge: true } });
    expect(set.status).toBe(200);
    expect(set.body.data.faults).toMatchObject({ rateLimitBurst: 2, loginChallenge: true, restErrorRate: 0 });
    expect(s.sim.context.faults).toBe(faults);
    expect(faults.loginChallenge).toBe(true);
    expect(seen).toEqual([expect.objectContaining({ rateLimitBurst: 2, loginChallenge: true })]);

    for (let i = 0; i < 2; i++) {
      const limited = await s.http('GET', '/user/getMatchedBets', { token: u.token });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
    }
    expect((await s.http('GET', '/user/getMatchedBets', { token: u.token })).status).toBe(200);
    expect((await s.http('GET', '/admin/faults')).body.data.faults.rateLimitBurst).toBe(0);
    expect((await s.http('GET', '/admin/faults')).body.data.injected.rateLimited429).toBe(2);

    for (const body of [{ restErrorRate: 2 }, { rateLimitBurst: -1 }, { loginChallenge: 'yes' }, { unknownFault: 1 }]) {
      expect((await s.http('POST', '/admin/faults', { body })).status, JSON.stringify(body)).toBe(400);
    }
    expect(seen).toHaveLength(1);
  });

  it('restErrorRate 1 makes every REST call 503 Network Error, while admin calls keep working', async () => {
    const s = await start();
    const u = mkUser(s, 'u');
    expect((await s.http('POST', '/admin/faults', { body: { restErrorRate: 1 } })).status).toBe(200);
    let timeouts = 0;
    for (let i = 0; i < 8; i++) {
      // Half the faults fail at once, half wait out the 15 s server timeout: move the
      // manual clock until the call answers.
      const call = s.http('GET', '/user/getMatchedBets', { token: u.token });
      let done = false;
      void call.then(() => (done = true));
      while (!done) {
        await new Promise((r) => setTimeout(r, 20));
        if (done) break;
        timeouts++;
        expect((await s.http('POST', '/admin/clock', { body: { advanceMs: 15_000 } })).status).toBe(200);
      }
      const res = await call;
      expect(res.status, `call ${i + 1}`).toBe(503);
      expect(res.body).toEqual(TIMEOUT_BODY);
    }
    // Both kinds happened: some answered at once, some only after the server timeout.
    expect(timeouts).toBeGreaterThan(0);
    expect(timeouts).toBeLessThan(8);
    expect((await s.http('POST', '/admin/faults', { body: { restErrorRate: 0 } })).status).toBe(200);
    expect((await s.http('GET', '/user/getMatchedBets', { token: u.token })).status).toBe(200);
  });

  it('restHangRate 1: the work is done but no answer comes; the client has to give up', async () => {
    const s = await start();
    const u = mkUser(s, 'u');
    const g = s.game();
    expect((await s.http('POST', '/admin/faults', { body: { restHangRate: 1 } })).status).toBe(200);
    const abort = new AbortController();
    const call = fetch(`${s.url}/session/v3/place`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        orders: [
          {
            gameID: g.id,
            type: 'moneyline',
            side: home(g),
            odds: 120,
            bet: 10,
            orderType: 'post',
            userReference: 'hang-1',
          },
        ],
      }),
      signal: abort.signal,
    });
    const outcome = call.then(
      () => 'answered',
      () => 'aborted',
    );
    // The order is on the book although the call has not answered, however long the clock runs.
    for (let i = 0; i < 100 && s.sim.context.engine.openOrders(u.id).length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(s.sim.context.engine.openOrders(u.id).map((o) => o.userReference)).toEqual(['hang-1']);
    expect((await s.http('POST', '/admin/clock', { body: { advanceMs: 60_000 } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    expect(await outcome).toBe('aborted');
    expect((await s.http('GET', '/admin/faults')).body.data.injected.restHangs).toBe(1);
    expect((await s.http('POST', '/admin/faults', { body: { restHangRate: 0 } })).status).toBe(200);
    expect((await s.http('GET', '/user/getUnmatched', { token: u.token })).body.data.unmatched).toHaveLength(1);
  });
});

describe('/admin/tokens/expire', () => {
  it('expires the live tokens of one user now: the next call rotates, the old token dies, others are untouched', async () => {
    const s = await start();
    const u = mkUser(s, 'u');
    const other = mkUser(s, 'other');
    const res = await s.http('POST', '/admin/tokens/expire', { body: { userId: u.id } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ expired: 1 });
    const rotated = await s.http('GET', '/user/getMe', { token: u.token });
    expect(rotated.status).toBe(200);
    const next = rotated.headers.get('x-auth-token');
    expect(next).toMatch(/^[0-9a-f]{256}$/);
    expect((await s.http('GET', '/user/getMe', { token: u.token })).status).toBe(401);
    expect((await s.http('GET', '/user/getMe', { token: next! })).headers.get('x-auth-token')).toBeNull();
    expect((await s.http('GET', '/user/getMe', { token: other.token })).headers.get('x-auth-token')).toBeNull();
    expect((await s.http('GET', '/admin/faults')).body.data.injected.tokensExpired).toBe(1);
    expect((await s.http('POST', '/admin/tokens/expire', { body: { userId: 'nope' } })).status).toBe(400);
  });
});
