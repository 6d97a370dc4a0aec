import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import type { PriceFeedEvent } from '../../src/exchange/schemas/price-feed.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import { PriceFeedClient } from '../../src/exchange/socket/price-feed-client.ts';
import { createPriceFrameParser } from '../../src/exchange/socket/price-parse.ts';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { capturedLogs, dropSimSockets, FAST, fixedTokens, Recorder, tinyServer } from './support-socket.ts';

let t: TestSim;
let maker: { id: string; token: string };
let taker: { id: string; token: string };
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  t = await startTestSim();
  maker = await t.user('pfc-maker');
  taker = await t.user('pfc-taker');
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => t.close());

const away = (g: EngineGame) => g.participants[0].id;
const home = (g: EngineGame) => g.participants[1].id;

function place(sim: TestSim, userId: string, order: Record<string, unknown>) {
  const [entry] = sim.sim.context.engine.place(userId, [order]);
  if (!entry || entry.status !== 'ok') throw new Error(`place failed: ${JSON.stringify(entry)}`);
  return entry;
}

async function feed(
  sim: TestSim,
  token: string,
  options: Partial<ConstructorParameters<typeof PriceFeedClient>[0]> = {},
) {
  const client = new PriceFeedClient({ ...FAST, streamingUrl: sim.url, tokens: fixedTokens(token), ...options });
  cleanups.push(() => client.close());
  const events = new Recorder<PriceFeedEvent>(client.events$);
  const states = new Recorder<SocketState>(client.state$);
  const frames = new Recorder<string>(client.socket.frames$);
  client.start();
  await states.next((s) => s.status === 'open');
  await client.socket.roundTrip();
  return { client, events, states, frames };
}

type OrderUpdateEvent = Extract<PriceFeedEvent, { type: 'orderUpdate' }>;
const orderUpdateOf =
  (gameID: string) =>
  (e: PriceFeedEvent): e is OrderUpdateEvent =>
    e.type === 'orderUpdate' && e.payload.gameID === gameID;

