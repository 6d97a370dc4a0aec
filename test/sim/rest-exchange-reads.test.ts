import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { etDay } from '../../src/sim/rest/matched-volume.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

type U = { id: string; token: string; username: string };

describe('exchange reads: getSingleOrderbook, getOddsForAveragePrice, getMatchedVolume', () => {
  let t: TestSim;
  let maker: U;
  let taker: U;
  let g: EngineGame;
  let child: EngineGame;
  beforeAll(async () => {
    t = await startTestSim();
    maker = await t.user('reads-maker', { commission: 0.02 });
    taker = await t.user('reads-taker', { commission: 0.02 });
    g = t.game({ league: 'NCAAB' });
    child = t.game({ league: 'NCAAB', parentGameID: g.id });
    const home = g.participants[1].id;
    const orders = [
      // Takers of away see these at -120 (300 of stake at it) and -140.
      { gameID: g.id, type: 'moneyline', side: home, odds: 120, bet: 250 },
      { gameID: g.id, type: 'moneyline', side: home, odds: 140, bet: 1000, userReference: 'deep' },
      { gameID: g.id, type: 'total', side: 'under', number: 150.5, odds: -105, bet: 100 },
    ];
    const res = await t.http('POST', '/session/v3/place', { token: maker.token, body: { orders } });
    expect(res.status).toBe(200);
  });
  afterAll(() => t?.close());

  it('getSingleOrderbook: the nested game, its children and the caller’s orders of the league', async () => {
    const res = await t.http('GET', `/exchange/getSingleOrderbook?gameID=${g.id}`, { token: maker.token });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.game.id).toBe(g.id);
    expect(d.game.awayMoneylines.map((o: { odds: number }) => o.odds)).toEqual([-120, -140]);
    expect(Object.keys(d.game.over)).toEqual(['150.5']);
    expect(d.childGames.map((x: { id: string }) => x.id)).toEqual([child.id]);
    expect(d.propGames).toEqual([]);
    expect(d.orderSummary).toHaveLength(3);
    const other = await t.http('GET', `/exchange/getSingleOrderbook?gameID=${g.id}`, { token: taker.token });
    expect(other.body.data.orderSummary).toEqual([]);
    for (const q of ['', '?gameID=x', '?gameID=ffffffffffffffffffffffff']) {
      const bad = await t.http('GET', `/exchange/getSingleOrderbook${q}`, { token: maker.token });
      expect(bad.status, q).toBe(400);
      expect(typeof bad.body.error).toBe('string');
    }
  });

  it('getOddsForAveragePrice: best, average over 500 of stake, limit and max bets, at the top level', async () => {
    // The under at -105 risks 100: an over taker can stake 95.24 at +105 against it.
    const res = await t.http('GET', '/exchange/getOddsForAveragePrice?leagueRequested=ncaab', { token: taker.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeUndefined();
    const game = res.body.games.find((x: { id: string }) => x.id === g.id);
    expect(game).toBeDefined();
    expect(game.awayMoneylines).toBeUndefined();
    // 300 at -120 wins 250, 200 at -140 wins 142.86: 500 wins 392.86, payout 0.7857 → -127.
    expect(game.odds).toMatchObject({
      bestAwayMoneyline: -120,
      averageAwayMoneyline: -127,
      bestAwayMoneylinePriceLimit: -140,
      awayMoneylineMaxBet: 300,
    });
    // -120 pays 0.8333; less 2% commission on the win: 0.8167 → -122.
    expect(game.odds.bestAwayMoneylineWithCommission).toBe(-122);
    expect(game.odds).toMatchObject({
      bestHomeMoneyline: null,
      averageHomeMoneyline: null,
      homeMoneylineMaxBet: 0,
      maxMoneyLineBet: 300,
    });
    expect(game.odds).toMatchObject({ mainTotal: 150.5, bestOver: 105, maxOverBet: 95, bestUnder: null });
    const missing = await t.http('GET', '/exchange/getOddsForAveragePrice', { token: taker.token });
    expect(missing.status).toBe(400);
  });

  it('getMatchedVolume: both sides’ stakes of every fill of the ET days asked, end clamped to today', async () => {
    const today = etDay(t.sim.context.time.clock.now());
    const before = await t.http('GET', `/exchange/getMatchedVolume?startDate=2020-01-01&endDate=2999-12-31`, {
      token: taker.token,
    });
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ startDate: '2020-01-01', endDate: '2999-12-31', matchedVolume: 0 });
    // Takes 60 at -120: wins 50, so both sides' stakes are 110.
    const take = await t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: { orders: [{ gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: -120, bet: 60 }] },
    });
    expect(take.body.data.createdSessions[0].matched).toHaveLength(1);
    const after = await t.http('GET', `/exchange/getMatchedVolume?startDate=${today}&endDate=2999-12-31`, {
      token: taker.token,
    });
    expect(after.body.data.matchedVolume).toBeCloseTo(110, 6);
    const past = await t.http('GET', `/exchange/getMatchedVolume?startDate=2020-01-01&endDate=2020-01-02`, {
      token: taker.token,
    });
    expect(past.body.data.matchedVolume).toBe(0);
    for (const q of [
      '',
      '?startDate=2020-01-01',
      '?startDate=2020-02-30&endDate=2020-03-01',
      '?startDate=2020-01-02&endDate=2020-01-01',
      '?startDate=01-01-2020&endDate=2020-01-02',
    ]) {
      const bad = await t.http('GET', `/exchange/getMatchedVolume${q}`, { token: taker.token });
      expect(bad.status, q).toBe(400);
      expect(typeof bad.body.error).toBe('string');
    }
  });

  it('every read wants a token', async () => {
    for (const path of [
      '/exchange/getSingleOrderbook',
      '/exchange/getOddsForAveragePrice',
      '/exchange/getMatchedVolume',
    ])
      expect((await t.http('GET', path)).status).toBe(401);
  });
});
