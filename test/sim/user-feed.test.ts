import { afterEach, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { createUser } from '../../src/sim/ops/admin-ops.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { Clients, type FeedClient } from './ws-client.ts';

const PATH = '/v2/user';

let t: TestSim | undefined;
const clients = new Clients(() => t!.url);

afterEach(async () => {
  await clients.closeAll();
  await t?.close();
  t = undefined;
});

const home = (g: EngineGame) => g.participants[1].id;
const away = (g: EngineGame) => g.participants[0].id;

function place(sim: TestSim, userId: string, order: Record<string, unknown>) {
  const [entry] = sim.sim.context.engine.place(userId, [order]);
  if (!entry || entry.status !== 'ok') throw new Error(`place failed: ${JSON.stringify(entry)}`);
  return entry;
}

const idParts = (id: string) => id.split('-').map(Number) as [number, number];
function expectIncreasing(ids: string[]) {
  for (let i = 1; i < ids.length; i++) {
    const [ams, aseq] = idParts(ids[i - 1]!);
    const [bms, bseq] = idParts(ids[i]!);
    expect(bms > ams || (bms === ams && bseq > aseq), `${ids[i - 1]} < ${ids[i]}`).toBe(true);
  }
}

const ENVELOPE_KEYS = [
  'matched',
  'unmatched',
  'origin',
  'gameID',
  'parentGameID',
  'eventName',
  'league',
  'sport',
  'live',
  'start',
  'awayRotationNumber',
  'platform',
  'createdAt',
  'messageID',
];

async function feed(sim: TestSim, token: string): Promise<FeedClient> {
  const c = await clients.open(PATH, token);
  await c.roundTrip();
  return c;
}

const any = () => true;

describe('user feed envelopes', () => {
  it('order placed, taker fill, partial maker fill and cancel, with strictly increasing messageIDs', async () => {
    t = await startTestSim();
    const maker = await t.user('uf-maker');
    const taker = await t.user('uf-taker', { commission: 0.01 });
    const g = t.game({ eventName: 'Away 1 @ Home 1' });
    const mc = await feed(t, maker.token);
    const tc = await feed(t, taker.token);

    const placed = place(t, maker.id, {
      gameID: g.id,
      type: 'moneyline',
      side: home(g),
      odds: -120,
      bet: 100,
      userReference: 'mk-1',
    });
    const orderID = placed.unmatched!.orderID;
    const p = (await mc.take(any)).value;
    expect(Object.keys(p).sort()).toEqual([...ENVELOPE_KEYS].sort());
    expect(p).toMatchObject({
      matched: null,
      origin: 'offer',
      gameID: g.id,
      parentGameID: null,
      eventName: 'Away 1 @ Home 1',
      league: 'NBA',
      sport: 'basketball',
      live: false,
      start: new Date(g.start).toISOString(),
      unmatched: {
        orderID,
        wagerRequestID: placed.unmatched!.wagerRequestID,
        filled: 0,
        offered: 100,
        remaining: 100,
        odds: -120,
        type: 'moneyline',
        side: home(g),
        userReference: 'mk-1',
      },
    });
    expect(p.unmatched).not.toHaveProperty('number');
    expect(p.unmatched).not.toHaveProperty('isPostArb');
    expect(p.messageID).toMatch(/^\d+-\d+$/);

    // The taker takes 50 at +120: the maker's risk matched is 60 of 100.
    const took = place(t, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 50 });
    const txID = took.matched[0]!.txID;
    const tf = (await tc.take(any)).value;
    expect(tf.unmatched).toBeNull();
    expect(tf.origin).toBe('wager');
    expect(tf.matched).toMatchObject({
      txID,
      wagerRequestID: took.matched[0]!.wagerRequestID,
      amount: 50,
      odds: 120,
      type: 'moneyline',
      side: away(g),
      userReference: null,
    });
    expect(tf.matched).not.toHaveProperty('number');
    expect(tf.matched.risk).toBeCloseTo(50.5, 9);
    expect(tf.matched.win).toBeCloseTo(59.4, 9);
    expect(tf.matched.orderID).toBe(orderID); // the resting order that was hit
    expect(tf.matched).not.toHaveProperty('isPostArb');

    const mf = (await mc.take(any)).value;
    expect(mf.origin).toBe('offer');
    expect(mf.matched).toMatchObject({
      txID,
      orderID,
      amount: 60,
      risk: 60,
      odds: -120,
      side: home(g),
      userReference: 'mk-1',
    });
    expect(mf.matched.win).toBeCloseTo(50, 9);
    expect(mf.unmatched).toMatchObject({
      orderID,
      filled: 60,
      offered: 100,
      remaining: 40,
      odds: -120,
      userReference: 'mk-1',
    });
    expect(mf.unmatched.remaining).toBeGreaterThan(0); // partial

    // A second fill: `filled` is this event's risk alone.
    place(t, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 25 });
    const mf2 = (await mc.take(any)).value;
    expect(mf2.unmatched.filled).toBeCloseTo(30, 9);
    expect(mf2.unmatched.remaining).toBeCloseTo(10, 9);

    t.sim.context.engine.cancel(maker.id, orderID);
    const cx = (await mc.take(any)).value;
    expect(cx.matched).toBeNull();
    expect(cx.unmatched).toMatchObject({ orderID, offered: 0, remaining: 0 });
    expect(cx.unmatched.filled).toBeCloseTo(90, 9); // cumulative matched risk

    expectIncreasing([p, mf, mf2, cx].map((m) => m.messageID));
    expectIncreasing(tc.messages.map((m: any) => m.messageID));
  });

  it('a taker order that partly fills and rests: fill then placement with offered − remaining = matched', async () => {
    t = await startTestSim();
    const maker = await t.user('uf-m2');
    const taker = await t.user('uf-t2');
    const g = t.game();
    place(t, maker.id, { gameID: g.id, type: 'total', side: 'over', number: 210.5, odds: 100, bet: 40 });
    const tc = await feed(t, taker.token);
    place(t, taker.id, { gameID: g.id, type: 'total', side: 'under', number: 210.5, odds: 100, bet: 100 });
    const fill = (await tc.take(any)).value;
    expect(fill.matched).toMatchObject({ amount: 40, type: 'total', side: 'under', number: 210.5 });
    const rest = (await tc.take(any)).value;
    expect(rest.matched).toBeNull();
    expect(rest.unmatched).toMatchObject({ filled: 0, offered: 100, remaining: 60, side: 'under', number: 210.5 });
    expect(rest.unmatched).not.toHaveProperty('userReference');
  });

  it('delivers to every connection of the user and to nobody else', async () => {
    t = await startTestSim();
    const a = await t.user('uf-a');
    const b = await t.user('uf-b');
    const g = t.game();
    const a1 = await feed(t, a.token);
    const a2 = await feed(t, a.token);
    const b1 = await feed(t, b.token);
    place(t, a.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 10 });
    const m1 = (await a1.take(any)).value;
    const m2 = (await a2.take(any)).value;
    expect(m2).toEqual(m1);
    place(t, b.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 160, bet: 10 });
    const mb = await b1.take(any);
    expect(mb.skipped).toEqual([]);
    expect(mb.value.unmatched.odds).toBe(160);
  });
});