describe('price feed client: events', () => {
  it('types gameUpdate, orderUpdate (place, fill, cancel) and matchedVolumeUpdate', async () => {
    const { client, events } = await feed(t, taker.token);
    const g = t.game({ league: 'NHL', sport: 'hockey' });
    const created = await events.next((e) => e.type === 'gameUpdate' && e.payload.id === g.id);
    expect(created.type === 'gameUpdate' && created.messageType).toBe('marketOpen');
    expect(created.type === 'gameUpdate' && created.payload.participants.map((p) => p.homeAway)).toEqual([
      'away',
      'home',
    ]);

    const made = place(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -120, bet: 100 });
    const orderID = made.unmatched!.orderID;
    const placed = await events.next(orderUpdateOf(g.id));
    // A maker on home at -120 is offered to takers of away at +120 (feeds §3).
    expect(placed.payload).toMatchObject({
      gameID: g.id,
      league: 'NHL',
      sport: 'hockey',
      type: 'moneyline',
      participantID: away(g),
    });
    expect(placed.payload.sideOrders).toHaveLength(1);
    expect(placed.payload.sideOrders[0]).toMatchObject({ id: orderID, odds: 120, bet: 100 });
    expect(placed.payload.sideOrders[0]!.sumUntaken).toBeCloseTo(100 / 1.2, 9);

    const n = events.items.length;
    place(t, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 30 });
    const filled = await events.next(orderUpdateOf(g.id), 3_000, n);
    expect(filled.payload.epoch).toBeGreaterThan(placed.payload.epoch!);
    expect(filled.payload.sideOrders[0]!.sumUntaken).toBeCloseTo(100 / 1.2 - 30, 9);
    const volume = await events.next((e) => e.type === 'matchedVolumeUpdate' && e.payload.gameID === g.id);
    expect(volume.type === 'matchedVolumeUpdate' && volume.payload.matchedVolume).toBeCloseTo(30 + 36, 9);

    const m = events.items.length;
    t.sim.context.engine.cancel(maker.id, orderID);
    const cancelled = await events.next(orderUpdateOf(g.id), 3_000, m);
    expect(cancelled.payload.sideOrders).toEqual([]);
    expect(client.stats).toMatchObject({ malformed: 0, unknownTypes: 0 });
    expect(client.stats.events).toBe(events.items.length);
  });

  it('counts and logs malformed frames (truncated) and keeps going', async () => {
    const logs = capturedLogs();
    const { client, events } = await feed(t, taker.token, { logger: logs.logger });
    const g = t.game();
    const ctx = t.sim.context;
    ctx.faults.malformedFeedRate = 1;
    try {
      for (let i = 0; i < 3; i++)
        place(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -130 - i, bet: 500 });
    } finally {
      ctx.faults.malformedFeedRate = 0;
    }
    place(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -140, bet: 10 });
    const after = await events.next(
      (e): e is OrderUpdateEvent => orderUpdateOf(g.id)(e) && e.payload.sideOrders.length === 4,
    );
    expect(after.payload.sideOrders.map((o) => o.odds)).toEqual([140, 132, 131, 130]);
    expect(client.stats.malformed).toBe(3);
    expect(client.socket.state.status).toBe('open');
    const warned = logs.lines().filter((l) => l.msg === 'price feed: malformed frame skipped');
    expect(warned).toHaveLength(3);
    for (const w of warned) {
      expect(w.reason).toBe('not JSON');
      expect(String(w.frame).length).toBeLessThanOrEqual(230);
    }
  });

  it('counts unknown message types (logged once per type) and schema failures apart, never stopping', async () => {
    const good = JSON.stringify([
      'matchedVolumeUpdate',
      { gameID: 'g1', parentGameID: null, league: 'NBA', sport: 'basketball', matchedVolume: 12.5 },
    ]);
    const srv = await tinyServer({
      onConnection: (ws) => {
        for (const f of [
          '["oddsBoost",{"a":1}]',
          '["oddsBoost",{"a":2}]',
          '["orderUpdate",{"epoch":"x"}]',
          '{"not":"a tuple"}',
          good,
        ])
          ws.send(f);
        ws.send(Buffer.from([1, 2, 3]), { binary: true });
      },
    });
    cleanups.push(() => srv.close());
    const logs = capturedLogs();
    const client = new PriceFeedClient({
      ...FAST,
      streamingUrl: srv.url,
      tokens: fixedTokens('t'),
      logger: logs.logger,
    });
    cleanups.push(() => client.close());
    const events = new Recorder<PriceFeedEvent>(client.events$);
    client.start();
    const mv = await events.next((e) => e.type === 'matchedVolumeUpdate');
    expect(mv.payload).toEqual({
      gameID: 'g1',
      parentGameID: null,
      league: 'NBA',
      sport: 'basketball',
      matchedVolume: 12.5,
    });
    await client.socket.roundTrip();
    expect(client.stats).toMatchObject({ frames: 5, events: 1, unknownTypes: 2, malformed: 2 });
    expect(client.socket.stats.binaryFrames).toBe(1);
    const unknown = logs.lines().filter((l) => l.msg === 'price feed: unknown message type skipped');
    expect(unknown.map((l) => [l.level, l.messageType])).toEqual([
      [30, 'oddsBoost'],
      [20, 'oddsBoost'],
    ]);
  });
});

