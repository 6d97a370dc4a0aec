import { afterEach, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import { compareMessageIds, parseMessageId } from '../../src/exchange/socket/message-id.ts';
import {
  RECONCILE_RETRY_MAX_MS,
  RECONCILE_RETRY_MS,
  UserFeedClient,
  type UserFeedClientOptions,
} from '../../src/exchange/socket/user-feed-client.ts';
import type { UserFeedEvent, UserFeedMessageEvent } from '../../src/exchange/socket/user-feed-events.ts';
import { manualTime, settleEventLoop, type ManualTimeSource } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { dropSimSockets, FAST, fixedTokens, Recorder, until } from './support-socket.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const home = (g: EngineGame) => g.participants[1].id;
const away = (g: EngineGame) => g.participants[0].id;

async function setup(options: Parameters<typeof startTestSim>[0] = {}) {
  const t = await startTestSim(options);
  cleanups.push(() => t.close());
  const maker = await t.user('uf-maker');
  const taker = await t.user('uf-taker');
  return { t, maker, taker, g: t.game(), engine: t.sim.context.engine };
}

async function feed<R = unknown>(t: TestSim, token: string, options: Partial<UserFeedClientOptions<R>> = {}) {
  const client = new UserFeedClient<R>({ ...FAST, streamingUrl: t.url, tokens: fixedTokens(token), ...options });
  cleanups.push(() => client.close());
  const events = new Recorder<UserFeedEvent<R>>(client.events$);
  const states = new Recorder<SocketState>(client.state$);
  client.start();
  await states.next((s) => s.status === 'open');
  await client.socket.roundTrip();
  return { client, events, states };
}

function placeOk(t: TestSim, userId: string, order: Record<string, unknown>) {
  const [entry] = t.sim.context.engine.place(userId, [order]);
  if (!entry || entry.status !== 'ok') throw new Error(`place failed: ${JSON.stringify(entry)}`);
  return entry;
}

const messageEvents = <R>(events: UserFeedEvent<R>[]) =>
  events.filter((e): e is UserFeedMessageEvent => 'messageID' in e);
const makerFills = <R>(events: UserFeedEvent<R>[]) =>
  events.filter((e): e is Extract<UserFeedMessageEvent, { type: 'makerFill' }> => e.type === 'makerFill');

function expectStrictlyIncreasing(ids: string[]) {
  for (let i = 1; i < ids.length; i++)
    expect(
      compareMessageIds(parseMessageId(ids[i - 1]!)!, parseMessageId(ids[i]!)!),
      `${ids[i - 1]} then ${ids[i]}`,
    ).toBeLessThan(0);
}

async function reopen(states: Recorder<SocketState>, connection: number) {
  return states.next((s) => s.status === 'open' && s.connection === connection);
}

describe('user feed client: classification', () => {
  it('orderPlaced, makerFill (partial, then complete), takerFill, orderCancelled; the cursor follows', async () => {
    const { t, maker, taker, g } = await setup();
    const m = await feed(t, maker.token);
    const k = await feed(t, taker.token);

    const a = placeOk(t, maker.id, {
      gameID: g.id,
      type: 'moneyline',
      side: home(g),
      odds: -120,
      bet: 120,
      userReference: 'mk-a',
    });
    const b = placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -120, bet: 60 });
    const took = placeOk(t, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 50 }); // 60 of a's 120
    placeOk(t, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 50 }); // the other 60 of a
    t.sim.context.engine.cancel(maker.id, b.unmatched!.orderID);

    const cancelled = await m.events.next((e) => e.type === 'orderCancelled');
    const seen = messageEvents(m.events.items);
    expect(seen.map((e) => e.type)).toEqual(['orderPlaced', 'orderPlaced', 'makerFill', 'makerFill', 'orderCancelled']);
    const [p1, , f1, f2] = seen as [
      UserFeedMessageEvent,
      UserFeedMessageEvent,
      UserFeedMessageEvent,
      UserFeedMessageEvent,
    ];
    expect(p1.type === 'orderPlaced' && p1.order).toMatchObject({
      orderID: a.unmatched!.orderID,
      offered: 120,
      filled: 0,
      remaining: 120,
      userReference: 'mk-a',
    });
    expect(f1.type === 'makerFill' && [f1.partial, f1.fill.txID, f1.fill.amount, f1.order.remaining]).toEqual([
      true,
      took.matched[0]!.txID,
      60,
      60,
    ]);
    expect(f2.type === 'makerFill' && [f2.partial, f2.order.remaining]).toEqual([false, 0]);
    expect(cancelled.type === 'orderCancelled' && cancelled.order).toMatchObject({
      orderID: b.unmatched!.orderID,
      offered: 0,
    });
    expect(seen.every((e) => e.source === 'live')).toBe(true);
    expect(m.client.cursor).toBe(cancelled.type === 'orderCancelled' ? cancelled.messageID : null);
    expectStrictlyIncreasing(seen.map((e) => e.messageID));

    const tf = await k.events.next((e) => e.type === 'takerFill');
    expect(tf.type === 'takerFill' && tf.fill).toMatchObject({ txID: took.matched[0]!.txID, amount: 50, odds: 120 });
    expect(tf.type === 'takerFill' && tf.fill.risk).toBeCloseTo(50.5, 9);
    expect(m.client.stats).toMatchObject({ processed: 5, duplicates: 0, malformed: 0, replays: 0 });
  });
});

