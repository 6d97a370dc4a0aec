import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

const BOOK_ARRAYS = [
  'homeMoneylines',
  'awayMoneylines',
  'homeSpreads',
  'awaySpreads',
  'over',
  'under',
  'homeMoneylines1x2',
  'awayMoneylines1x2',
  'draw1x2',
];
const HOUR = 3_600_000;

async function place(t: TestSim, token: string, order: Record<string, unknown>): Promise<any> {
  const res = await t.http('POST', '/session/v3/place', { token, body: { orders: [order] } });
  expect(res.status).toBe(200);
  const entry = res.body.data.createdSessions[0];
  expect(entry.error, JSON.stringify(entry)).toBeUndefined();
  return entry;
}

async function rest(t: TestSim, token: string, order: Record<string, unknown>): Promise<string> {
  const entry = await place(t, token, order);
  expect(entry.matched).toEqual([]);
  return entry.unmatched.orderID as string;
}

describe('GET /exchange/getLeagues', () => {
  let t: TestSim;
  let token: string;
  const leagues = async (query = '') => {
    const res = await t.http('GET', `/exchange/getLeagues${query}`, { token });
    expect(res.status).toBe(200);
    return res.body.data.availableLeagues as string[];
  };
  beforeAll(async () => {
    t = await startTestSim();
    token = (await t.user('viewer')).token;
    t.game({ league: 'NBA', sport: 'basketball' });
    t.game({ league: 'NBA-LIVE', sport: 'basketball' });
    t.game({ league: 'NFL', sport: 'football' });
    t.game({ league: 'NFL-LIVE', sport: 'football' });
    t.game({ league: 'EPL', sport: 'soccer' });
    t.game({ league: 'La Liga', sport: 'soccer' });
    t.game({ league: 'PGA', sport: 'golf' });
    const ended = t.game({ league: 'KHL', sport: 'hockey' });
    expect(t.sim.context.engine.settleGame(ended.id, { away: 1, home: 2 }).ok).toBe(true);
  });
  afterAll(() => t?.close());

  it('lists the leagues on the board; excluded -LIVE leagues do not add the LIVE alias', async () => {
    expect(await leagues()).toEqual(['EPL', 'La Liga', 'NBA', 'NBA-LIVE', 'NFL', 'NFL-LIVE', 'PGA']);
  });

  it('filters by sport case-insensitively and appends all for soccer and golf only', async () => {
    expect(await leagues('?sport=soccer')).toEqual(['EPL', 'La Liga', 'all']);
    expect(await leagues('?sport=SOCCER')).toEqual(['EPL', 'La Liga', 'all']);
    expect(await leagues('?sport=golf')).toEqual(['PGA', 'all']);
    expect(await leagues('?sport=basketball')).toEqual(['NBA', 'NBA-LIVE']);
    expect(await leagues('?sport=hockey')).toEqual([]);
  });

  it('appends LIVE once a league containing LIVE other than the four excluded ones exists', async () => {
    t.game({ league: 'EPL-LIVE', sport: 'soccer' });
    expect(await leagues()).toEqual([
      'EPL',
      'EPL-LIVE',
      'La Liga',
      'NBA',
      'NBA-LIVE',
      'NFL',
      'NFL-LIVE',
      'PGA',
      'LIVE',
    ]);
    expect(await leagues('?sport=soccer')).toEqual(['EPL', 'EPL-LIVE', 'La Liga', 'all', 'LIVE']);
    expect(await leagues('?sport=football')).toEqual(['NFL', 'NFL-LIVE']);
  });

  it('needs a token', async () => {
    expect((await t.http('GET', '/exchange/getLeagues')).status).toBe(401);
  });
});

