import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createContext, type SimContext } from '../../src/sim/context.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { startSyntheticMarket, targetsOf, type SyntheticMarket } from '../../src/sim/market/market.ts';
import { parseScenario, ScenarioError, type ScenarioInput } from '../../src/sim/market/scenario.ts';
import { GameModel, SPORT_PROFILES } from '../../src/sim/market/fair-model.ts';
import { startSimulator, type Simulator } from '../../src/sim/server.ts';
import { createRandom } from '../../src/shared/random.ts';
import { invertOdds, oddsRank } from '../../src/odds/american.ts';
import type { EngineGame } from '../../src/engine/types.ts';

const MINUTE = 60_000;

/** A few short games in three leagues (two-way points, soccer three-way, hockey goals). */
const SMALL: ScenarioInput = {
  name: 'small',
  horizonMinutes: 40,
  pace: {
    tickSeconds: 5,
    preGameMinutes: 40,
    makerRefreshSeconds: 15,
    noiseTakersPerMinute: 20,
    informedTakersPerMinute: 6,
  },
  population: { makers: { count: 3 }, noiseTakers: { count: 2 }, informedTakers: { count: 1 } },
  leagues: [
    { league: 'NBA', sport: 'basketball', games: 2, durationMinutes: 30 },
    { league: 'EPL', sport: 'soccer', games: 2, durationMinutes: 30 },
    { league: 'NHL', sport: 'hockey', games: 1, durationMinutes: 30 },
  ],
};

interface Run {
  readonly time: ManualTimeSource;
  readonly ctx: SimContext;
  readonly market: SyntheticMarket;
  /** Every fill, in order, as a comparable string. */
  readonly fills: string[];
  readonly wentLive: Set<string>;
}

const running: SyntheticMarket[] = [];
afterEach(() => {
  for (const m of running.splice(0)) m.stop();
});

function start(seed: number, scenario: ScenarioInput = SMALL): Run {
  const time = manualTime();
  const ctx = createContext({ time, seed, log: pino({ level: 'silent' }) });
  const fills: string[] = [];
  const wentLive = new Set<string>();
  ctx.engine.onEvent((e) => {
    if (e.kind === 'fill') {
      const f = e.fill;
      fills.push(
        `${f.at} ${f.txID} ${f.bookKey} ${f.taker.userId}>${f.maker.userId} ${f.taker.money.odds} ${f.taker.money.amount.toFixed(4)}`,
      );
    } else if (e.kind === 'gameChanged' && e.game.live) {
      wentLive.add(e.game.id);
    }
  });
  const market = startSyntheticMarket(ctx, parseScenario(scenario));
  running.push(market);
  return { time, ctx, market, fills, wentLive };
}

function openGames(ctx: SimContext): EngineGame[] {
  return ctx.engine.games().filter((g) => !g.ended);
}

/** Keys of books on the game where both sides hold at least one offer. */
function twoSidedBooks(ctx: SimContext, gameID: string): string[] {
  return ctx.engine
    .books(gameID)
    .filter((b) => ctx.engine.bookSide(gameID, b.key, 0).length > 0 && ctx.engine.bookSide(gameID, b.key, 1).length > 0)
    .map((b) => b.key);
}

/** A book is crossed when the best offer listed on one side would match the best on the other. */
function crossedBooks(ctx: SimContext): string[] {
  const out: string[] = [];
  for (const g of openGames(ctx)) {
    for (const b of ctx.engine.books(g.id)) {
      const best0 = ctx.engine.bookSide(g.id, b.key, 0)[0];
      const best1 = ctx.engine.bookSide(g.id, b.key, 1)[0];
      if (!best0 || !best1) continue;
      // best0 is a maker backing side 1 at invert(listed); it would match side 1's listing at rank ≥ its own.
      if (oddsRank(best1.listedOdds) >= oddsRank(invertOdds(best0.listedOdds)))
        out.push(`${g.id} ${b.key} ${best0.listedOdds}/${best1.listedOdds}`);
    }
  }
  return out;
}