describe('user feed replay', () => {
  it('returns exactly the messages missed while disconnected', async () => {
    t = await startTestSim();
    const u = await t.user('uf-replay');
    const g = t.game();
    const c = await feed(t, u.token);
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 130, bet: 10 });
    const last = (await c.take(any)).value;
    await c.close();

    const missed = [
      place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 140, bet: 10 }),
      place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 10 }),
    ];
    t.sim.context.engine.cancel(u.id, missed[0]!.unmatched!.orderID);

    const c2 = await feed(t, u.token);
    const r = await t.http('GET', `/v2/user/messages?afterID=${last.messageID}`, { token: u.token });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('success');
    const got = r.body.messages as any[];
    expect(got.map((m) => [m.unmatched.orderID, m.unmatched.offered])).toEqual([
      [missed[0]!.unmatched!.orderID, 10],
      [missed[1]!.unmatched!.orderID, 10],
      [missed[0]!.unmatched!.orderID, 0],
    ]);
    expectIncreasing([last.messageID, ...got.map((m) => m.messageID)]);

    // beforeID bounds it (exclusive); live messages continue after the replayed ones.
    const bounded = await t.http('GET', `/v2/user/messages?afterID=${last.messageID}&beforeID=${got[2].messageID}`, {
      token: u.token,
    });
    expect(bounded.body.messages.map((m: any) => m.messageID)).toEqual([got[0].messageID, got[1].messageID]);
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 160, bet: 10 });
    const live = (await c2.take(any)).value;
    expectIncreasing([got[2].messageID, live.messageID]);
    const again = await t.http('GET', `/v2/user/messages?afterID=${got[2].messageID}`, { token: u.token });
    expect(again.body).toEqual({ status: 'success', messages: [live] });
  });

  it('rejects malformed ids (400) and missing tokens (401); replay is per user', async () => {
    t = await startTestSim();
    const u = await t.user('uf-bad');
    const other = await t.user('uf-other');
    const g = t.game();
    place(t, other.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 130, bet: 10 });
    for (const q of ['afterID=abc', 'afterID=1-', 'afterID=-1-0', 'afterID=1.5-0', 'afterID=1-0&beforeID=x']) {
      const r = await t.http('GET', `/v2/user/messages?${q}`, { token: u.token });
      expect(r.status, q).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    expect((await t.http('GET', '/v2/user/messages?afterID=0-0')).status).toBe(401);
    const mine = await t.http('GET', '/v2/user/messages?afterID=0-0', { token: u.token });
    expect(mine.body).toEqual({ status: 'success', messages: [] });
  });

  it('answers cache_expired once the retention count has dropped messages after the cursor', async () => {
    t = await startTestSim({ settings: { userFeedRetentionCount: 5 } });
    const u = await t.user('uf-count');
    const g = t.game();
    const c = await feed(t, u.token);
    for (let i = 0; i < 8; i++)
      place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 200 + i, bet: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await c.take(any)).value.messageID);

    const expired = await t.http('GET', `/v2/user/messages?afterID=${ids[0]}`, { token: u.token });
    expect(expired.body.status).toBe('cache_expired');
    expect(expired.body.availableMessages.map((m: any) => m.messageID)).toEqual(ids.slice(3));
    expect(expired.body).not.toHaveProperty('messages');

    // The newest dropped message is ids[2]: from there on the log is complete.
    const ok = await t.http('GET', `/v2/user/messages?afterID=${ids[2]}`, { token: u.token });
    expect(ok.body.status).toBe('success');
    expect(ok.body.messages.map((m: any) => m.messageID)).toEqual(ids.slice(3));
    const earlier = await t.http('GET', `/v2/user/messages?afterID=${ids[1]}`, { token: u.token });
    expect(earlier.body.status).toBe('cache_expired');
  });

  it('answers cache_expired once messages are older than the retention time (manual clock)', async () => {
    const time: ManualTimeSource = manualTime();
    t = await startTestSim({ time, settings: { userFeedRetentionMs: 60_000 } });
    const u = await t.user('uf-age');
    const g = t.game();
    const c = await feed(t, u.token);
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 200, bet: 1 });
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 201, bet: 1 });
    const first = (await c.take(any)).value;
    const second = (await c.take(any)).value;
    // Same ms: the sequence moves.
    expect(idParts(second.messageID)).toEqual([idParts(first.messageID)[0], idParts(first.messageID)[1] + 1]);
    time.advance(30_000);
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 202, bet: 1 });
    const third = (await c.take(any)).value;
    expect(idParts(third.messageID)).toEqual([idParts(first.messageID)[0] + 30_000, 0]);
    const held = await t.http('GET', `/v2/user/messages?afterID=${first.messageID}`, { token: u.token });
    expect(held.body).toEqual({ status: 'success', messages: [second, third] });
    time.advance(30_001);
    const expired = await t.http('GET', `/v2/user/messages?afterID=${first.messageID}`, { token: u.token });
    expect(expired.body).toEqual({ status: 'cache_expired', availableMessages: [third] });
  });
  it('keeps nothing for an account that never logged in: a replay after its first login answers cache_expired for what came before', async () => {
    t = await startTestSim();
    const g = t.game();
    // Made in-process like the synthetic market's traders: no session, so no client can hold its messages.
    const made = createUser(t.sim.context, {
      username: 'uf-in-process',
      password: 'uf-in-process-pw',
      balance: 100_000,
    });
    if (!made.ok) throw new Error(made.error);
    const id = made.value.id;
    for (let i = 0; i < 3; i++) place(t, id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 200 + i, bet: 1 });
    const login = await t.http('POST', '/user/login', {
      body: { username: 'uf-in-process', password: 'uf-in-process-pw' },
    });
    const token = login.body.data.user.auth as string;
    // afterID is required (feeds §8): the earliest id there is asks for everything kept.
    const fromStart = `/v2/user/messages?afterID=${encodeURIComponent('0-0')}`;
    const before = await t.http('GET', fromStart, { token });
    expect(before.body).toEqual({ status: 'cache_expired', availableMessages: [] });
    // From the first login on, the log keeps the account's messages.
    const c = await feed(t, token);
    place(t, id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 210, bet: 1 });
    const live = (await c.take(any)).value;
    const after = await t.http('GET', fromStart, { token });
    expect(after.body).toEqual({ status: 'cache_expired', availableMessages: [live] });
    const since = await t.http('GET', `/v2/user/messages?afterID=${live.messageID}`, { token });
    expect(since.body).toEqual({ status: 'success', messages: [] });
  });
});