describe('GET /exchange/getParticipants and /exchange/v2/getGames', () => {
  let t: TestSim;
  let token: string;
  let future: EngineGame;
  let past: EngineGame;
  let live: EngineGame;
  let later: EngineGame;
  let soccer: EngineGame;
  let ended: EngineGame;
  beforeAll(async () => {
    t = await startTestSim();
    token = (await t.user('viewer')).token;
    const now = t.sim.context.time.clock.now();
    later = t.game({ league: 'NBA', start: now + 5 * HOUR });
    future = t.game({ league: 'NBA', start: now + 2 * HOUR });
    past = t.game({ league: 'NBA', start: now - HOUR });
    live = t.game({ league: 'NBA', start: now - 10 * 60_000, live: true });
    soccer = t.game({ league: 'EPL', sport: 'soccer', start: now + 3 * HOUR });
    ended = t.game({ league: 'NBA', start: now + HOUR });
    t.sim.context.engine.settleGame(ended.id, { away: 90, home: 100 });
  });
  afterAll(() => t?.close());

  it('lists every participant with league and sport, deduplicated', async () => {
    const ctx = t.sim.context;
    // A futures-style game reusing a participant of another game.
    const shared = ctx.engine.addGame({
      id: ctx.ids.next(),
      league: 'NBA',
      sport: 'basketball',
      participants: [future.participants[0], { id: ctx.ids.next(), longName: 'Field', shortName: 'FLD' }],
      start: ctx.time.clock.now() + 6 * HOUR,
    });
    expect(shared.ok).toBe(true);
    try {
      const res = await t.http('GET', '/exchange/getParticipants', { token });
      expect(res.status).toBe(200);
      const list = res.body.data.participants as { participantID: string }[];
      const ids = list.map((p) => p.participantID);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => id === future.participants[0].id)).toHaveLength(1);
      for (const g of [future, past, live, later, soccer, ended])
        for (const p of g.participants) expect(ids).toContain(p.id);
      expect(list).toContainEqual({
        participantID: soccer.participants[1].id,
        longName: soccer.participants[1].longName,
        shortName: soccer.participants[1].shortName,
        league: 'EPL',
        sport: 'soccer',
      });
      expect((await t.http('GET', '/exchange/getParticipants?active=false', { token })).body).toEqual(res.body);
    } finally {
      if (shared.ok) ctx.engine.settleGame(shared.value.id, { away: 0, home: 0 });
    }
  });

  it('active=true keeps only participants of games starting in the future', async () => {
    const res = await t.http('GET', '/exchange/getParticipants?active=true', { token });
    expect(res.status).toBe(200);
    const ids = (res.body.data.participants as { participantID: string }[]).map((p) => p.participantID);
    for (const g of [future, later, soccer]) for (const p of g.participants) expect(ids).toContain(p.id);
    for (const g of [past, live, ended]) for (const p of g.participants) expect(ids).not.toContain(p.id);
  });

  it('answers 400 for an active value other than true or false', async () => {
    const res = await t.http('GET', '/exchange/getParticipants?active=yes', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('active');
  });

  it('getGames lists a league case-insensitively, by start, without prices', async () => {
    const res = await t.http('GET', '/exchange/v2/getGames?league=nba', { token });
    expect(res.status).toBe(200);
    const games = res.body.data.games;
    expect(games.map((g: { id: string }) => g.id)).toEqual([past.id, live.id, future.id, later.id]);
    const g = games.find((x: { id: string }) => x.id === future.id);
    expect(g).toEqual({
      id: future.id,
      isSpecials: false,
      tournamentName: null,
      periodName: 'Game',
      league: 'NBA',
      sport: 'basketball',
      live: false,
      ended: false,
      parentGameID: null,
      start: new Date(future.start).toISOString(),
      participants: [
        {
          id: future.participants[0].id,
          longName: future.participants[0].longName,
          shortName: future.participants[0].shortName,
          homeAway: 'away',
        },
        {
          id: future.participants[1].id,
          longName: future.participants[1].longName,
          shortName: future.participants[1].shortName,
          homeAway: 'home',
        },
      ],
    });
    for (const k of BOOK_ARRAYS) expect(g).not.toHaveProperty(k);
  });

  it('league=upcoming lists every league’s games not started and not ended', async () => {
    const res = await t.http('GET', '/exchange/v2/getGames?league=upcoming', { token });
    expect(res.body.data.games.map((g: { id: string }) => g.id)).toEqual([future.id, soccer.id, later.id]);
  });

  it('the LIVE alias lists in-play games; an unknown league lists none', async () => {
    expect(
      (await t.http('GET', '/exchange/v2/getGames?league=LIVE', { token })).body.data.games.map(
        (g: { id: string }) => g.id,
      ),
    ).toEqual([live.id]);
    expect((await t.http('GET', '/exchange/v2/getGames?league=XFL', { token })).body).toEqual({ data: { games: [] } });
  });
});

