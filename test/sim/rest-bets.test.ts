import { afterEach, describe, expect, it } from 'vitest';
import type { EngineGame, PlaceInput, PlaceSuccess } from '../../src/engine/types.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { createUser } from '../../src/sim/ops/admin-ops.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

const T0 = Date.UTC(2026, 2, 1, 12);
const HOUR = 3_600_000;
const DAY = 86_400_000;
const UNAUTHORIZED = { error: { message: 'InvalidCredentials', code: 401 } };

interface U {
  readonly id: string;
  readonly token: string;
  readonly username: string;
}

/** A user made in-process with a token issued directly (no dependency on the login route). */
function mkUser(t: TestSim, username: string, opts: { commission?: number; referrer?: string } = {}): U {
  const made = createUser(t.sim.context, {
    username,
    password: `pw-${username}`,
    balance: 1_000_000,
    commission: opts.commission ?? 0.01,
    referrer: opts.referrer ?? null,
  });
  if (!made.ok) throw new Error(made.error);
  return { id: made.value.id, token: t.sim.context.tokens.issue(made.value.id), username };
}

function place(t: TestSim, u: U, order: Omit<PlaceInput, 'gameID'> & { gameID: string }): PlaceSuccess {
  const [entry] = t.sim.context.engine.place(u.id, [order]);
  if (entry?.status !== 'ok') throw new Error(`place failed: ${JSON.stringify(entry)}`);
  return entry;
}

const away = (g: EngineGame) => g.participants[0].id;
const home = (g: EngineGame) => g.participants[1].id;

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(): Promise<TestSim & { time: ManualTimeSource }> {
  const time = manualTime(T0);
  t = await startTestSim({ time });
  return Object.assign(t, { time });
}

describe('GET /user/getMatchedBets', () => {
  it('lists the caller’s open bets with 2-decimal money strings, sorted by game start', async () => {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const late = s.game({ start: T0 + 5 * HOUR });
    const early = s.game({ start: T0 + 2 * HOUR });

    // Placed on the later game first: the response must still list the earlier game first.
    place(s, maker, { gameID: late.id, type: 'moneyline', side: away(late), odds: -150, bet: 150 });
    const ml = place(s, taker, {
      gameID: late.id,
      type: 'moneyline',
      side: home(late),
      odds: 150,
      bet: 100,
      userReference: 'ref-ml',
    });
    expect(ml.matched).toHaveLength(1);
    s.time.advance(1_000);
    place(s, maker, { gameID: early.id, type: 'total', side: 'over', number: 200.5, odds: -110, bet: 110 });
    const tot = place(s, taker, { gameID: early.id, type: 'total', side: 'under', number: 200.5, odds: 110, bet: 50 });
    expect(tot.matched).toHaveLength(1);

    const res = await s.http('GET', '/user/getMatchedBets', { token: taker.token });
    expect(res.status).toBe(200);
    const bets = res.body.data.matchedBets;
    expect(bets.map((b: { game: { id: string } }) => b.game.id)).toEqual([early.id, late.id]);

    const [total, moneyline] = bets;
    // Taker under 200.5 at +110 for 50, 1% commission: win 55 × 0.99, risk 50 + 1% of 50.
    expect(total).toMatchObject({
      txID: tot.matched[0]!.txID,
      type: 'total',
      bet: 50,
      odds: 110,
      total: 200.5,
      OU: 'under',
      origin: 'wager',
      risk: '50.50',
      win: '54.45',
      graded: false,
      closed: false,
      adminRefund: false,
      createdAt: new Date(T0 + 1_000).toISOString(),
      matchedTime: new Date(T0 + 1_000).toISOString(),
    });
    expect(total.id).toMatch(/^[0-9a-f]{24}$/);
    expect(total).not.toHaveProperty('participantID');
    expect(total).not.toHaveProperty('userReference');
    expect(total).not.toHaveProperty('fee');
    expect(total.game).toMatchObject({ id: early.id, isFutures: false, start: new Date(T0 + 2 * HOUR).toISOString() });

    // Taker home moneyline at +150 for 100: win 150 × 0.99, risk 100 + 1% of 100.
    expect(moneyline).toMatchObject({
      txID: ml.matched[0]!.txID,
      type: 'moneyline',
      bet: 100,
      odds: 150,
      participantID: home(late),
      userReference: 'ref-ml',
      origin: 'wager',
      risk: '101.00',
      win: '148.50',
      createdAt: new Date(T0).toISOString(),
    });
    expect(moneyline).not.toHaveProperty('spread');
    expect(moneyline.game.participants.map((p: { homeAway: string }) => p.homeAway)).toEqual(['away', 'home']);

    // The maker's side: no commission, `bet` is its order's original stake, not the fill.
    const mres = await s.http('GET', '/user/getMatchedBets', { token: maker.token });
    const [mTotal, mMl] = mres.body.data.matchedBets;
    expect(mTotal).toMatchObject({
      origin: 'offer',
      bet: 110,
      odds: -110,
      OU: 'over',
      total: 200.5,
      risk: '55.00',
      win: '50.00',
      txID: tot.matched[0]!.txID,
    });
    expect(mMl).toMatchObject({
      origin: 'offer',
      bet: 150,
      odds: -150,
      participantID: away(late),
      risk: '150.00',
      win: '100.00',
    });

    // Graded bets leave the list.
    expect(s.sim.context.engine.settleGame(early.id, { away: 100, home: 99 }).ok).toBe(true);
    const after = await s.http('GET', '/user/getMatchedBets', { token: taker.token });
    expect(after.body.data.matchedBets.map((b: { txID: string }) => b.txID)).toEqual([ml.matched[0]!.txID]);
  });

  it('renders moneyline1x2 and spread fields', async () => {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const soccer = s.game({ league: 'EPL', sport: 'soccer', start: T0 + HOUR });
    const nba = s.game({ start: T0 + 2 * HOUR });
    place(s, maker, { gameID: soccer.id, type: 'moneyline1x2', market: 'draw', side: 'yes', odds: 250, bet: 100 });
    place(s, taker, { gameID: soccer.id, type: 'moneyline1x2', market: 'draw', side: 'no', odds: -250, bet: 250 });
    place(s, maker, { gameID: nba.id, type: 'spread', side: home(nba), number: -3.5, odds: 110, bet: 100 });
    place(s, taker, { gameID: nba.id, type: 'spread', side: away(nba), number: 3.5, odds: -110, bet: 50 });
    const res = await s.http('GET', '/user/getMatchedBets', { token: taker.token });
    const [x2, spread] = res.body.data.matchedBets;
    expect(x2).toMatchObject({ type: 'moneyline1x2', market: 'draw', side: 'no', odds: -250, bet: 250 });
    expect(x2).not.toHaveProperty('participantID');
    expect(spread).toMatchObject({
      type: 'spread',
      participantID: away(nba),
      spread: 3.5,
      odds: -110,
      risk: '50.45',
      win: '45.00',
    });
  });

  it('requires a token', async () => {
    const s = await start();
    const res = await s.http('GET', '/user/getMatchedBets');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });
});