describe('price feed client: subscriptions', () => {
  it('re-sends the subscription after the server drops the connection, and filtering still applies', async () => {
    const time = manualTime();
    const sim = await startTestSim({ time });
    cleanups.push(() => sim.close());
    const u = await sim.user('pfc-sub');
    const nba = sim.game({ league: 'NBA', sport: 'basketball' });
    const nhl = sim.game({ league: 'NHL', sport: 'hockey' });
    const { client, events, states } = await feed(sim, u.token);
    client.subscribe({ leagueIDs: ['nhl'] }, { replace: true });
    await client.socket.roundTrip();

    dropSimSockets(sim, time);
    await states.next((s) => s.status === 'reconnecting');
    await states.next((s) => s.status === 'open' && s.connection === 2);
    await client.socket.roundTrip();
    expect(client.stats.reconnects).toBe(1);

    const before = events.items.length;
    place(sim, u.id, { gameID: nba.id, type: 'moneyline', side: home(nba), odds: -110, bet: 10 });
    place(sim, u.id, { gameID: nhl.id, type: 'moneyline', side: home(nhl), odds: -110, bet: 10 });
    await events.next(orderUpdateOf(nhl.id), 3_000, before);
    const games = events.items.slice(before).map((e) => (e.type === 'gameUpdate' ? e.payload.id : e.payload.gameID));
    expect(games).not.toContain(nba.id);
    expect(client.subscription).toEqual({ all: false, gameIDs: [], leagueIDs: ['nhl'], sportIDs: [] });

    // Back to broadcast-all: nothing to restore, and the NBA game is delivered again.
    client.subscribeAll();
    await client.socket.roundTrip();
    const mark = events.items.length;
    place(sim, u.id, { gameID: nba.id, type: 'moneyline', side: home(nba), odds: -115, bet: 10 });
    await events.next(orderUpdateOf(nba.id), 3_000, mark);
  });

  it('keeps commands as the server applies them (additive, replace, unsubscribe, no-op)', async () => {
    const { client } = await feed(t, taker.token);
    client.subscribe({ leagueIDs: [''] });
    expect(client.subscription.all).toBe(true);
    client.subscribe({ leagueIDs: ['NBA', ' '] });
    client.subscribe({ sportIDs: ['Hockey'], gameIDs: ['g1'] });
    expect(client.subscription).toEqual({ all: false, gameIDs: ['g1'], leagueIDs: ['nba'], sportIDs: ['hockey'] });
    client.unsubscribe({ leagueIDs: ['NBA'] });
    expect(client.subscription).toEqual({ all: false, gameIDs: ['g1'], leagueIDs: [], sportIDs: ['hockey'] });
    client.subscribe({}, { replace: true });
    expect(client.subscription).toEqual({ all: false, gameIDs: [], leagueIDs: [], sportIDs: [] });
    // With an all-empty replace in force nothing is delivered, as the server does.
    await client.socket.roundTrip();
    const g = t.game();
    const { events: control } = await feed(t, taker.token);
    place(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -150, bet: 10 });
    await control.next(orderUpdateOf(g.id));
    await client.socket.roundTrip();
    expect(client.stats.events).toBe(0);
  });
});