describe('GET /exchange/v2/getOrderbook', () => {
  let t: TestSim;
  let maker: { id: string; token: string; username: string };
  let other: { id: string; token: string; username: string };
  let taker: { id: string; token: string; username: string };
  let g: EngineGame;
  let soccer: EngineGame;
  const book = async (token: string, query: string) => {
    const res = await t.http('GET', `/exchange/v2/getOrderbook?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body.data.games as any[];
  };
  beforeAll(async () => {
    t = await startTestSim();
    maker = await t.user('maker');
    other = await t.user('other');
    taker = await t.user('taker');
    g = t.game({ league: 'NBA' });
    soccer = t.game({
      league: 'EPL',
      sport: 'soccer',
      participants: [
        { longName: 'Away FC', shortName: 'AFC' },
        { longName: 'Home FC', shortName: 'HFC' },
      ],
    });
  });
  afterAll(() => t?.close());

  it('lists every game of the league with all collections, empty books and null main lines', async () => {
    const empty = t.game({ league: 'NBA', start: g.start + HOUR });
    const games = await book(maker.token, 'league=NBA');
    const e = games.find((x) => x.id === empty.id);
    for (const k of BOOK_ARRAYS) expect(e[k]).toEqual([]);
    expect(e).toMatchObject({
      openInterest: 0,
      matchedVolume: 0,
      mainHomeSpread: null,
      mainAwaySpread: null,
      mainTotal: null,
      league: 'NBA',
      sport: 'basketball',
    });
    expect(e.participants[0].homeAway).toBe('away');
  });

  it('lists a maker on home -330 under awayMoneylines at +330 with sumUntaken = risk / 3.3 (feeds §3)', async () => {
    const [away, home] = g.participants;
    const id = await rest(t, maker.token, { gameID: g.id, type: 'moneyline', side: home.id, odds: -330, bet: 3798.43 });
    const [own] = await book(maker.token, `gameID=${g.id}`);
    expect(own.homeMoneylines).toEqual([]);
    expect(own.awayMoneylines).toHaveLength(1);
    const entry = own.awayMoneylines[0];
    expect(entry).toMatchObject({
      id,
      type: 'moneyline',
      odds: 330,
      bet: 3798.43,
      gameID: g.id,
      participantID: away.id,
      takenRatio: 0,
      mockOrder: false,
      gameStartExpiry: true,
      createdBy: 'maker',
    });
    expect(entry.sumUntaken).toBeCloseTo(1151.04, 2);
    expect(entry).not.toHaveProperty('isPostArb');
    const [seen] = await book(other.token, `gameID=${g.id}`);
    expect(seen.awayMoneylines[0].id).toBe(id);
    expect(seen.awayMoneylines[0]).not.toHaveProperty('createdBy');
  });

  it('lists a maker on over 209.5 at -104 risking 265.2 under `under` at +104 with sumUntaken 255', async () => {
    const id = await rest(t, maker.token, {
      gameID: g.id,
      type: 'total',
      side: 'over',
      number: 209.5,
      odds: -104,
      bet: 265.2,
    });
    const [b] = await book(other.token, `gameID=${g.id}`);
    expect(b.over).toEqual([]);
    expect(b.under).toHaveLength(1);
    expect(b.under[0]).toMatchObject({ id, odds: 104, bet: 265.2, total: 209.5, OU: 'under' });
    expect(b.under[0]).not.toHaveProperty('participantID');
    expect(b.under[0].sumUntaken).toBeCloseTo(255, 9);
    expect(b.mainTotal).toBe(209.5);
  });

  it('lists spreads on the taker side with the line from that side, and picks the deepest line as main', async () => {
    const [away, home] = g.participants;
    const a = await rest(t, maker.token, {
      gameID: g.id,
      type: 'spread',
      side: home.id,
      number: -3.5,
      odds: -110,
      bet: 110,
    });
    const b = await rest(t, other.token, {
      gameID: g.id,
      type: 'spread',
      side: away.id,
      number: 5.5,
      odds: 100,
      bet: 500,
    });
    const [ob] = await book(other.token, `gameID=${g.id}`);
    expect(ob.awaySpreads).toHaveLength(1);
    expect(ob.awaySpreads[0]).toMatchObject({ id: a, spread: 3.5, odds: 110, participantID: away.id });
    expect(ob.homeSpreads).toHaveLength(1);
    expect(ob.homeSpreads[0]).toMatchObject({
      id: b,
      spread: -5.5,
      odds: 100,
      participantID: home.id,
      createdBy: 'other',
    });
    // Home -5.5 holds 500 untaken against 100 at home -3.5.
    expect(ob.mainHomeSpread).toBe(-5.5);
    expect(ob.mainAwaySpread).toBe(5.5);
  });

  it('sorts each collection best price first, then oldest', async () => {
    const g2 = t.game({ league: 'NCAAB', sport: 'basketball' });
    const home = g2.participants[1].id;
    const first150 = await rest(t, maker.token, { gameID: g2.id, type: 'moneyline', side: home, odds: -150, bet: 30 });
    const at120 = await rest(t, other.token, { gameID: g2.id, type: 'moneyline', side: home, odds: -120, bet: 30 });
    const second150 = await rest(t, other.token, { gameID: g2.id, type: 'moneyline', side: home, odds: -150, bet: 30 });
    const at200 = await rest(t, maker.token, { gameID: g2.id, type: 'moneyline', side: home, odds: -200, bet: 30 });
    const [b] = await book(maker.token, 'league=ncaab');
    expect(b.awayMoneylines.map((o: { id: string }) => o.id)).toEqual([at200, first150, second150, at120]);
    expect(b.awayMoneylines.map((o: { odds: number }) => o.odds)).toEqual([200, 150, 150, 120]);
    expect(b.awayMoneylines.map((o: { createdBy?: string }) => o.createdBy ?? null)).toEqual([
      'maker',
      'maker',
      null,
      null,
    ]);
  });

  it('sorts a flat collection across lines by price, not by line', async () => {
    const g4 = t.game({ league: 'NCAAF', sport: 'football' });
    const away = g4.participants[0].id;
    const near = await rest(t, maker.token, {
      gameID: g4.id,
      type: 'spread',
      side: away,
      number: 3.5,
      odds: -105,
      bet: 21,
    });
    const far = await rest(t, other.token, {
      gameID: g4.id,
      type: 'spread',
      side: away,
      number: 5.5,
      odds: -150,
      bet: 30,
    });
    const [b] = await book(maker.token, `gameID=${g4.id}`);
    expect(b.homeSpreads.map((o: { id: string; odds: number; spread: number }) => [o.id, o.odds, o.spread])).toEqual([
      [far, 150, -5.5],
      [near, 105, -3.5],
    ]);
  });

  it('puts both sides of a 1x2 outcome into that outcome’s collection, each with its side', async () => {
    const [away, home] = soccer.participants;
    const yesHome = await rest(t, maker.token, {
      gameID: soccer.id,
      type: 'moneyline1x2',
      side: 'yes',
      market: home.id,
      odds: 150,
      bet: 40,
    });
    const noHome = await rest(t, maker.token, {
      gameID: soccer.id,
      type: 'moneyline1x2',
      side: 'no',
      market: home.id,
      odds: -130,
      bet: 60,
    });
    const noDraw = await rest(t, other.token, {
      gameID: soccer.id,
      type: 'moneyline1x2',
      side: 'no',
      market: 'draw',
      odds: -200,
      bet: 50,
    });
    const yesAway = await rest(t, other.token, {
      gameID: soccer.id,
      type: 'moneyline1x2',
      side: 'yes',
      market: away.id,
      odds: 250,
      bet: 20,
    });
    const [b] = await book(other.token, 'league=EPL');
    expect(b.homeMoneylines1x2.map((o: { id: string }) => o.id).sort()).toEqual([yesHome, noHome].sort());
    expect(b.homeMoneylines1x2.find((o: { id: string }) => o.id === yesHome)).toMatchObject({
      side: 'no',
      market: home.id,
      odds: -150,
      participantID: '',
    });
    expect(b.homeMoneylines1x2.find((o: { id: string }) => o.id === noHome)).toMatchObject({
      side: 'yes',
      market: home.id,
      odds: 130,
    });
    expect(b.draw1x2).toHaveLength(1);
    expect(b.draw1x2[0]).toMatchObject({ id: noDraw, side: 'yes', market: 'draw', odds: 200, createdBy: 'other' });
    expect(b.awayMoneylines1x2).toHaveLength(1);
    expect(b.awayMoneylines1x2[0]).toMatchObject({ id: yesAway, side: 'no', market: away.id, odds: -250 });
    expect(b.homeMoneylines).toEqual([]);
    expect(b.awayMoneylines).toEqual([]);
    // Best first: +130 for a taker beats -150.
    expect(b.homeMoneylines1x2[0].id).toBe(noHome);
  });

  it('reports open interest and matched volume after a fill', async () => {
    const g3 = t.game({ league: 'WNBA', sport: 'basketball' });
    const [away, home] = g3.participants;
    await rest(t, maker.token, { gameID: g3.id, type: 'moneyline', side: home.id, odds: -330, bet: 330 });
    const fill = await place(t, taker.token, { gameID: g3.id, type: 'moneyline', side: away.id, odds: 330, bet: 60 });
    expect(fill.matched[0].amount).toBeCloseTo(60, 9);
    const [b] = await book(taker.token, `gameID=${g3.id}`);
    // Open interest is the resting orders' bet: the maker's 330 still rests (132 of it untaken).
    expect(b.openInterest).toBeCloseTo(330, 9);
    expect(b.matchedVolume).toBeCloseTo(258, 9);
    expect(b.awayMoneylines[0].takenRatio).toBeCloseTo(0.6, 9);
    expect(b.awayMoneylines[0].sumUntaken).toBeCloseTo(40, 9);
  });

  it('answers 400 without league or gameID and for a malformed gameID; an unknown gameID lists nothing', async () => {
    const none = await t.http('GET', '/exchange/v2/getOrderbook', { token: other.token });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/league or gameID/);
    const bad = await t.http('GET', '/exchange/v2/getOrderbook?gameID=xyz', { token: other.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('gameID');
    expect(await book(other.token, 'gameID=ffffffffffffffffffffffff')).toEqual([]);
  });
});

describe('POST /exchange/getOrderbook (deprecated v1)', () => {
  let t: TestSim;
  let maker: { id: string; token: string };
  let viewer: { id: string; token: string };
  let g: EngineGame;
  let soccer: EngineGame;
  beforeAll(async () => {
    t = await startTestSim();
    maker = await t.user('maker');
    viewer = await t.user('viewer');
    g = t.game({ league: 'NBA', eventName: 'Finals G1' });
    soccer = t.game({ league: 'EPL', sport: 'soccer' });
  });
  afterAll(() => t?.close());

  it('returns market null and nested games keyed by number, with isPostArb always present', async () => {
    const [away, home] = g.participants;
    const ml = await rest(t, maker.token, { gameID: g.id, type: 'moneyline', side: home.id, odds: -110, bet: 110 });
    const sp1 = await rest(t, maker.token, {
      gameID: g.id,
      type: 'spread',
      side: home.id,
      number: -3.5,
      odds: -110,
      bet: 110,
    });
    const sp2 = await rest(t, maker.token, {
      gameID: g.id,
      type: 'spread',
      side: home.id,
      number: -4.5,
      odds: 105,
      bet: 50,
      orderType: 'postArb',
    });
    const ou = await rest(t, maker.token, {
      gameID: g.id,
      type: 'total',
      side: 'under',
      number: 220.5,
      odds: -105,
      bet: 80,
    });
    const res = await t.http('POST', '/exchange/getOrderbook', {
      token: viewer.token,
      body: { leagueRequested: 'nba' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.market).toBeNull();
    expect(res.body.data.games).toHaveLength(1);
    const v1 = res.body.data.games[0];
    expect(v1).toMatchObject({
      id: g.id,
      parentGameID: null,
      cheapDataUID: g.id,
      league: 'NBA',
      sport: 'basketball',
      start: new Date(g.start).toISOString(),
      ended: false,
      live: false,
      featured: false,
      eventName: 'Finals G1',
      tournamentName: null,
      periodName: 'Game',
      isSpecials: false,
      mainHomeSpread: -3.5,
      mainAwaySpread: 3.5,
      mainTotal: 220.5,
      // Σ bet of the four resting orders.
      openInterest: 350,
      matchedVolume: 0,
    });
    expect(v1.participants.map((p: { id: string; homeAway: string }) => [p.id, p.homeAway])).toEqual([
      [away.id, 'away'],
      [home.id, 'home'],
    ]);
    expect(v1.homeMoneylines).toEqual([]);
    expect(v1.awayMoneylines).toHaveLength(1);
    expect(v1.awayMoneylines[0]).toMatchObject({ id: ml, odds: 110, isPostArb: false, participantID: away.id });
    expect(v1.awayMoneylines[0]).not.toHaveProperty('createdBy');
    expect(v1.homeSpreads).toEqual({});
    expect(Object.keys(v1.awaySpreads).sort()).toEqual(['3.5', '4.5']);
    expect(v1.awaySpreads['3.5']).toHaveLength(1);
    expect(v1.awaySpreads['3.5'][0]).toMatchObject({ id: sp1, spread: 3.5, odds: 110, isPostArb: false });
    expect(v1.awaySpreads['4.5'][0]).toMatchObject({ id: sp2, spread: 4.5, odds: -105, isPostArb: true });
    expect(v1.under).toEqual({});
    expect(v1.over['220.5'][0]).toMatchObject({ id: ou, total: 220.5, OU: 'over', odds: 105, isPostArb: false });
    for (const k of ['homeMoneylines1x2', 'awayMoneylines1x2', 'draw1x2']) expect(v1[k]).toEqual({});
  });

  it('keys 1x2 collections by the taker side, yes or no', async () => {
    const home = soccer.participants[1];
    const id = await rest(t, maker.token, {
      gameID: soccer.id,
      type: 'moneyline1x2',
      side: 'yes',
      market: home.id,
      odds: 120,
      bet: 10,
    });
    const draw = await rest(t, maker.token, {
      gameID: soccer.id,
      type: 'moneyline1x2',
      side: 'no',
      market: 'draw',
      odds: -250,
      bet: 10,
    });
    const res = await t.http('POST', '/exchange/getOrderbook', {
      token: maker.token,
      body: { leagueRequested: 'EPL' },
    });
    const v1 = res.body.data.games[0];
    expect(Object.keys(v1.homeMoneylines1x2)).toEqual(['no']);
    expect(v1.homeMoneylines1x2.no[0]).toMatchObject({
      id,
      side: 'no',
      market: home.id,
      odds: -120,
      isPostArb: false,
      createdBy: 'maker',
    });
    expect(Object.keys(v1.draw1x2)).toEqual(['yes']);
    expect(v1.draw1x2.yes[0]).toMatchObject({ id: draw, side: 'yes', market: 'draw', odds: 250 });
  });

  it('accepts the token in the body', async () => {
    const res = await t.http('POST', '/exchange/getOrderbook', {
      body: { leagueRequested: 'NBA', token: viewer.token },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.games[0].id).toBe(g.id);
  });

  it('answers 400 without leagueRequested and lists nothing for an unknown league', async () => {
    const res = await t.http('POST', '/exchange/getOrderbook', { token: viewer.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('leagueRequested');
    const none = await t.http('POST', '/exchange/getOrderbook', {
      token: viewer.token,
      body: { leagueRequested: 'XFL' },
    });
    expect(none.body).toEqual({ data: { market: null, games: [] } });
  });
});
