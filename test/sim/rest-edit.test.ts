import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

type U = { id: string; token: string; username: string };

describe('POST /session/editOrder and /session/v4/editOrder', () => {
  let t: TestSim;
  let maker: U;
  let taker: U;
  let g: EngineGame;
  beforeAll(async () => {
    t = await startTestSim();
    maker = await t.user('edit-maker');
    taker = await t.user('edit-taker');
    g = t.game();
  });
  afterAll(() => t?.close());

  async function rest(
    token: string,
    side: string,
    odds: number,
    bet: number,
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const res = await t.http('POST', '/session/v3/place', {
      token,
      body: { orders: [{ gameID: g.id, type: 'moneyline', side, odds, bet, ...extra }] },
    });
    expect(res.status).toBe(200);
    const e = res.body.data.createdSessions[0];
    expect(e.matched, JSON.stringify(e)).toEqual([]);
    return e.unmatched.orderID as string;
  }

  it('amends an unfilled order in place: same id, new odds and volume, cancelled summary of the old terms', async () => {
    const home = g.participants[1].id;
    const id = await rest(maker.token, home, 120, 50, { userReference: 'e-1' });
    const res = await t.http('POST', '/session/editOrder', {
      token: maker.token,
      body: { sessionID: id, orderOdds: 130, orderVolume: 80 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d.matched).toEqual([]);
    expect(d.unmatched).toMatchObject({
      orderID: id,
      offered: 80,
      odds: 130,
      type: 'moneyline',
      side: home,
      userReference: 'e-1',
    });
    expect(d.cancelled).toMatchObject({ success: true, sessionID: id, odds: 120, gameID: g.id, userReference: 'e-1' });
    const look = await t.http('GET', `/session/lookupOrder?orderID=${id}`, { token: maker.token });
    expect(look.body.data.order).toMatchObject({ id, odds: 130, unmatchedRisk: '80.00' });
  });

  it('replaces a partly filled order: the original is cancelled and a new order rests for the whole volume', async () => {
    await t.http('POST', '/session/cancelAllOrders', { token: maker.token });
    const home = g.participants[1].id;
    const away = g.participants[0].id;
    const id = await rest(maker.token, home, 150, 100);
    const take = await t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: { orders: [{ gameID: g.id, type: 'moneyline', side: away, odds: -150, bet: 60 }] },
    });
    expect(take.body.data.createdSessions[0].matched).toHaveLength(1);
    const res = await t.http('POST', '/session/editOrder', {
      token: maker.token,
      body: { sessionID: id, orderOdds: 160, orderVolume: 100 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d.cancelled).toMatchObject({ success: true, sessionID: id, filled: 40 });
    expect(d.unmatched.orderID).not.toBe(id);
    expect(d.unmatched).toMatchObject({ offered: 100, odds: 160 });
    const look = await t.http('GET', `/session/lookupOrder?orderID=${id}`, { token: maker.token });
    expect(look.body.data.order.cancelled).toBe(true);
  });

  it('a refused edit is a 400 with the reason; v4 adds errorType', async () => {
    const home = g.participants[1].id;
    const id = await rest(maker.token, home, 300, 10);
    const v1 = await t.http('POST', '/session/editOrder', {
      token: maker.token,
      body: { sessionID: id, orderVolume: 1e12 },
    });
    expect(v1.status).toBe(400);
    expect(Object.keys(v1.body)).toEqual(['error']);
    const v4 = await t.http('POST', '/session/v4/editOrder', {
      token: maker.token,
      body: { sessionID: id, orderVolume: 1e8 },
    });
    expect(v4.status).toBe(400);
    expect(v4.body).toEqual({ error: 'Insufficient balance.', errorType: 'rejected_liability' });
    const odds = await t.http('POST', '/session/v4/editOrder', {
      token: maker.token,
      body: { sessionID: id, orderOdds: 5 },
    });
    expect(odds.status).toBe(400);
    expect(odds.body.errorType).toBe('validation_error');
    // A request the declared body schema refuses is a validation_error on v4 too.
    const unnamed = await t.http('POST', '/session/v4/editOrder', { token: maker.token, body: { orderOdds: 310 } });
    expect(unnamed).toMatchObject({
      status: 400,
      body: { error: 'sessionID is required', errorType: 'validation_error' },
    });
  });

  it('v4 honours blockIfNoOtherSideOrders; v1 ignores it', async () => {
    const g2 = t.game();
    const res = await t.http('POST', '/session/v3/place', {
      token: maker.token,
      body: { orders: [{ gameID: g2.id, type: 'moneyline', side: g2.participants[1].id, odds: 200, bet: 10 }] },
    });
    const id = res.body.data.createdSessions[0].unmatched.orderID;
    const v4 = await t.http('POST', '/session/v4/editOrder', {
      token: maker.token,
      body: { sessionID: id, orderOdds: 210, blockIfNoOtherSideOrders: true },
    });
    expect(v4).toMatchObject({ status: 400, body: { errorType: 'rejected_order_type_rules' } });
    const v1 = await t.http('POST', '/session/editOrder', {
      token: maker.token,
      body: { sessionID: id, orderOdds: 210, blockIfNoOtherSideOrders: true },
    });
    expect(v1.status).toBe(200);
    expect(v1.body.data.unmatched.odds).toBe(210);
  });

  it('names: missing, malformed, unknown, foreign and closed orders are 400s', async () => {
    const home = g.participants[1].id;
    const id = await rest(maker.token, home, 300, 10);
    for (const body of [{}, { sessionID: 7 }, { sessionID: 'nope' }, { sessionID: 'ffffffffffffffffffffffff' }]) {
      const res = await t.http('POST', '/session/editOrder', { token: maker.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    const foreign = await t.http('POST', '/session/editOrder', {
      token: taker.token,
      body: { sessionID: id, orderOdds: 310 },
    });
    expect(foreign.status).toBe(400);
    await t.http('POST', '/session/cancel', { token: maker.token, body: { sessionID: id } });
    const closed = await t.http('POST', '/session/editOrder', {
      token: maker.token,
      body: { sessionID: id, orderOdds: 310 },
    });
    expect(closed).toMatchObject({ status: 400, body: { error: 'order already cancelled' } });
    const noAuth = await t.http('POST', '/session/editOrder', { body: { sessionID: id } });
    expect(noAuth.status).toBe(401);
  });
});
