import type { Subscription } from 'rxjs';
import { bookKeyOf, sideIndexOf, type MarketType, type Selection } from '../../markets/types.ts';
import { componentChild } from '../../shared/logger.ts';
import type { SimContext } from '../context.ts';
import { createGame, createUser } from '../ops/admin-ops.ts';
import { GameModel, SPORT_PROFILES, type FairPrices, type SportProfile } from './fair-model.ts';
import type { LeagueSpec, Scenario } from './scenario.ts';
import { InformedTaker, Maker, NoiseTaker, type TraderEnv } from './traders.ts';
import { newCounters, type Counters, type GamePhase, type TradableGame, type Target } from './types.ts';
import { SyntheticMarketError } from '../errors.ts';

export interface MarketStats {
  readonly games: { readonly created: number; readonly pregame: number; readonly live: number; readonly ended: number };
  readonly quotes: {
    readonly posted: number;
    readonly cancelled: number;
    readonly rejected: number;
    readonly resting: number;
  };
  readonly takers: {
    readonly noise: number;
    readonly informed: number;
    readonly delayed: number;
    readonly rejected: number;
  };
  /** Every fill on the exchange while the market ran (synthetic or not), and its taker stake. */
  readonly fills: number;
  readonly volume: number;
}

export interface MarketAccounts {
  readonly makers: readonly string[];
  readonly noiseTakers: readonly string[];
  readonly informedTakers: readonly string[];
}

export interface MarketGameView {
  readonly id: string;
  readonly league: string;
  readonly sport: string;
  readonly phase: GamePhase;
  readonly start: number;
  readonly end: number;
  readonly fair: FairPrices;
}

export interface SyntheticMarket {
  /** Stop every timer; resting orders stay on the book (they expire on their own). */
  stop(): void;
  stats(): MarketStats;
  /** User ids of the synthetic accounts. */
  readonly accounts: MarketAccounts;
  /** Games the market runs now (pre-game and live). */
  games(): MarketGameView[];
}

interface Team {
  readonly name: string;
  readonly short: string;
  readonly rating: number;
}

interface League {
  readonly spec: LeagueSpec;
  readonly profile: SportProfile;
  readonly durationMinutes: number;
  readonly teams: readonly Team[];
  /** Indices of teams in a scheduled game. */
  readonly busy: Set<number>;
}

class SimGame implements TradableGame {
  phase: GamePhase = 'pre';
  lastTick: number;
  /** Position in the market's game list (for O(1) removal and uniform picks). */
  index = -1;
  #targets: readonly Target[] = [];
  #targetsVersion = -1;

  constructor(
    readonly id: string,
    readonly league: League,
    readonly teams: readonly [number, number],
    readonly start: number,
    readonly end: number,
    readonly markets: readonly MarketType[],
    readonly model: GameModel,
    now: number,
  ) {
    this.lastTick = now;
  }

  targets(): readonly Target[] {
    if (this.#targetsVersion !== this.model.version) {
      this.#targets = targetsOf(this.markets, this.model.fair());
      this.#targetsVersion = this.model.version;
    }
    return this.#targets;
  }
}

function target(selection: Selection, p: number): Target {
  return { key: `${bookKeyOf(selection)}#${sideIndexOf(selection)}`, selection, p };
}

/** Every selection quoted on a game at the current main lines, with fair probabilities. */
export function targetsOf(markets: readonly MarketType[], fair: FairPrices): Target[] {
  const out: Target[] = [];
  for (const m of markets) {
    switch (m) {
      case 'moneyline': {
        // A draw refunds a two-way moneyline: price it on the decided outcomes.
        const home = fair.home / (fair.home + fair.away);
        out.push(
          target({ type: 'moneyline', team: 'home' }, home),
          target({ type: 'moneyline', team: 'away' }, 1 - home),
        );
        break;
      }
      case 'moneyline1x2':
        for (const [outcome, p] of [
          ['home', fair.home],
          ['away', fair.away],
          ['draw', fair.draw],
        ] as const) {
          out.push(
            target({ type: 'moneyline1x2', outcome, yes: true }, p),
            target({ type: 'moneyline1x2', outcome, yes: false }, 1 - p),
          );
        }
        break;
      case 'spread':
        out.push(
          target({ type: 'spread', team: 'home', line: fair.spreadLine }, fair.homeCovers),
          target({ type: 'spread', team: 'away', line: -fair.spreadLine || 0 }, 1 - fair.homeCovers),
        );
        break;
      case 'total':
        out.push(
          target({ type: 'total', ou: 'over', line: fair.totalLine }, fair.over),
          target({ type: 'total', ou: 'under', line: fair.totalLine }, 1 - fair.over),
        );
        break;
    }
  }
  return out;
}

