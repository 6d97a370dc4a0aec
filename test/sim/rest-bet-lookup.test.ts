import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

type U = { id: string; token: string; username: string };

describe('bet lookups: getOrdersForGame, getBetByID, getBetByWagerRequestID, getBetByUserReference', () => {
  let t: TestSim;
  let maker: U;
  let taker: U;
  let g: EngineGame;
  let settled: EngineGame;
  /** The maker's order on g, partly taken: 40 of 100 matched. */
  let orderID: string;
  let wagerRequestID: string;
  let takerTx: string;
  beforeAll(async () => {
    t = await startTestSim();
    maker = await t.user('look-maker');
    taker = await t.user('look-taker');
    g = t.game();
    settled = t.game();
    const home = g.participants[1].id;
    const placed = await t.http('POST', '/session/v3/place', {
      token: maker.token,
      body: { orders: [{ gameID: g.id, type: 'moneyline', side: home, odds: 100, bet: 100, userReference: 'mm-1' }] },
    });
    orderID = placed.body.data.createdSessions[0].unmatched.orderID;
    wagerRequestID = placed.body.data.createdSessions[0].unmatched.wagerRequestID;
    const taken = await t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: {
        orders: [
          { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: -100, bet: 40, userReference: 'tk-1' },
        ],
      },
    });
    takerTx = taken.body.data.createdSessions[0].matched[0].txID;
    // A settled bet with the same reference on another game.
    const s = await t.http('POST', '/session/v3/place', {
      token: maker.token,
      body: {
        orders: [
          {
            gameID: settled.id,
            type: 'moneyline',
            side: settled.participants[1].id,
            odds: 100,
            bet: 10,
            userReference: 'mm-1',
          },
        ],
      },
    });
    expect(s.status).toBe(200);
    await t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: {
        orders: [{ gameID: settled.id, type: 'moneyline', side: settled.participants[0].id, odds: -100, bet: 10 }],
      },
    });
    const end = await t.http('POST', `/admin/games/${settled.id}/result`, { body: { awayScore: 1, homeScore: 2 } });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
  });
  afterAll(() => t?.close());

  it('getOrdersForGame: the caller’s open orders and matched bets on the game', async () => {
    const res = await t.http('GET', `/user/getOrdersForGame?gameID=${g.id}`, { token: maker.token });
    expect(res.status).toBe(200);
    expect(res.body.data.unmatched.map((o: { id: string }) => o.id)).toEqual([orderID]);
    expect(res.body.data.unmatched[0]).toMatchObject({ filled: 40, remaining: 60, userReference: 'mm-1' });
    expect(res.body.data.matched).toHaveLength(1);
    expect(res.body.data.matched[0]).toMatchObject({ origin: 'offer', bet: 100, userReference: 'mm-1' });
    expect(Object.keys(res.body.data).sort()).toEqual(['matched', 'unmatched']);
    for (const q of ['', '?gameID=', '?gameID=nope', '?gameID=ffffffffffffffffffffffff']) {
      const bad = await t.http('GET', `/user/getOrdersForGame${q}`, { token: maker.token });
      expect(bad.status, q).toBe(404);
      expect(typeof bad.body.error).toBe('string');
    }
  });

  it('getBetByUserReference: open, matched and graded of one reference on one game', async () => {
    const res = await t.http('GET', `/user/getBetByUserReference?userReference=mm-1&gameID=${g.id}`, {
      token: maker.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.unmatched.map((o: { id: string }) => o.id)).toEqual([orderID]);
    expect(res.body.data.matched).toHaveLength(1);
    expect(res.body.data.graded).toEqual([]);
    const done = await t.http('GET', `/user/getBetByUserReference?userReference=mm-1&gameID=${settled.id}`, {
      token: maker.token,
    });
    expect(done.body.data.unmatched).toEqual([]);
    expect(done.body.data.matched).toEqual([]);
    expect(done.body.data.graded).toHaveLength(1);
    expect(done.body.data.graded[0]).toMatchObject({ outcome: 'winner', userReference: 'mm-1' });
    const theirs = await t.http('GET', `/user/getBetByUserReference?userReference=mm-1&gameID=${g.id}`, {
      token: taker.token,
    });
    expect(theirs.body.data).toEqual({ unmatched: [], matched: [], graded: [] });
    for (const q of ['', `?gameID=${g.id}`, '?userReference=mm-1', '?userReference=mm-1&gameID=bad']) {
      const bad = await t.http('GET', `/user/getBetByUserReference${q}`, { token: maker.token });
      expect(bad.status, q).toBe(408);
      expect(typeof bad.body.error).toBe('string');
    }
  });

  it('getBetByWagerRequestID: every bet of one submitted order, never its open remainder', async () => {
    const res = await t.http('GET', `/user/getBetByWagerRequestID?wagerRequestID=${wagerRequestID}`, {
      token: maker.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.unmatched).toEqual([]);
    expect(res.body.data.matched).toHaveLength(1);
    expect(res.body.data.graded).toEqual([]);
    for (const q of ['', '?wagerRequestID=x'])
      expect((await t.http('GET', `/user/getBetByWagerRequestID${q}`, { token: maker.token })).status).toBe(400);
  });

  it('getBetByID: by bet id, by txID, or an open order; 400 otherwise', async () => {
    const byTx = await t.http('GET', `/user/getBetByID?txID=${takerTx}`, { token: taker.token });
    expect(byTx.status, JSON.stringify(byTx.body)).toBe(200);
    expect(byTx.body.data.bet).toMatchObject({ txID: takerTx, origin: 'wager', userReference: 'tk-1' });
    const byId = await t.http('GET', `/user/getBetByID?id=${byTx.body.data.bet.id}`, { token: taker.token });
    expect(byId.body.data.bet.txID).toBe(takerTx);
    const open = await t.http('GET', `/user/getBetByID?id=${orderID}`, { token: maker.token });
    expect(open.body.data.bet).toMatchObject({ id: orderID, remaining: 60 });
    const notMine = await t.http('GET', `/user/getBetByID?id=${orderID}`, { token: taker.token });
    expect(notMine.status).toBe(400);
    for (const q of ['', '?id=x', `?id=${orderID}&txID=${takerTx}`, '?txID=ffffffffffffffffffffffff']) {
      expect((await t.http('GET', `/user/getBetByID${q}`, { token: maker.token })).status, q).toBe(400);
    }
  });

  it('every lookup wants a token', async () => {
    for (const path of [
      '/user/getOrdersForGame',
      '/user/getBetByID',
      '/user/getBetByWagerRequestID',
      '/user/getBetByUserReference',
    ]) {
      expect((await t.http('GET', path)).status).toBe(401);
    }
  });
});