describe('user feed client: gap recovery', () => {
  it('after a drop, replays the fills placed while disconnected and those during the replay: every txID once', async () => {
    const time: ManualTimeSource = manualTime();
    const { t, maker, taker, g } = await setup({ time });
    const { client, events, states } = await feed(t, maker.token);
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -110, bet: 5_000 });
    const takerTx: string[] = [];
    const take = (bet: number) =>
      takerTx.push(
        ...placeOk(t, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 110, bet }).matched.map(
          (f) => f.txID,
        ),
      );
    take(10);
    await events.next((e) => e.type === 'makerFill');

    // The replay answer is held back, so fills made right after the reconnect arrive live
    // while it is under way and are in the replay too.
    t.sim.context.faults.restLatencyMs = 150;
    dropSimSockets(t, time);
    for (const bet of [11, 12, 13]) take(bet); // while disconnected: only in the server's log
    await reopen(states, 2);
    for (const bet of [14, 15]) take(bet); // live during the replay
    await until(() => makerFills(events.items).length >= 6, 3_000, 'six maker fills');
    await client.socket.roundTrip();
    t.sim.context.faults.restLatencyMs = 0;

    const fills = makerFills(events.items);
    expect(fills.map((f) => f.fill.txID).sort()).toEqual([...takerTx].sort());
    expect(new Set(fills.map((f) => f.fill.txID)).size).toBe(fills.length);
    expect(fills.map((f) => f.fill.amount)).toEqual(
      [10, 11, 12, 13, 14, 15].map((x) => x * 1.1).map((x) => expect.closeTo(x, 9)),
    );
    expect(fills.slice(1, 4).map((f) => f.source)).toEqual(['replay', 'replay', 'replay']);
    expectStrictlyIncreasing(messageEvents(events.items).map((e) => e.messageID));
    expect(client.stats).toMatchObject({
      replays: 1,
      replayedMessages: 5,
      duplicates: 2,
      processed: 7,
      replayFailures: 0,
    });
    expect(client.cursor).toBe(fills.at(-1)!.messageID);
  });

  it('cache_expired: processes what is left, warns, and reconciles through the injected callback', async () => {
    const time = manualTime();
    const { t, maker, g } = await setup({ time, settings: { userFeedRetentionCount: 3 } });
    let reconcileCalls = 0;
    const reconcile = async () => {
      reconcileCalls++;
      const r = await t.http('GET', '/user/getUnmatched', { token: maker.token });
      return { openOrders: (r.body.data.unmatched as unknown[]).length };
    };
    const { client, events, states } = await feed(t, maker.token, { reconcile });
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 200, bet: 1 });
    const first = await events.next((e) => e.type === 'orderPlaced');
    dropSimSockets(t, time);
    const missed = [201, 202, 203, 204, 205, 206].map(
      (odds) =>
        placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds, bet: 1 }).unmatched!.orderID,
    );
    await reopen(states, 2);

    const reconciled = await events.next((e) => e.type === 'reconciled');
    expect(reconciled).toEqual({ type: 'reconciled', reason: 'cache_expired', result: { openOrders: 7 } });
    const after = events.items.slice(events.items.indexOf(first) + 1);
    expect(after.map((e) => e.type)).toEqual(['orderPlaced', 'orderPlaced', 'orderPlaced', 'gapWarning', 'reconciled']);
    expect(after[3]).toEqual({
      type: 'gapWarning',
      reason: 'cache_expired',
      cursor: 'messageID' in first ? first.messageID : null,
      availableMessages: 3,
    });
    // Only the three the server still held; the reconciliation covers the rest.
    expect(messageEvents(after).map((e) => (e.type === 'orderPlaced' ? e.order.orderID : null))).toEqual(
      missed.slice(3),
    );
    expect(reconcileCalls).toBe(1);
    expect(client.stats).toMatchObject({ cacheExpired: 1, reconciles: 1 });
  });

  it('a frame that could not be read is recovered from the replay log', async () => {
    const { t, maker, g } = await setup();
    const { client, events } = await feed(t, maker.token);
    const ids = [
      placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 1 }).unmatched!.orderID,
    ];
    await events.next((e) => e.type === 'orderPlaced');
    t.sim.context.faults.malformedFeedRate = 1;
    try {
      ids.push(
        placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 160, bet: 1 }).unmatched!.orderID,
      );
    } finally {
      t.sim.context.faults.malformedFeedRate = 0;
    }
    ids.push(
      placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 170, bet: 1 }).unmatched!.orderID,
    );
    await until(() => messageEvents(events.items).length === 3, 3_000, 'three messages');
    await client.socket.roundTrip();
    const placed = messageEvents(events.items);
    expect(placed.map((e) => (e.type === 'orderPlaced' ? e.order.orderID : null))).toEqual(ids);
    expect(placed.map((e) => e.source)).toEqual(['live', 'replay', 'replay']);
    expect(client.stats).toMatchObject({ malformed: 1, replays: 1, duplicates: 1, processed: 3 });
  });

  it('resumes from a cursor a previous run persisted: exactly the messages after it', async () => {
    const { t, maker, g } = await setup();
    const first = await feed(t, maker.token);
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 1 });
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 151, bet: 1 });
    await until(() => messageEvents(first.events.items).length === 2);
    const cursor = first.client.cursor;
    await first.client.close();
    const later = [152, 153].map(
      (odds) =>
        placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds, bet: 1 }).unmatched!.orderID,
    );

    const second = await feed(t, maker.token, { cursor });
    await until(() => messageEvents(second.events.items).length === 2);
    await second.client.socket.roundTrip();
    const got = messageEvents(second.events.items);
    expect(got.map((e) => (e.type === 'orderPlaced' ? e.order.orderID : null))).toEqual(later);
    expect(got.every((e) => e.source === 'replay')).toBe(true);
    expect(() => new UserFeedClient({ streamingUrl: t.url, tokens: fixedTokens('x'), cursor: 'yesterday' })).toThrow(
      RangeError,
    );
  });

  it('a reconnect before any message has no cursor to replay from: warns and reconciles', async () => {
    const time = manualTime();
    const { t, maker } = await setup({ time });
    const { events, states } = await feed(t, maker.token, { reconcile: async () => 'rebuilt' });
    dropSimSockets(t, time);
    await reopen(states, 2);
    const done = await events.next((e) => e.type === 'reconciled');
    expect(done).toEqual({ type: 'reconciled', reason: 'no_cursor', result: 'rebuilt' });
    expect(events.items[0]).toEqual({ type: 'gapWarning', reason: 'no_cursor', cursor: null, availableMessages: 0 });
  });

  it('a failed replay drops the connection and replays again on the next one, losing nothing', async () => {
    const time = manualTime();
    const { t, maker, g } = await setup({ time });
    const { client, events, states } = await feed(t, maker.token, { replayTimeoutMs: 300 });
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 1 });
    await events.next((e) => e.type === 'orderPlaced');
    t.sim.context.faults.restErrorRate = 1;
    dropSimSockets(t, time);
    const missed = placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 160, bet: 1 })
      .unmatched!.orderID;
    await reopen(states, 2);
    await until(() => client.stats.replayFailures >= 1, 3_000, 'a failed replay');
    t.sim.context.faults.restErrorRate = 0;
    const recovered = await events.next((e) => e.type === 'orderPlaced' && e.order.orderID === missed);
    expect('source' in recovered && recovered.source).toBe('replay');
    expect(
      states.items.some((s) => s.status === 'reconnecting' && /replay failed/.test(s.lastError?.message ?? '')),
    ).toBe(true);
    expect(client.stats.processed).toBe(2);
  });
});