describe('user feed faults and liveness', () => {
  it('malformed frames replace live messages, and the real ones remain in the replay log', async () => {
    t = await startTestSim();
    const u = await t.user('uf-malformed');
    const g = t.game();
    const c = await feed(t, u.token);
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 200, bet: 1 });
    const good = (await c.take(any)).value;
    t.sim.context.faults.malformedFeedRate = 1;
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 210, bet: 1 });
    t.sim.context.faults.malformedFeedRate = 0;
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 220, bet: 1 });
    const after = await c.take(any);
    expect(after.skipped).toHaveLength(1);
    expect(typeof after.skipped[0]).toBe('string'); // the raw, unparseable frame
    expect(() => JSON.parse(after.skipped[0] as string)).toThrow();
    const r = await t.http('GET', `/v2/user/messages?afterID=${good.messageID}`, { token: u.token });
    expect(r.body.status).toBe('success');
    expect(r.body.messages.map((m: any) => m.unmatched.odds)).toEqual([210, 220]);
    expect(r.body.messages[1]).toEqual(after.value);
  });

  it('dropSocketsEveryMs terminates feed connections at that period', async () => {
    const time = manualTime();
    t = await startTestSim({ time });
    const u = await t.user('uf-drop');
    const c = await feed(t, u.token);
    const ctx = t.sim.context;
    ctx.faults.dropSocketsEveryMs = 5_000;
    for (const h of ctx.hooks.onFaultsChanged) h(ctx.faults);
    time.advance(4_999);
    await c.roundTrip();
    expect(c.closed).toBe(false);
    time.advance(1);
    await c.closedPromise;
    // Turned off: a new connection stays up.
    ctx.faults.dropSocketsEveryMs = 0;
    for (const h of ctx.hooks.onFaultsChanged) h(ctx.faults);
    const c2 = await feed(t, u.token);
    time.advance(20_000);
    await c2.roundTrip();
    expect(c2.closed).toBe(false);
  });

  it('pings every 10 s and terminates a connection without pong for 30 s', async () => {
    const time = manualTime();
    t = await startTestSim({ time });
    const u = await t.user('uf-ping');
    const mute = await clients.open(PATH, u.token, { autoPong: false });
    const healthy = await clients.open(PATH, u.token);
    let mutePings = 0;
    mute.ws.on('ping', () => mutePings++);
    const nextPing = (c: FeedClient) => new Promise<void>((resolve) => c.ws.once('ping', () => resolve()));
    for (let s = 10; s <= 50; s += 10) {
      const pinged = nextPing(healthy);
      time.advance(10_000);
      await pinged;
      // Let the automatic pong reach the server before time moves on.
      await new Promise((r) => setTimeout(r, 30));
      if (s === 20) expect(mute.closed).toBe(false);
    }
    await mute.closedPromise;
    expect(mutePings).toBe(2); // pinged at 10 s and 20 s, terminated at 30 s
    expect(healthy.closed).toBe(false);
  });
});