describe('synthetic market', () => {
  it('makers quote both sides of every market type from the start', () => {
    const { ctx, market } = start(1);
    const games = openGames(ctx);
    expect(games).toHaveLength(5);
    expect(market.accounts.makers).toHaveLength(3);

    const nba = games.find((g) => g.league === 'NBA')!;
    const nbaBooks = twoSidedBooks(ctx, nba.id);
    expect(nbaBooks).toContain('moneyline');
    expect(nbaBooks.some((k) => k.startsWith('spread:'))).toBe(true);
    expect(nbaBooks.some((k) => k.startsWith('total:'))).toBe(true);

    const soccer = games.find((g) => g.sport === 'soccer')!;
    expect(soccer.markets).toContain('moneyline1x2');
    const soccerBooks = twoSidedBooks(ctx, soccer.id);
    expect(soccerBooks).toEqual(
      expect.arrayContaining(['moneyline1x2:home', 'moneyline1x2:away', 'moneyline1x2:draw']),
    );
    expect(soccerBooks.some((k) => k.startsWith('spread:'))).toBe(true);
    expect(soccerBooks.some((k) => k.startsWith('total:'))).toBe(true);
    expect(ctx.engine.bookSide(soccer.id, 'moneyline1x2:home', 0).length).toBeGreaterThan(0);
    expect(ctx.engine.bookSide(soccer.id, 'moneyline1x2:home', 1).length).toBeGreaterThan(0);

    // Realistic prices: every listed price a valid American price, takers pay a margin over fair.
    for (const g of games) {
      for (const b of ctx.engine.books(g.id)) {
        for (const side of [0, 1] as const) {
          for (const o of ctx.engine.bookSide(g.id, b.key, side)) {
            expect(Math.abs(o.listedOdds)).toBeGreaterThanOrEqual(100);
            expect(o.order.bet).toBeGreaterThanOrEqual(50);
            expect(o.order.bet).toBeLessThanOrEqual(2000);
            expect(o.order.orderType).toBe('post');
            expect(o.order.expiresAt).not.toBeNull();
          }
        }
      }
    }
  });

  it('trades, takes games live and to the end, grades them, and never crosses the book', () => {
    const { time, ctx, market, fills, wentLive } = start(2);
    let sawLive = false;
    for (let t = 0; t < 150; t++) {
      time.advance(MINUTE);
      expect(crossedBooks(ctx)).toEqual([]);
      if (market.stats().games.live > 0) sawLive = true;
    }
    const stats = market.stats();
    expect(sawLive).toBe(true);
    expect(wentLive.size).toBeGreaterThanOrEqual(5);
    expect(fills.length).toBeGreaterThan(50);
    expect(stats.fills).toBe(fills.length);
    expect(stats.takers.noise).toBeGreaterThan(0);
    expect(stats.takers.informed).toBeGreaterThan(0);
    expect(stats.takers.delayed).toBeGreaterThan(0); // crossing orders on live games wait the league delay
    expect(stats.games.ended).toBeGreaterThanOrEqual(5);
    // Rolling schedule: every ended game was replaced.
    expect(stats.games.created).toBe(5 + stats.games.ended);
    expect(openGames(ctx)).toHaveLength(5);

    const ended = ctx.engine.games().filter((g) => g.ended);
    expect(ended.length).toBe(stats.games.ended);
    for (const g of ended) {
      expect(g.score).not.toBeNull();
      if (g.sport !== 'soccer') expect(g.score!.home).not.toBe(g.score!.away); // overtime breaks ties
    }
    for (const id of [...market.accounts.makers.slice(0, 1), ...market.accounts.noiseTakers]) {
      expect(ctx.engine.grades(id).length).toBeGreaterThan(0);
    }
    // Every synthetic account's balance moved by exactly its graded P&L.
    for (const id of [...market.accounts.makers, ...market.accounts.noiseTakers, ...market.accounts.informedTakers]) {
      const pnl = ctx.engine.grades(id).reduce((s, g) => s + g.result, 0);
      expect(ctx.engine.account(id)!.balance).toBeCloseTo(100_000_000 + pnl, 4);
    }
  });

  it('is deterministic: the same seed gives the same fills, another seed different ones', () => {
    const a = start(7);
    const b = start(7);
    const c = start(8);
    for (const r of [a, b, c]) r.time.advance(90 * MINUTE);
    expect(a.fills.length).toBeGreaterThan(20);
    expect(b.fills).toEqual(a.fills);
    expect(c.fills).not.toEqual(a.fills);
    expect(b.market.stats()).toEqual(a.market.stats());
  });

  it('an underway opening starts with its steady share of games in play, and ends and replaces games from the start', () => {
    // 40 games of 60 minutes listed 120 × U(0.5, 1) ahead: a cycle of 90 + 60 minutes, 40% of it in play.
    const scenario: ScenarioInput = {
      ...SMALL,
      opening: 'underway',
      pace: { ...SMALL.pace, preGameMinutes: 120 },
      leagues: [{ league: 'NBA', sport: 'basketball', games: 40, durationMinutes: 60 }],
    };
    const { time, ctx, market } = start(5, scenario);
    const atOpen = market.stats().games;
    expect(atOpen.pregame + atOpen.live).toBe(40);
    expect(atOpen.live).toBe(16);
    const inPlay = market.games().filter((g) => g.phase === 'live');
    for (const g of inPlay) {
      expect(g.start).toBeLessThanOrEqual(time.clock.now());
      expect(ctx.engine.game(g.id)?.live).toBe(true);
    }
    // The games in play end within their hour: about 16 of them, and every one replaced by a pre-game one.
    time.advance(60 * MINUTE);
    const later = market.stats().games;
    expect(later.ended).toBeGreaterThanOrEqual(14);
    expect(later.pregame + later.live).toBe(40);

    // A fresh opening lists every game pre-game, and none ends in that hour.
    const fresh = start(5, { ...scenario, opening: 'fresh' });
    expect(fresh.market.stats().games.live).toBe(0);
    fresh.time.advance(60 * MINUTE);
    expect(fresh.market.stats().games.ended).toBe(0);
  });

  it('stop() ends all activity', () => {
    const { time, market, fills } = start(3);
    time.advance(20 * MINUTE);
    market.stop();
    const stopped = market.stats();
    // Orders already waiting out a live delay still execute in the engine; nothing new is sent.
    time.advance(MINUTE);
    expect(market.stats().takers).toEqual(stopped.takers);
    const before = { fills: fills.length, stats: market.stats() };
    time.advance(60 * MINUTE);
    expect(fills.length).toBe(before.fills);
    expect(market.stats().takers).toEqual(before.stats.takers);
    expect(market.stats().quotes.posted).toBe(before.stats.quotes.posted);
  });

  it('runs the default scenario cheaply: a few dozen games over several leagues and all four market types', () => {
    const { time, ctx, market } = start(4, {});
    const games = openGames(ctx);
    expect(games.length).toBeGreaterThanOrEqual(30);
    expect(new Set(games.map((g) => g.league)).size).toBeGreaterThanOrEqual(4);
    const types = new Set(games.flatMap((g) => ctx.engine.books(g.id).map((b) => b.key.split(':')[0])));
    expect([...types].sort()).toEqual(['moneyline', 'moneyline1x2', 'spread', 'total']);
    const t0 = performance.now();
    time.advance(60 * MINUTE);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(market.stats().fills).toBeGreaterThan(0);
  });
});

