import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { MatchingEngine } from '../engine/engine.ts';
import { createIdGenerator, type IdGenerator } from '../engine/ids.ts';
import { createRandom, type Random } from '../shared/random.ts';
import type { TimeSource } from '../shared/time.ts';
import { SimAccounts } from './accounts.ts';
import { TokenStore } from './auth/tokens.ts';
import { RollingWindowLimiter } from './rate-limit.ts';
import { EnginePump } from './engine-pump.ts';
import { DEFAULT_LIMITS, type SimLimitSettings } from './limit-settings.ts';

/** Fault injection for resilience tests (POST /admin/faults). All off by default. */
export interface Faults {
  /** Close every socket connection at this period (ms); 0 = off. */
  dropSocketsEveryMs: number;
  /** Fraction of REST calls answered 503 (half of them after the 15 s server timeout, as a timeout). */
  restErrorRate: number;
  /**
   * Fraction of REST calls whose work is done but whose answer never comes: the server holds
   * the connection until the client gives up (a client-side timeout, not a 503).
   */
  restHangRate: number;
  /** Added latency per REST call, ms (real time: it models the network, not the exchange clock). */
  restLatencyMs: number;
  /** Fraction of feed frames replaced by malformed ones. */
  malformedFeedRate: number;
  /** While > 0, the next N REST calls answer 429 with Retry-After. */
  rateLimitBurst: number;
  /** Login answers 428 CHALLENGE_REQUIRED while set. */
  loginChallenge: boolean;
}

export const NO_FAULTS: Faults = {
  dropSocketsEveryMs: 0,
  restErrorRate: 0,
  restHangRate: 0,
  restLatencyMs: 0,
  malformedFeedRate: 0,
  rateLimitBurst: 0,
  loginChallenge: false,
};

/** How many faults of each kind the simulator injected so far (GET /admin/faults `injected`). */
export interface FaultCounts {
  /** Times every socket was dropped at once (dropSocketsEveryMs). */
  socketDrops: number;
  /** Connections terminated by those drops. */
  socketsDropped: number;
  /** REST calls answered 503 at once. */
  rest503: number;
  /** REST calls answered 503 after the server timeout, with the work done. */
  restTimeout503: number;
  /** REST calls done but never answered (restHangRate). */
  restHangs: number;
  /** REST calls answered 429 by rateLimitBurst. */
  rateLimited429: number;
  /** Feed frames replaced by malformed ones. */
  malformedFrames: number;
  /** Logins answered 428 (loginChallenge). */
  loginChallenges: number;
  /** Tokens expired by POST /admin/tokens/expire. */
  tokensExpired: number;
}

export function noFaultCounts(): FaultCounts {
  return {
    socketDrops: 0,
    socketsDropped: 0,
    rest503: 0,
    restTimeout503: 0,
    restHangs: 0,
    rateLimited429: 0,
    malformedFrames: 0,
    loginChallenges: 0,
    tokensExpired: 0,
  };
}

export interface SimLimits {
  /** Global per-IP limit (settings.ipRate): every request and WebSocket handshake. */
  readonly global: RollingWindowLimiter;
  /** Logins per IP (settings.loginRate). */
  readonly login: RollingWindowLimiter;
  /** Named per-user limiters used by routes (getGradedSince, getGraded: settings.gradedSinceRate, gradedRate). */
  readonly perUser: ReadonlyMap<string, RollingWindowLimiter>;
}

export interface SimSettings extends SimLimitSettings {
  /** Server-side request timeout (contract: 15 s → 503). */
  readonly requestTimeoutMs: number;
  /** Largest place / cancelMultiple batch accepted (the contract gives none). */
  readonly maxBatch: number;
  /**
   * User-feed replay retention, per account: messages older than this, or beyond the count,
   * are gone (a replay from before them answers cache_expired). An account that never
   * logged in keeps none (no client can hold one of its message ids).
   */
  readonly userFeedRetentionMs: number;
  readonly userFeedRetentionCount: number;
  /** Whether the admin API is mounted (loopback only). */
  readonly admin: boolean;
  /**
   * How long closed (filled, cancelled, expired) orders stay readable: order lookups and the
   * reasons a cancel of one gives; after that they read as not found. Market time; default
   * 15 min (the synthetic makers close some 100,000 orders an hour at 200 games).
   */
  readonly closedOrderRetentionMs: number;
  /** And at most this many closed orders, whatever their age (the oldest go first); default 10,000. */
  readonly closedOrderRetentionCount: number;
  /**
   * How long an ended game stays after its latest settlement, with its bets and their grade
   * versions (the graded endpoints, getMatchedBets, regrades and refunds): after that they
   * are forgotten, and a getGradedSince cursor from before resumes at the oldest row kept.
   * Market time; default 6 h.
   */
  readonly settledGameRetentionMs: number;
  /**
   * And at most this many ended games, whatever their age: the one settled longest ago goes
   * first, as if its retention had passed. Default 50 (an hour of endings at 200 games).
   */
  readonly settledGameRetentionCount: number;
}