describe('GET /user/getGameLiability', () => {
  it('equals the hand-computed worst case over every market of the game, ≤ 0', async () => {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const other = mkUser(s, 'other');
    const g = s.game();
    place(s, maker, { gameID: g.id, type: 'moneyline', side: away(g), odds: -150, bet: 150 });
    place(s, taker, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 100 });
    place(s, maker, { gameID: g.id, type: 'spread', side: home(g), number: -3.5, odds: 110, bet: 100 });
    place(s, taker, { gameID: g.id, type: 'spread', side: away(g), number: 3.5, odds: -110, bet: 50 });

    // Taker: home ML +150 for 100 (win 148.50, risk 101) and away +3.5 at -110 for 50
    // (win 45.00, risk 50.4545). Away wins: −101 + 45 = −56 (a tie refunds the ML: +45;
    // home by 1-3: both win; home by 4+: +148.50 − 50.45). The sum of the two separate
    // worst cases (−151.45) would be wrong.
    const res = await s.http('GET', `/user/getGameLiability?gameID=${g.id}`, { token: taker.token });
    expect(res.status).toBe(200);
    expect(res.body.data.liability).toBeCloseTo(-56, 9);

    // Maker: away ML risk 150 to win 100; home -3.5 risking 45.4545 to win 50 (the taker's
    // 50 at -110). Home by 1-3 loses both: −150 − 45.45.
    const m = await s.http('GET', `/user/getGameLiability?gameID=${g.id}`, { token: maker.token });
    expect(m.body.data.liability).toBeCloseTo(-150 - 50 / 1.1, 9);

    const none = await s.http('GET', `/user/getGameLiability?gameID=${g.id}`, { token: other.token });
    expect(none.status).toBe(200);
    expect(none.body.data.liability).toBe(0);
  });

  it('answers 400 for a missing or malformed gameID', async () => {
    const s = await start();
    const u = mkUser(s, 'u');
    for (const q of ['', '?gameID=', '?gameID=xyz', '?gameID=0123456789abcdef0123456Z']) {
      const res = await s.http('GET', `/user/getGameLiability${q}`, { token: u.token });
      expect(res.status, q).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
  });
});