describe('fair model', () => {
  it('prices are probabilities that add up, and lines sit near even', () => {
    const random = createRandom(9);
    for (const [sport, profile] of Object.entries(SPORT_PROFILES)) {
      const model = new GameModel(profile, profile.durationMinutes, 0.5 * profile.ratingSd, random.fork(), {
        preGameDrift: 1,
        newsPerHour: 0.3,
        liveJumpsPerHour: 0.5,
      });
      for (let step = 0; step < 40; step++) {
        if (step < 10) model.drift(10 * MINUTE);
        else model.play(profile.durationMinutes * MINUTE * 0.02);
        const fair = model.fair();
        expect(fair.home + fair.away + fair.draw, sport).toBeCloseTo(1, 6);
        if (sport !== 'soccer') expect(fair.draw).toBe(0);
        if (step < 10) {
          expect(Math.abs(fair.homeCovers - 0.5), `${sport} spread ${fair.spreadLine}`).toBeLessThan(
            profile.fixedSpread ? 0.4 : 0.21,
          );
          expect(Math.abs(fair.over - 0.5), `${sport} total ${fair.totalLine}`).toBeLessThan(0.21);
        }
        const markets =
          sport === 'soccer'
            ? (['moneyline1x2', 'spread', 'total'] as const)
            : (['moneyline', 'spread', 'total'] as const);
        const targets = targetsOf(markets, fair);
        for (let i = 0; i < targets.length; i += 2) expect(targets[i]!.p + targets[i + 1]!.p).toBeCloseTo(1, 9);
      }
      const score = model.finalScore();
      expect(Number.isInteger(score.home) && Number.isInteger(score.away)).toBe(true);
      expect(score.home).toBeGreaterThanOrEqual(0);
      expect(score.away).toBeGreaterThanOrEqual(0);
    }
  });

  it('final scores follow the model: the stronger home side wins more often', () => {
    const random = createRandom(11);
    const profile = SPORT_PROFILES.basketball;
    let homeWins = 0;
    const n = 400;
    for (let i = 0; i < n; i++) {
      const model = new GameModel(profile, profile.durationMinutes, 6, random.fork(), {
        preGameDrift: 0,
        newsPerHour: 0,
        liveJumpsPerHour: 0,
      });
      const p = model.fair().home;
      expect(p).toBeGreaterThan(0.7);
      const s = model.finalScore();
      if (s.home > s.away) homeWins++;
    }
    // μ = 8.5, σ = 12 → P(home) ≈ 0.76
    expect(homeWins / n).toBeGreaterThan(0.68);
    expect(homeWins / n).toBeLessThan(0.84);
  });
});

