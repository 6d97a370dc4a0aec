import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

type U = { id: string; token: string; username: string };

describe('cancels by scope: cancelAllOrders, cancelAllOrdersForGame, cancelByReference, cancelAllForLeague', () => {
  let t: TestSim;
  let me: U;
  let other: U;
  let nba: EngineGame;
  let nba2: EngineGame;
  let nhl: EngineGame;
  beforeAll(async () => {
    t = await startTestSim();
    me = await t.user('scope-me');
    other = await t.user('scope-other');
    nba = t.game({ league: 'NBA' });
    nba2 = t.game({ league: 'NBA' });
    nhl = t.game({ league: 'NHL', sport: 'hockey' });
  });
  afterAll(() => t?.close());

  async function rest(token: string, g: EngineGame, type: 'moneyline' | 'total', ref: string): Promise<string> {
    const order =
      type === 'moneyline'
        ? { gameID: g.id, type, side: g.participants[1].id, odds: 200, bet: 10, userReference: ref }
        : { gameID: g.id, type, side: 'over', number: 210.5, odds: 200, bet: 10, userReference: ref };
    const res = await t.http('POST', '/session/v3/place', { token, body: { orders: [order] } });
    return res.body.data.createdSessions[0].unmatched.orderID as string;
  }

  async function openIds(token: string): Promise<string[]> {
    const res = await t.http('GET', '/user/getUnmatched', { token });
    return res.body.data.unmatched.map((o: { id: string }) => o.id);
  }

  beforeEach(async () => {
    for (const u of [me, other]) await t.http('POST', '/session/cancelAllOrders', { token: u.token });
  });

  it('cancelAllOrders cancels every open order of the caller only, with cancel results', async () => {
    const a = await rest(me.token, nba, 'moneyline', 'a');
    const b = await rest(me.token, nhl, 'total', 'b');
    const theirs = await rest(other.token, nba, 'moneyline', 'x');
    const res = await t.http('POST', '/session/cancelAllOrders', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { sessionID: string }) => r.sessionID)).toEqual([a, b]);
    expect(res.body.data[0]).toMatchObject({
      success: true,
      sessionID: a,
      gameID: nba.id,
      odds: 200,
      userReference: 'a',
    });
    expect(await openIds(me.token)).toEqual([]);
    expect(await openIds(other.token)).toEqual([theirs]);
    const again = await t.http('POST', '/session/cancelAllOrders', { token: me.token, body: { anything: 1 } });
    expect(again).toMatchObject({ status: 200, body: { data: [] } });
  });

  it('cancelAllOrdersForGame cancels one game, optionally one market type', async () => {
    const ml = await rest(me.token, nba, 'moneyline', 'ml');
    const tot = await rest(me.token, nba, 'total', 'tot');
    const elsewhere = await rest(me.token, nba2, 'moneyline', 'ml2');
    const totals = await t.http('POST', '/session/cancelAllOrdersForGame', {
      token: me.token,
      body: { gameID: nba.id, type: 'total' },
    });
    expect(totals.body.data.map((r: { sessionID: string }) => r.sessionID)).toEqual([tot]);
    const rest2 = await t.http('POST', '/session/cancelAllOrdersForGame', {
      token: me.token,
      body: { gameID: nba.id },
    });
    expect(rest2.body.data.map((r: { sessionID: string }) => r.sessionID)).toEqual([ml]);
    expect(await openIds(me.token)).toEqual([elsewhere]);
  });

  it('cancelByReference cancels the caller’s open orders of the game with those references', async () => {
    const a = await rest(me.token, nba, 'moneyline', 'ref-a');
    await rest(me.token, nba, 'total', 'ref-b');
    await rest(me.token, nba2, 'moneyline', 'ref-a');
    await rest(other.token, nba, 'moneyline', 'ref-a');
    const res = await t.http('POST', '/session/cancelByReference', {
      token: me.token,
      body: { gameID: nba.id, userReferences: ['ref-a', 'ref-z'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ success: true, sessionID: a, userReference: 'ref-a' });
    expect(await openIds(me.token)).toHaveLength(2);
  });

  it('cancelAllForLeague acknowledges, and the league’s orders are gone', async () => {
    await rest(me.token, nba, 'moneyline', 'l1');
    await rest(me.token, nba2, 'moneyline', 'l2');
    const hockey = await rest(me.token, nhl, 'moneyline', 'l3');
    const res = await t.http('POST', '/session/cancelAllForLeague', { token: me.token, body: { league: 'nba' } });
    expect(res).toMatchObject({ status: 200, body: { data: { ordersReceived: true } } });
    expect(await openIds(me.token)).toEqual([hockey]);
  });

  it('bad input is a 400 with {error}; no token is a 401', async () => {
    const cases: [string, unknown][] = [
      ['/session/cancelAllOrdersForGame', {}],
      ['/session/cancelAllOrdersForGame', { gameID: 'x' }],
      ['/session/cancelAllOrdersForGame', { gameID: nba.id, type: 'moneyline1x2' }],
      ['/session/cancelByReference', { gameID: nba.id }],
      ['/session/cancelByReference', { gameID: nba.id, userReferences: 'a' }],
      ['/session/cancelByReference', { userReferences: ['a'] }],
      ['/session/cancelAllForLeague', {}],
      ['/session/cancelAllForLeague', { league: 'NOSUCH' }],
      ['/session/cancelAllForLeague', [1]],
    ];
    for (const [path, body] of cases) {
      const res = await t.http('POST', path, { token: me.token, body });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(typeof res.body.error, `${path} ${JSON.stringify(body)}`).toBe('string');
    }
    for (const path of [
      '/session/cancelAllOrders',
      '/session/cancelAllOrdersForGame',
      '/session/cancelByReference',
      '/session/cancelAllForLeague',
    ]) {
      expect((await t.http('POST', path, { body: {} })).status).toBe(401);
    }
  });
});