function shortNameOf(name: string): string {
  const words = name.split(/\s+/).filter((w) => w.length > 0);
  if (words.length >= 3)
    return words
      .map((w) => w[0]!.toUpperCase())
      .join('')
      .slice(0, 4);
  return (
    (words[0] ?? name)
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 3)
      .toUpperCase() || 'TM'
  );
}

/**
 * Start the synthetic market on a simulator context: create the trader accounts and the
 * first games, then run on the context's scheduler (model ticks, maker refreshes, taker
 * arrivals) until `stop()`. All randomness is forked from `ctx.random`, so the same seed
 * and scenario give the same run.
 */
export function startSyntheticMarket(ctx: SimContext, scenario: Scenario): SyntheticMarket {
  const { engine, time } = ctx;
  const clock = time.clock;
  const log = componentChild(ctx.log, 'market');
  const root = ctx.random.fork();
  const rnd = {
    setup: root.fork(),
    model: root.fork(),
    schedule: root.fork(),
    makers: root.fork(),
    noise: root.fork(),
    informed: root.fork(),
  };
  const counters: Counters = newCounters();
  const env: TraderEnv = { engine, counters };
  const pop = scenario.population;
  const pace = scenario.pace;
  const subs = new Set<Subscription>();
  let stopped = false;

  // ------------------------------------------------------------ accounts
  const account = (username: string): string => {
    const password = `sim-${rnd.setup.int(0, 2 ** 31 - 1).toString(36)}${rnd.setup.int(0, 2 ** 31 - 1).toString(36)}`;
    const made = createUser(ctx, { username, password, balance: pop.balance });
    if (!made.ok) throw new SyntheticMarketError(`synthetic market: cannot create account ${username}: ${made.error}`);
    return made.value.id;
  };
  const makers = Array.from({ length: pop.makers.count }, (_, i) => {
    const r = rnd.makers.fork();
    const m = pop.makers;
    return {
      maker: new Maker(account(`sim-maker-${i + 1}`), env, r, { ...m, margin: m.margin * (0.8 + 0.6 * r.float()) }),
      periodMs: pace.makerRefreshSeconds * 1000 * (0.7 + 0.6 * r.float()),
      random: r,
    };
  });
  const noise = Array.from(
    { length: pop.noiseTakers.count },
    (_, i) => new NoiseTaker(account(`sim-noise-${i + 1}`), env, rnd.noise.fork(), pop.noiseTakers),
  );
  const informed = Array.from({ length: pop.informedTakers.count }, (_, i) => {
    const id = account(`sim-informed-${i + 1}`);
    return new InformedTaker(
      id,
      env,
      rnd.informed.fork(),
      pop.informedTakers,
      engine.account(id)?.commissionRate ?? 0.01,
    );
  });

  const takerIds = new Set<string>([...noise.map((t) => t.userId), ...informed.map((t) => t.userId)]);
  const makerByUser = new Map(makers.map((m) => [m.maker.userId, m.maker]));
  const unsubscribe = engine.onEvent((e) => {
    if (e.kind === 'fill') {
      counters.fills++;
      counters.volume += e.fill.taker.money.amount;
      makerByUser.get(e.fill.maker.userId)?.orderChanged(e.fill.makerOrderAfter);
    } else if (e.kind === 'orderCancelled' || e.kind === 'orderExpired') {
      makerByUser.get(e.order.userId)?.orderChanged(e.order);
    } else if (e.kind === 'delayedExecuted' && e.outcome.status === 'error' && takerIds.has(e.userId)) {
      counters.takerRejected++;
    }
  });

  // ------------------------------------------------------------ leagues and games
  const leagues: League[] = scenario.leagues.map((spec) => {
    const profile = SPORT_PROFILES[spec.sport];
    const names =
      spec.teams ?? Array.from({ length: Math.max(8, 2 * spec.games + 4) }, (_, i) => `${spec.league} Team ${i + 1}`);
    return {
      spec,
      profile,
      durationMinutes: spec.durationMinutes ?? profile.durationMinutes,
      teams: names.map((name) => ({ name, short: shortNameOf(name), rating: rnd.setup.normal() * profile.ratingSd })),
      busy: new Set<number>(),
    };
  });
  /** Scheduled games (pre-game or live), in a list for uniform picks. */
  const active: SimGame[] = [];

  const pickTeams = (league: League): [number, number] => {
    const n = league.teams.length;
    const free: number[] = [];
    for (let i = 0; i < n; i++) if (!league.busy.has(i)) free.push(i);
    const pool = free.length >= 2 ? free : Array.from({ length: n }, (_, i) => i);
    const home = rnd.schedule.pick(pool);
    let away = rnd.schedule.pick(pool);
    while (away === home) away = rnd.schedule.pick(pool);
    return [home, away];
  };

  /** List a game starting at `start`; one whose start has passed is in play, its model played up to now. */
  const addGame = (league: League, start: number): void => {
    const [h, a] = pickTeams(league);
    const home = league.teams[h]!;
    const away = league.teams[a]!;
    const soccer = league.spec.sport === 'soccer';
    const made = createGame(ctx, {
      league: league.spec.league,
      sport: league.spec.sport,
      participants: [
        { longName: away.name, shortName: away.short },
        { longName: home.name, shortName: home.short },
      ],
      start,
      eventName: soccer ? `${home.name} vs ${away.name}` : `${away.name} @ ${home.name}`,
    });
    if (!made.ok) {
      log.warn({ league: league.spec.league, error: made.error }, 'synthetic market could not create a game');
      return;
    }
    const strength = home.rating - away.rating + rnd.model.normal() * league.profile.ratingSd * 0.2;
    const model = new GameModel(league.profile, league.durationMinutes, strength, rnd.model.fork(), scenario.model);
    const game = new SimGame(
      made.value.id,
      league,
      [h, a],
      start,
      start + league.durationMinutes * 60_000,
      made.value.markets,
      model,
      clock.now(),
    );
    league.busy.add(h).add(a);
    game.index = active.length;
    active.push(game);
    counters.gamesCreated++;
    const inPlay = clock.now() - start;
    if (inPlay > 0 && goLive(game)) model.play(inPlay);
  };

  const removeGame = (game: SimGame): void => {
    const last = active.pop()!;
    if (last !== game) {
      active[game.index] = last;
      last.index = game.index;
    }
    game.index = -1;
    game.league.busy.delete(game.teams[0]);
    game.league.busy.delete(game.teams[1]);
    for (const m of makers) m.maker.forget(game.id);
  };

  const replace = (league: League): void => {
    addGame(league, clock.now() + pace.preGameMinutes * 60_000 * (0.5 + 0.5 * rnd.schedule.float()));
  };

  // ------------------------------------------------------------ lifecycle
  const goLive = (game: SimGame): boolean => {
    const res = engine.updateGame(game.id, { live: true });
    if (!res.ok) return false;
    game.phase = 'live';
    log.debug({ gameID: game.id, league: game.league.spec.league }, 'game live');
    return true;
  };

  const finish = (game: SimGame): void => {
    const score = game.model.finalScore();
    const res = engine.settleGame(game.id, score);
    if (!res.ok) log.warn({ gameID: game.id, error: res.error.message }, 'could not settle a synthetic game');
    else log.debug({ gameID: game.id, league: game.league.spec.league, score, graded: res.value.length }, 'game ended');
    game.phase = 'ended';
    counters.gamesEnded++;
    removeGame(game);
    replace(game.league);
  };

  const tick = (): void => {
    const now = clock.now();
    for (const game of [...active]) {
      // Ended or removed from outside (admin settle / refund): drop it and schedule another.
      if (engine.game(game.id)?.ended !== false) {
        game.phase = 'ended';
        removeGame(game);
        replace(game.league);
        continue;
      }
      const dt = now - game.lastTick;
      game.lastTick = now;
      if (game.phase === 'pre') {
        if (now < game.start) {
          game.model.drift(dt);
          continue;
        }
        const inPlay = Math.min(dt, now - game.start);
        game.model.drift(dt - inPlay);
        if (!goLive(game)) continue;
        game.model.play(inPlay);
      } else {
        game.model.play(dt);
      }
      if (now >= game.end) finish(game);
    }
  };

  // ------------------------------------------------------------ scheduling
  /** Run `work` after `delayMs` of exchange time on the context's scheduler. */
  const after = (delayMs: number, work: () => void): void => {
    if (stopped) return;
    let sub: Subscription | undefined;
    let done = false;
    // eslint-disable-next-line prefer-const -- the callback reads `sub` and may run inside schedule(), before this assignment
    sub = time.scheduler.schedule(
      () => {
        done = true;
        if (sub) subs.delete(sub);
        if (stopped) return;
        try {
          work();
        } catch (e) {
          log.error({ err: e }, 'synthetic market step failed');
        }
        ctx.pump.kick();
      },
      Math.max(0, delayMs),
    );
    if (!done) subs.add(sub);
  };
  const every = (firstMs: number, nextMs: () => number, work: () => void): void => {
    const step = () => {
      work();
      after(nextMs(), step);
    };
    after(firstMs, step);
  };

  const randomGames = (n: number): SimGame[] => {
    if (active.length <= n) return [...active];
    const out: SimGame[] = [];
    for (let i = 0; i < n; i++) out.push(rnd.informed.pick(active));
    return out;
  };

  // ------------------------------------------------------------ start
  const now0 = clock.now();
  const horizonMs = scenario.horizonMinutes * 60_000;
  for (const league of leagues) {
    const n = league.spec.games;
    if (scenario.opening === 'underway') {
      // A slot's cycle: listed ahead by preGame × U(0.5, 1) (0.75 on average), then played.
      // Each game is at an evenly spread point of it: that far into play, or that long before its start.
      const playMs = league.durationMinutes * 60_000;
      const cycleMs = 0.75 * pace.preGameMinutes * 60_000 + playMs;
      for (let i = 0; i < n; i++) {
        const at = Math.floor((cycleMs * (i + rnd.schedule.float())) / n);
        addGame(league, at < playMs ? now0 - at : now0 + Math.max(60_000, at - playMs));
      }
    } else {
      for (let i = 0; i < n; i++)
        addGame(league, now0 + Math.max(60_000, Math.floor((horizonMs * (i + rnd.schedule.float())) / n)));
    }
  }
  for (const m of makers) m.maker.refresh(active);

  every(pace.tickSeconds * 1000, () => pace.tickSeconds * 1000, tick);
  for (const m of makers) {
    every(
      m.periodMs * m.random.float(),
      () => m.periodMs * (0.9 + 0.2 * m.random.float()),
      () => m.maker.refresh(active),
    );
  }
  if (pace.noiseTakersPerMinute > 0 && noise.length > 0) {
    const mean = 60_000 / pace.noiseTakersPerMinute;
    every(
      rnd.noise.exponential(mean),
      () => rnd.noise.exponential(mean),
      () => {
        if (active.length === 0) return;
        rnd.noise.pick(noise).act(rnd.noise.pick(active));
      },
    );
  }
  if (pace.informedTakersPerMinute > 0 && informed.length > 0) {
    const mean = 60_000 / pace.informedTakersPerMinute;
    every(
      rnd.informed.exponential(mean),
      () => rnd.informed.exponential(mean),
      () => {
        if (active.length === 0) return;
        rnd.informed.pick(informed).act(randomGames(pop.informedTakers.scanGames));
      },
    );
  }
  ctx.pump.kick();
  log.info(
    {
      scenario: scenario.name,
      games: active.length,
      makers: makers.length,
      noiseTakers: noise.length,
      informedTakers: informed.length,
    },
    'synthetic market started',
  );

  return {
    accounts: {
      makers: makers.map((m) => m.maker.userId),
      noiseTakers: noise.map((t) => t.userId),
      informedTakers: informed.map((t) => t.userId),
    },
    stop() {
      if (stopped) return;
      stopped = true;
      for (const s of subs) s.unsubscribe();
      subs.clear();
      unsubscribe();
      log.info({ fills: counters.fills, gamesEnded: counters.gamesEnded }, 'synthetic market stopped');
    },
    stats() {
      let live = 0;
      for (const g of active) if (g.phase === 'live') live++;
      return {
        games: { created: counters.gamesCreated, pregame: active.length - live, live, ended: counters.gamesEnded },
        quotes: {
          posted: counters.quotesPosted,
          cancelled: counters.quotesCancelled,
          rejected: counters.quotesRejected,
          resting: makers.reduce((n, m) => n + m.maker.quoteCount, 0),
        },
        takers: {
          noise: counters.noiseOrders,
          informed: counters.informedOrders,
          delayed: counters.delayedOrders,
          rejected: counters.takerRejected,
        },
        fills: counters.fills,
        volume: counters.volume,
      };
    },
    games() {
      return active.map((g) => ({
        id: g.id,
        league: g.league.spec.league,
        sport: g.league.spec.sport,
        phase: g.phase,
        start: g.start,
        end: g.end,
        fair: g.model.fair(),
      }));
    },
  };
}
