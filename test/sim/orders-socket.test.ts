import { afterEach, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { Clients, type FeedClient } from './ws-client.ts';

const PATH = '/orders/ws';

let t: TestSim | undefined;
const clients = new Clients(() => t!.url);

afterEach(async () => {
  await clients.closeAll();
  await t?.close();
  t = undefined;
});

const away = (g: EngineGame) => g.participants[0].id;
const home = (g: EngineGame) => g.participants[1].id;

let seq = 0;
/** Send `[type, payload]` with a fresh requestID and wait for the reply carrying it. */
async function request(c: FeedClient, type: string, payload: Record<string, unknown> = {}): Promise<any> {
  const requestID = `r-${++seq}`;
  c.send([type, { requestID, ...payload }]);
  return (await c.take((m) => m !== null && typeof m === 'object' && m.requestID === requestID)).value;
}

async function setup(options: Parameters<typeof startTestSim>[0] = {}) {
  t = await startTestSim(options);
  const u = await t.user('os-user');
  const other = await t.user('os-other');
  const g = t.game();
  const c = await clients.open(PATH, u.token);
  return { sim: t, u, other, g, c, engine: t.sim.context.engine };
}

const resting = (g: EngineGame, odds: number, bet = 10, extra: Record<string, unknown> = {}) => ({
  gameId: g.id,
  type: 'moneyline',
  side: home(g),
  odds,
  bet,
  ...extra,
});

describe('orders socket: placeV3', () => {
  it('answers positionally; gameId and gameID are both accepted; a failure is spelled error_type', async () => {
    const { c, g, engine, u } = await setup();
    const r = await request(c, 'placeV3', {
      orders: [
        resting(g, 150, 20, { userReference: 'ref-1' }),
        { gameID: g.id, type: 'total', side: 'over', number: 200.5, odds: -110, bet: 11 },
        { gameId: g.id, type: 'moneyline', side: home(g), odds: 50, bet: 10 },
      ],
    });
    expect(r.requestID).toMatch(/^r-/);
    expect(r).not.toHaveProperty('error');
    expect(r.data).toHaveLength(3);
    expect(r.data[0]).toMatchObject({
      matched: [],
      unmatched: { offered: 20, odds: 150, type: 'moneyline', side: home(g), userReference: 'ref-1' },
    });
    expect(r.data[1]).toMatchObject({
      matched: [],
      unmatched: { offered: 11, type: 'total', side: 'over', number: 200.5 },
    });
    expect(r.data[2]).toEqual({ error: expect.any(String), error_type: 'validation_error' });
    expect(engine.openOrders(u.id).map((o) => o.id)).toEqual([
      r.data[0].unmatched.orderID,
      r.data[1].unmatched.orderID,
    ]);
  });

  it('reports fills in matched, and rejects a non-array orders field as a whole', async () => {
    const { c, g, other, engine } = await setup();
    engine.place(other.id, [{ gameID: g.id, type: 'moneyline', side: home(g), odds: -120, bet: 60 }]);
    const r = await request(c, 'placeV3', {
      orders: [{ gameId: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 50, orderType: 'fillAndKill' }],
    });
    expect(r.data[0].matched).toHaveLength(1);
    expect(r.data[0].matched[0]).toMatchObject({ amount: 50, odds: 120 });
    expect(r.data[0].unmatched).toEqual({});
    const bad = await request(c, 'placeV3', { orders: 'nope' });
    expect(bad).toEqual({ requestID: bad.requestID, error: expect.any(String) });
  });
});

describe('orders socket: cancels', () => {
  it('cancelById: success result, then whole-request errors', async () => {
    const { c, g, other, engine, u } = await setup();
    const placed = await request(c, 'placeV3', { orders: [resting(g, 150, 20, { userReference: 'abc' })] });
    const id = placed.data[0].unmatched.orderID;
    const r = await request(c, 'cancelById', { orderId: id });
    expect(r.data).toEqual([
      {
        success: true,
        orderID: id,
        odds: 150,
        filled: 0,
        offered: 0,
        remaining: 20,
        side: home(g),
        number: null,
        gameID: g.id,
        userReference: 'abc',
        description: expect.any(String),
      },
    ]);
    expect(engine.openOrders(u.id)).toEqual([]);

    expect(await request(c, 'cancelById', { orderId: id })).toMatchObject({ error: 'order already cancelled' });
    expect(await request(c, 'cancelById', { orderId: 'xyz' })).toMatchObject({ error: 'invalid order ID format' });
    expect(await request(c, 'cancelById', { orderId: 'f'.repeat(24) })).toMatchObject({ error: 'order not found' });
    const foreign = engine.place(other.id, [
      { gameID: g.id, type: 'moneyline', side: home(g), odds: 170, bet: 5 },
    ])[0] as any;
    const notMine = await request(c, 'cancelById', { orderId: foreign.unmatched.orderID });
    expect(notMine).toEqual({ requestID: notMine.requestID, error: 'unauthorized: order does not belong to user' });
    expect(engine.openOrders(other.id)).toHaveLength(1);
  });

  it('cancelById: an expired order, and a filled order of a graded game', async () => {
    const time = manualTime();
    const { c, g, other, engine } = await setup({ time });
    const placed = await request(c, 'placeV3', {
      orders: [resting(g, 150, 20, { expirationMinutes: 1 }), resting(g, -110, 11)],
    });
    time.advance(61_000);
    expect(await request(c, 'cancelById', { orderId: placed.data[0].unmatched.orderID })).toMatchObject({
      error: 'order is expired',
    });
    // Fill the second order completely, then grade the game.
    engine.place(other.id, [{ gameID: g.id, type: 'moneyline', side: away(g), odds: 110, bet: 10 }]);
    expect(engine.order(placed.data[1].unmatched.orderID)?.status).toBe('filled');
    expect(engine.settleGame(g.id, { away: 90, home: 100 }).ok).toBe(true);
    expect(await request(c, 'cancelById', { orderId: placed.data[1].unmatched.orderID })).toMatchObject({
      error: 'order already graded',
    });
  });

  it('cancelMultiple: positional results with failed entries; a malformed id fails the request', async () => {
    const { c, g, engine, u } = await setup();
    const placed = await request(c, 'placeV3', { orders: [resting(g, 150), resting(g, 160), resting(g, 170)] });
    const [a, b, keep] = placed.data.map((e: any) => e.unmatched.orderID) as string[];
    await request(c, 'cancelById', { orderId: b });
    const unknown = 'e'.repeat(24);
    const r = await request(c, 'cancelMultiple', { orderIDs: [a, b, unknown] });
    expect(r.data).toHaveLength(3);
    expect(r.data[0]).toMatchObject({ success: true, orderID: a, offered: 0, remaining: 10 });
    expect(r.data[1]).toEqual({ success: false, orderID: b, description: 'order already cancelled' });
    expect(r.data[2]).toEqual({ success: false, orderID: unknown, description: 'order not found' });
    expect(engine.openOrders(u.id).map((o) => o.id)).toEqual([keep]);

    expect(await request(c, 'cancelMultiple', { orderIDs: [keep, 'bad'] })).toMatchObject({
      error: 'invalid order ID format',
    });
    expect(await request(c, 'cancelMultiple', { orderIDs: 'nope' })).toMatchObject({ error: expect.any(String) });
    expect(engine.openOrders(u.id)).toHaveLength(1);
  });

  it('cancelAllByGame cancels only that game (and honours type / side filters); cancelAll cancels everything', async () => {
    const { c, g, engine, u, sim } = await setup();
    const g2 = sim.game();
    await request(c, 'placeV3', {
      orders: [
        resting(g, 150),
        { gameId: g.id, type: 'total', side: 'over', number: 201.5, odds: 120, bet: 10 },
        { gameId: g.id, type: 'total', side: 'under', number: 201.5, odds: 130, bet: 10 },
        resting(g2, 150),
        resting(g2, 160),
      ],
    });
    const byType = await request(c, 'cancelAllByGame', { gameId: g.id, type: 'total', side: 'over' });
    expect(byType.data).toHaveLength(1);
    expect(byType.data[0]).toMatchObject({ success: true, side: 'over', number: 201.5, gameID: g.id });
    const onlyTotals = await request(c, 'cancelAllByGame', { gameID: g.id, type: 'total' });
    expect(onlyTotals.data.map((d: any) => [d.success, d.side])).toEqual([[true, 'under']]);
    const byGame = await request(c, 'cancelAllByGame', { gameId: g.id });
    expect(byGame.data.map((d: any) => [d.success, d.gameID, d.side])).toEqual([[true, g.id, home(g)]]);
    expect(engine.openOrders(u.id).map((o) => o.gameID)).toEqual([g2.id, g2.id]);
    expect(await request(c, 'cancelAllByGame', { gameId: 'nope' })).toMatchObject({ error: expect.any(String) });

    const all = await request(c, 'cancelAll');
    expect(all.data).toHaveLength(2);
    expect(all.data.every((d: any) => d.success === true && d.gameID === g2.id)).toBe(true);
    expect(engine.openOrders(u.id)).toEqual([]);
    expect((await request(c, 'cancelAll')).data).toEqual([]);
  });
});

describe('orders socket: heartbeat', () => {
  it('acknowledges a heartbeat', async () => {
    const { c } = await setup();
    const r = await request(c, 'heartbeat', { requestTimeout: 20 });
    expect(r).toEqual({
      requestID: r.requestID,
      data: { type: 'heartbeatAck', serverTime: expect.any(String), timeoutSec: 20 },
    });
    expect(new Date(r.data.serverTime).toISOString()).toBe(r.data.serverTime);
  });

  it('rejects a missing or non-positive timeout', async () => {
    const { c } = await setup();
    for (const requestTimeout of [undefined, 0, -5, '10', null]) {
      const r = await request(c, 'heartbeat', requestTimeout === undefined ? {} : { requestTimeout });
      expect(r, String(requestTimeout)).toEqual({ requestID: r.requestID, error: 'Invalid heartbeat timeout' });
    }
  });

  it('cancels every open order of the account when no heartbeat arrives within the timeout', async () => {
    const time = manualTime();
    const { c, g, other, engine, u, sim } = await setup({ time });
    const g2 = sim.game();
    await request(c, 'placeV3', { orders: [resting(g, 150), resting(g2, 160)] });
    engine.place(other.id, [{ gameID: g.id, type: 'moneyline', side: home(g), odds: 170, bet: 5 }]);
    await request(c, 'heartbeat', { requestTimeout: 6 });
    time.advance(5_000);
    expect(engine.openOrders(u.id)).toHaveLength(2);
    await request(c, 'heartbeat', { requestTimeout: 6 }); // re-armed: 6 s from now
    time.advance(5_000);
    expect(engine.openOrders(u.id)).toHaveLength(2);
    time.advance(1_000);
    expect(engine.openOrders(u.id)).toEqual([]);
    expect(engine.openOrders(other.id)).toHaveLength(1); // only the account's own orders
    // Also visible over REST.
    const rest = await sim.http('GET', '/user/getUnmatched', { token: u.token });
    expect(rest.status).toBe(200);
    expect(rest.body.data.unmatched).toEqual([]);
    // The switch fired once: new orders stay.
    await request(c, 'placeV3', { orders: [resting(g, 180)] });
    time.advance(60_000);
    expect(engine.openOrders(u.id)).toHaveLength(1);
  });
});

describe('orders socket: framing and authentication', () => {
  it('answers unknown types with an error, ignores unparseable frames, and stays open', async () => {
    const { c } = await setup();
    expect(await request(c, 'frobnicate', {})).toMatchObject({ error: 'unknown request type' });
    c.send('{not json');
    c.send({ requestID: 'obj-1' });
    const obj = await c.take((m) => m?.requestID === 'obj-1');
    expect(obj.value).toEqual({ requestID: 'obj-1', error: 'unknown request type' });
    c.send([42, {}]);
    const noId = await c.take((m) => m?.error === 'unknown request type' && !('requestID' in m));
    expect(noId.value).toEqual({ error: 'unknown request type' });
    expect((await request(c, 'cancelAll')).data).toEqual([]);
    expect(c.closed).toBe(false);
  });

  it('rejects an unauthenticated handshake with 401, accepts raw and Bearer tokens', async () => {
    const { u, sim } = await setup();
    await expect(clients.open(PATH, null)).rejects.toMatchObject({ status: 401 });
    await expect(clients.open(PATH, 'a'.repeat(256))).rejects.toMatchObject({ status: 401 });
    await expect(clients.open('/v2/user', null)).rejects.toMatchObject({ status: 401 });
    const bearer = await clients.open(PATH, `Bearer ${u.token}`);
    expect((await request(bearer, 'cancelAll')).data).toEqual([]);
    expect(sim.url).toMatch(/^http:/);
  });
});