describe('GET /affiliate/getAffiliateCommission', () => {
  it('returns the commission paid by each referred player at the top level, filtered by settlement day', async () => {
    const s = await start();
    const aff = mkUser(s, 'aff');
    const p1 = mkUser(s, 'p1', { referrer: 'aff' });
    const p2 = mkUser(s, 'p2', { referrer: 'aff' });
    const p3 = mkUser(s, 'p3', { referrer: 'someoneElse' });
    const maker = mkUser(s, 'maker');
    const g1 = s.game();
    const g2 = s.game({ start: T0 + 3 * DAY });
    const g3 = s.game();
    place(s, maker, { gameID: g1.id, type: 'moneyline', side: away(g1), odds: -150, bet: 1000 });
    place(s, p1, { gameID: g1.id, type: 'moneyline', side: home(g1), odds: 150, bet: 100 });
    place(s, p3, { gameID: g1.id, type: 'moneyline', side: home(g1), odds: 150, bet: 100 });
    place(s, maker, { gameID: g2.id, type: 'moneyline', side: away(g2), odds: -150, bet: 1000 });
    place(s, p2, { gameID: g2.id, type: 'moneyline', side: home(g2), odds: 150, bet: 40 });
    place(s, maker, { gameID: g3.id, type: 'moneyline', side: away(g3), odds: -150, bet: 1000 });
    // p1 loses on 03-01: commission 1% × min(100, 150) = 1.00.
    expect(s.sim.context.engine.settleGame(g1.id, { away: 3, home: 1 }).ok).toBe(true);
    s.time.advance(2 * DAY);
    // p2 wins on 03-03: commission 1% × 60 = 0.60.
    expect(s.sim.context.engine.settleGame(g2.id, { away: 1, home: 3 }).ok).toBe(true);

    const all = await s.http('GET', '/affiliate/getAffiliateCommission', { token: aff.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ commissionPaid: [{ p1: 1 }, { p2: 0.6 }] });

    const from = await s.http('GET', '/affiliate/getAffiliateCommission?fromDate=03-02-2026', { token: aff.token });
    expect(from.body).toEqual({ commissionPaid: [{ p1: 0 }, { p2: 0.6 }] });
    const to = await s.http('GET', '/affiliate/getAffiliateCommission?fromDate=02-01-2026&toDate=03-01-2026', {
      token: aff.token,
    });
    expect(to.body).toEqual({ commissionPaid: [{ p1: 1 }, { p2: 0 }] });

    // Nobody referred by p1.
    const mine = await s.http('GET', '/affiliate/getAffiliateCommission', { token: p1.token });
    expect(mine.body).toEqual({ commissionPaid: [] });
  });

  it('keeps counting the commission of bets the settlement retention has forgotten', async () => {
    const s = await start();
    const aff = mkUser(s, 'aff');
    const p1 = mkUser(s, 'p1', { referrer: 'aff' });
    const maker = mkUser(s, 'maker');
    const g1 = s.game();
    place(s, maker, { gameID: g1.id, type: 'moneyline', side: away(g1), odds: -150, bet: 1000 });
    place(s, p1, { gameID: g1.id, type: 'moneyline', side: home(g1), odds: 150, bet: 100 });
    expect(s.sim.context.engine.settleGame(g1.id, { away: 3, home: 1 }).ok).toBe(true);
    s.time.advance(s.sim.context.settings.settledGameRetentionMs + HOUR);
    s.sim.context.engine.advance();
    expect(s.sim.context.engine.bets(p1.id)).toEqual([]);
    const all = await s.http('GET', '/affiliate/getAffiliateCommission', { token: aff.token });
    expect(all.body).toEqual({ commissionPaid: [{ p1: 1 }] });
    const later = await s.http('GET', '/affiliate/getAffiliateCommission?fromDate=03-02-2026', { token: aff.token });
    expect(later.body).toEqual({ commissionPaid: [{ p1: 0 }] });
  });

  it('answers 400 when fromDate cannot be parsed', async () => {
    const s = await start();
    const aff = mkUser(s, 'aff');
    for (const bad of ['garbage', '2026-03-01', '13-01-2026', '02-30-2026']) {
      const res = await s.http('GET', `/affiliate/getAffiliateCommission?fromDate=${bad}`, { token: aff.token });
      expect(res.status, bad).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
  });
});