describe('price frame parser', () => {
  let frames: string[] = [];

  beforeAll(async () => {
    // Real frames of every kind and market type, as the simulator renders them.
    const { frames: rec } = await feed(t, taker.token);
    const g = t.game({ league: 'NBA', sport: 'basketball' });
    const s = t.game({ league: 'EPL', sport: 'soccer' });
    place(t, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -120, bet: 100 });
    place(t, maker.id, { gameID: g.id, type: 'spread', side: home(g), number: -3.5, odds: -110, bet: 110 });
    place(t, maker.id, {
      gameID: g.id,
      type: 'total',
      side: 'over',
      number: 209.5,
      odds: -104,
      bet: 265.2,
      orderType: 'postArb',
    });
    place(t, maker.id, { gameID: s.id, type: 'moneyline1x2', market: 'draw', side: 'yes', odds: 250, bet: 10 });
    place(t, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 10 });
    await rec.next((f) => f.includes('matchedVolumeUpdate'));
    frames = [...rec.items];
    expect(new Set(frames.map((f) => (JSON.parse(f) as [string])[0]))).toEqual(
      new Set(['gameUpdate', 'orderUpdate', 'matchedVolumeUpdate']),
    );
  });

  it('skips unknown message types, accepts unknown gameUpdate messageTypes, and explains rejections', () => {
    const parse = createPriceFrameParser('fast');
    expect(parse('["spreadAlert",{"x":1}]')).toEqual({ ok: false, problem: 'unknownType', messageType: 'spreadAlert' });
    expect(parse('{"type":"orderUpdate"}')).toMatchObject({
      ok: false,
      problem: 'malformed',
      reason: 'not a [type, payload] tuple',
    });
    expect(parse('["orderUpdate",{"epo')).toMatchObject({ ok: false, problem: 'malformed', reason: 'not JSON' });
    const game = frames.find((f) => f.startsWith('["gameUpdate"'))!;
    const suspended = JSON.parse(game) as [string, Record<string, unknown>];
    suspended[1].messageType = 'marketSuspended';
    const out = parse(JSON.stringify(suspended));
    expect(out.ok && out.event.type === 'gameUpdate' && out.event.messageType).toBeNull();
    const update = JSON.parse(frames.find((f) => f.startsWith('["orderUpdate"'))!) as [string, Record<string, unknown>];
    update[1].epoch = 'soon';
    expect(parse(JSON.stringify(update))).toMatchObject({
      ok: false,
      problem: 'malformed',
      reason: expect.stringContaining('orderUpdate: epoch:'),
    });
  });

  it('the fast path accepts exactly what the zod schemas accept, on real frames and on every single-field mutation of them', () => {
    const fast = createPriceFrameParser('fast');
    const zod = createPriceFrameParser('zod');
    const compiled = createPriceFrameParser('compiled');
    const replacements: unknown[] = [undefined, null, 'x', '', 7, true, [], {}];
    let checked = 0;
    let rejected = 0;
    const agree = (text: string) => {
      const a = fast(text);
      const b = zod(text);
      expect(a.ok, text.slice(0, 300)).toBe(b.ok);
      expect(compiled(text).ok).toBe(b.ok);
      if (a.ok && b.ok) expect(b.event).toEqual(expect.objectContaining({ type: a.event.type }));
      checked++;
      if (!b.ok) rejected++;
    };
    for (const text of frames) {
      agree(text);
      const [type, payload] = JSON.parse(text) as [string, Record<string, unknown>];
      const targets: Record<string, unknown>[] = [payload];
      const list = (payload.sideOrders ?? payload.awayMoneylines) as Record<string, unknown>[] | undefined;
      if (list?.[0]) targets.push(list[0]);
      for (const target of targets) {
        for (const key of Object.keys(target)) {
          const original = target[key];
          for (const r of replacements) {
            if (r === undefined) delete target[key];
            else target[key] = r;
            agree(JSON.stringify([type, payload]));
          }
          target[key] = original;
        }
      }
    }
    expect(checked).toBeGreaterThan(1_000);
    expect(rejected).toBeGreaterThan(300);
  });

  it('the fast path hands out the same values zod would', () => {
    const fast = createPriceFrameParser('fast');
    const zod = createPriceFrameParser('zod');
    for (const text of frames) {
      const a = fast(text);
      const b = zod(text);
      if (!a.ok || !b.ok) throw new Error(`rejected: ${text.slice(0, 200)}`);
      // zod strips keys its schema does not name; the fast path keeps them. Compare on zod's keys.
      expect(pick(a.event.payload, b.event.payload)).toEqual(b.event.payload);
    }
  });
});

function pick(source: unknown, shape: unknown): unknown {
  if (Array.isArray(shape)) return (source as unknown[]).map((v, i) => pick(v, shape[i]));
  if (shape && typeof shape === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(shape))
      out[k] = pick((source as Record<string, unknown>)[k], (shape as Record<string, unknown>)[k]);
    return out;
  }
  return source;
}