describe('user feed client: a failed reconciliation', () => {
  /**
   * A gap (a reconnect before any message: no cursor) whose reconciliation fails `failures`
   * times. The client runs on its own virtual clock, so when it tries again is exact.
   */
  async function failingReconcile(failures: number) {
    const simTime = manualTime();
    const { t, maker } = await setup({ time: simTime });
    const clientTime = manualTime();
    const calls: number[] = [];
    const reconcile = async () => {
      calls.push(clientTime.clock.now());
      if (calls.length <= failures) throw new Error(`REST 503 (${calls.length})`);
      return 'rebuilt';
    };
    const { client, events, states } = await feed(t, maker.token, { reconcile, scheduler: clientTime.scheduler });
    const start = clientTime.clock.now();
    dropSimSockets(t, simTime);
    await states.next((s) => s.status === 'reconnecting');
    clientTime.advance(FAST.backoff!.baseMs!);
    await reopen(states, 2);
    await until(() => calls.length === 1, 3_000, 'the first reconciliation');
    await settleEventLoop();
    /** Move the client's clock by `ms`, letting each due timer's promise work finish before the next. */
    const advance = (ms: number) => clientTime.advanceToSettling(clientTime.clock.now() + ms, settleEventLoop);
    return { client, events, calls, start, advance, clientTime };
  }

  it('is tried again after 1 s, then 2 s, until it succeeds', async () => {
    const { events, calls, start, advance } = await failingReconcile(2);
    const types = () => events.items.map((e) => e.type);
    expect(types()).toEqual(['gapWarning', 'reconcileFailed']);
    await advance(RECONCILE_RETRY_MS - 1);
    expect(calls).toHaveLength(1);
    await advance(1);
    expect(calls).toHaveLength(2);
    await advance(2 * RECONCILE_RETRY_MS);
    expect(events.items[1]).toMatchObject({
      type: 'reconcileFailed',
      reason: 'no_cursor',
      retryInMs: RECONCILE_RETRY_MS,
    });
    expect(events.items[2]).toMatchObject({
      type: 'reconcileFailed',
      reason: 'no_cursor',
      retryInMs: 2 * RECONCILE_RETRY_MS,
    });
    expect(calls.map((at) => at - start)).toEqual([
      FAST.backoff!.baseMs!,
      FAST.backoff!.baseMs! + 1_000,
      FAST.backoff!.baseMs! + 3_000,
    ]);
    expect(types()).toEqual(['gapWarning', 'reconcileFailed', 'reconcileFailed', 'reconciled']);
    expect(events.items[3]).toEqual({ type: 'reconciled', reason: 'no_cursor', result: 'rebuilt' });
  });

  it('the wait doubles up to 30 s, and close() ends the retries', async () => {
    const { client, events, calls, advance } = await failingReconcile(Infinity);
    await advance(120_000);
    const waits = events.items.flatMap((e) => (e.type === 'reconcileFailed' ? [e.retryInMs] : []));
    expect(waits.slice(0, 7)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(Math.max(...waits)).toBe(RECONCILE_RETRY_MAX_MS);
    expect(calls.length).toBe(waits.length);
    await client.close();
    const before = calls.length;
    await advance(120_000);
    expect(calls.length).toBe(before);
  });
});

describe('user feed client: recovering$', () => {
  /** The client's events, its recovering$ and its socket's state as a later subscriber (the runtime) hears them, in one order. */
  function timeline<R>(client: UserFeedClient<R>) {
    const log: string[] = [];
    const subs = [
      client.recovering$.subscribe((r) => log.push(`recovering ${r}`)),
      client.state$.subscribe((s) => log.push(`${s.status} ${s.connection}`)),
      client.events$.subscribe((e) => log.push(e.type)),
    ];
    cleanups.push(() => subs.forEach((s) => s.unsubscribe()));
    return log;
  }
  const around = (log: string[], from: string) =>
    log.slice(log.indexOf(from)).filter((x) => !x.startsWith('connecting') && !x.startsWith('reconnecting'));

  it('turns true before the new connection is reported open, and false only after the replayed messages', async () => {
    const time = manualTime();
    const { t, maker, g } = await setup({ time });
    const { client, events, states } = await feed(t, maker.token);
    const log = timeline(client);
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 1 });
    await events.next((e) => e.type === 'orderPlaced');
    t.sim.context.faults.restLatencyMs = 100;
    dropSimSockets(t, time);
    await states.next((s) => s.status === 'reconnecting');
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 160, bet: 1 });
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 170, bet: 1 });
    await reopen(states, 2);
    expect(log.at(-1)).toBe('open 2');
    await until(() => log.at(-1) === 'recovering false', 3_000, 'the replay done');
    t.sim.context.faults.restLatencyMs = 0;
    // True from the drop on, so never false while the new connection is open and the replay runs.
    expect(around(log, 'orderPlaced')).toEqual([
      'orderPlaced',
      'recovering true',
      'open 2',
      'orderPlaced',
      'orderPlaced',
      'recovering false',
    ]);
  });

  it('stays true across a failed replay and the reconnect it makes, until the next connection has replayed', async () => {
    const time = manualTime();
    const { t, maker, g } = await setup({ time });
    const { client, events, states } = await feed(t, maker.token, { replayTimeoutMs: 300 });
    const log = timeline(client);
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 1 });
    await events.next((e) => e.type === 'orderPlaced');
    t.sim.context.faults.restErrorRate = 1;
    dropSimSockets(t, time);
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 160, bet: 1 });
    await reopen(states, 2);
    await until(() => client.stats.replayFailures >= 1, 3_000, 'a failed replay');
    t.sim.context.faults.restErrorRate = 0;
    await until(() => log.at(-1) === 'recovering false', 5_000, 'the replay done');
    const after = around(log, 'recovering true');
    expect(after.filter((x) => x.startsWith('recovering'))).toEqual(['recovering true', 'recovering false']);
    expect(after.slice(-2)).toEqual(['orderPlaced', 'recovering false']);
    expect(after.filter((x) => x.startsWith('open')).length).toBeGreaterThanOrEqual(2);
  });

  it('stays false through the replay after one unreadable frame on a connection that stays up', async () => {
    const { t, maker, g } = await setup();
    const { client, events } = await feed(t, maker.token);
    const log = timeline(client);
    placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 1 });
    await events.next((e) => e.type === 'orderPlaced');
    t.sim.context.faults.malformedFeedRate = 1;
    try {
      placeOk(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 160, bet: 1 });
    } finally {
      t.sim.context.faults.malformedFeedRate = 0;
    }
    await until(() => messageEvents(events.items).length === 2, 3_000, 'the replayed message');
    expect(client.stats.replays).toBe(1);
    expect(log.filter((x) => x.startsWith('recovering'))).toEqual(['recovering false']);
  });

  it('a gap the replay cannot fill: true until reconciled, and a second gap meanwhile keeps it true past the first reconciled', async () => {
    const time = manualTime();
    const { t, maker } = await setup({ time });
    const gates: (() => void)[] = [];
    const reconcile = () => new Promise<string>((resolve) => gates.push(() => resolve(`snapshot ${gates.length}`)));
    const { client, events, states } = await feed(t, maker.token, { reconcile });
    const log = timeline(client);
    // No message yet: each reconnect is a gap (no cursor) only REST fills.
    dropSimSockets(t, time);
    await reopen(states, 2);
    await until(() => gates.length === 1, 3_000, 'the first reconciliation');
    dropSimSockets(t, time);
    await reopen(states, 3);
    await events.next((e) => e.type === 'gapWarning', 3_000, 1);
    gates[0]!();
    await events.next((e) => e.type === 'reconciled');
    await until(() => gates.length === 2, 3_000, 'the second reconciliation');
    expect(log.filter((x) => x.startsWith('recovering')).at(-1)).toBe('recovering true');
    gates[1]!();
    await until(() => log.at(-1) === 'recovering false', 3_000, 'recovered');
    expect(log.filter((x) => x === 'reconciled' || x.startsWith('recovering'))).toEqual([
      'recovering false',
      'recovering true',
      'reconciled',
      'reconciled',
      'recovering false',
    ]);
  });
});