describe('registerMarket (through startSimulator)', () => {
  let sim: Simulator | null = null;
  afterEach(async () => {
    await sim?.close();
    sim = null;
  });

  it('starts the scenario when traders are on and stops it on close', async () => {
    const time = manualTime();
    sim = await startSimulator({ port: 0, seed: 5, time, traders: true, scenario: parseScenario(SMALL) });
    const engine = sim.context.engine;
    expect(engine.games()).toHaveLength(5);
    let fills = 0;
    engine.onEvent((e) => {
      if (e.kind === 'fill') fills++;
    });
    time.advance(30 * MINUTE);
    expect(fills).toBeGreaterThan(0);
    await sim.close();
    sim = null;
    const after = fills;
    time.advance(30 * MINUTE);
    expect(fills).toBe(after);
  });

  it('runs the built-in default when no scenario is given, and nothing with traders off', async () => {
    sim = await startSimulator({ port: 0, seed: 5, time: manualTime(), traders: true });
    expect(sim.context.engine.games().length).toBe(36);
    await sim.close();
    sim = await startSimulator({ port: 0, seed: 5, time: manualTime(), traders: false });
    expect(sim.context.engine.games()).toHaveLength(0);
  });

  it('rejects an invalid scenario object with a ScenarioError naming the field', async () => {
    await expect(
      startSimulator({ port: 0, time: manualTime(), traders: true, scenario: { pace: { tickSeconds: 'fast' } } }),
    ).rejects.toThrow(ScenarioError);
    await expect(
      startSimulator({ port: 0, time: manualTime(), traders: true, scenario: { pace: { tickSeconds: 'fast' } } }),
    ).rejects.toThrow(/pace\.tickSeconds/);
  });
});