/**
 * Everything the simulator's routes and sockets share. One engine, one time source; the
 * Node event loop serialises every call into it, so the engine is the one writer.
 */
export interface SimContext {
  readonly engine: MatchingEngine;
  /** Runs the engine's due work on the scheduler; awaits live-delayed orders. */
  readonly pump: EnginePump;
  readonly time: TimeSource;
  readonly ids: IdGenerator;
  readonly random: Random;
  readonly accounts: SimAccounts;
  readonly tokens: TokenStore;
  readonly limits: SimLimits;
  readonly faults: Faults;
  /** Faults injected so far, by kind. */
  readonly injected: FaultCounts;
  readonly settings: SimSettings;
  readonly log: Logger;
  /** Secret for the signed `auth` cookie and the getGradedSince cursor. */
  readonly secret: Buffer;
  /** Hooks for parts that register later (sockets, market); called on admin and lifecycle changes. */
  readonly hooks: SimHooks;
}

export interface SimHooks {
  /** Called when the clock was moved by /admin/clock (manual mode): run due work. */
  readonly onClockAdvanced: (() => void)[];
  /** Called by close(), last registered first. */
  readonly onClose: (() => void | Promise<void>)[];
  /** Called when faults change. */
  readonly onFaultsChanged: ((faults: Faults) => void)[];
}

export interface ContextOptions {
  readonly time: TimeSource;
  readonly seed: number;
  readonly log: Logger;
  readonly settings?: Partial<SimSettings>;
}

/** Retention defaults of the simulator's memory (market time); see SimSettings. */
export const SIM_RETENTION_DEFAULTS = {
  userFeedRetentionMs: 10 * 60_000,
  userFeedRetentionCount: 50_000,
  closedOrderRetentionMs: 15 * 60_000,
  closedOrderRetentionCount: 10_000,
  settledGameRetentionMs: 6 * 3_600_000,
  settledGameRetentionCount: 50,
} as const;

export function createContext(options: ContextOptions): SimContext {
  const { time, seed } = options;
  const settings: SimSettings = {
    requestTimeoutMs: 15_000,
    maxBatch: 200,
    admin: false,
    ...SIM_RETENTION_DEFAULTS,
    ...DEFAULT_LIMITS,
    ...options.settings,
  };
  const limiter = (r: { readonly limit: number; readonly windowMs: number }) =>
    new RollingWindowLimiter(r.limit, r.windowMs, time.clock);
  const ids = createIdGenerator(seed);
  // A long sped-up run must keep neither every requote the synthetic makers ever made nor
  // every game it ever settled.
  const engine = new MatchingEngine({
    clock: time.clock,
    ids,
    closedOrderRetentionMs: settings.closedOrderRetentionMs,
    closedOrderRetentionCount: settings.closedOrderRetentionCount,
    settledGameRetentionMs: settings.settledGameRetentionMs,
    settledGameRetentionCount: settings.settledGameRetentionCount,
    onListenerError: (error, event) =>
      options.log.error({ err: error, event: event.kind }, 'engine event listener failed'),
  });
  return {
    engine,
    pump: new EnginePump(engine, time.clock, time.scheduler),
    time,
    ids,
    random: createRandom(seed),
    accounts: new SimAccounts(ids),
    tokens: new TokenStore(time.clock),
    limits: {
      global: limiter(settings.ipRate),
      login: limiter(settings.loginRate),
      perUser: new Map([
        ['gradedSince', limiter(settings.gradedSinceRate)],
        ['graded', limiter(settings.gradedRate)],
      ]),
    },
    faults: { ...NO_FAULTS },
    injected: noFaultCounts(),
    settings,
    log: options.log,
    secret: randomBytes(32),
    hooks: { onClockAdvanced: [], onClose: [], onFaultsChanged: [] },
  };
}
