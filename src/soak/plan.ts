import type { RiskLimits } from '../orders/risk-gate.ts';

/** The faults the soak keeps on for the whole middle of the run (POST /admin/faults). */
export interface SoakFaults {
  /** Every socket dropped this often, in wall ms (scaled to exchange time). */
  readonly dropSocketsEveryWallMs: number;
  /** REST calls answered 503, half at once and half after the server timeout with the work done. */
  readonly restErrorRate: number;
  /** REST calls done but never answered: the client's deadline ends them. */
  readonly restHangRate: number;
  /** Added latency per REST call, wall ms. */
  readonly restLatencyMs: number;
  readonly malformedFeedRate: number;
  /** A burst of this many 429s (Retry-After 1 s) … */
  readonly rateLimitBurst: number;
  /** … this often, wall ms. */
  readonly burstEveryWallMs: number;
}

export interface SoakOptions {
  /** Wall time of the whole run, ms. */
  readonly wallMs: number;
  /** Exchange time runs this many times faster than wall time (default 60). */
  readonly speed?: number;
  /** Seed of the synthetic market (default 7). */
  readonly seed?: number;
  readonly faults?: Partial<SoakFaults>;
  readonly limits?: Partial<RiskLimits>;
  /** Heartbeat timeout of the bots, exchange seconds (default DEFAULT_HEARTBEAT_SECONDS). */
  readonly heartbeatSeconds?: number;
  /** The restarted bot cancels the orders it finds instead of adopting them (default false: adopt). */
  readonly cancelUnknownOrdersAtStart?: boolean;
  /** The bot's REST deadline per request, wall ms (default 2 000). */
  readonly restTimeoutMs?: number;
  /** A bot broken on purpose, to show the invariants catch it (tests only). */
  readonly sabotage?: Sabotage;
}

/** Ways to break the bots on purpose; the invariants must then fail. */
export interface Sabotage {
  /** The bots' risk gate runs without the per-game and total caps (the invariants still hold them to the configured ones). */
  readonly riskCapsOff?: boolean;
  /** The bots never send a heartbeat: the exchange's switch is never armed. */
  readonly noHeartbeat?: boolean;
}

/**
 * The bots' dead man's switch, exchange seconds: 4 s of wall time at 60x, so a restarted bot
 * reads the crashed one's orders before the exchange cancels them (its start-up makes a few
 * REST calls through the faults, one of which may wait out the 2 s client deadline).
 */
export const DEFAULT_HEARTBEAT_SECONDS = 240;

/**
 * Every socket drop halts the bot, which pulls all its quotes until the feeds are back. The
 * drop period is well apart from the heartbeat timeout: the soak starts the lapse just after
 * a drop, so the switch fires (one timeout after the bot's last heartbeat, which it sends
 * every third of the timeout while quoting) between 160 s and 270 s into the drop cycle, with
 * the bot quoting again and the next drop (at 360 s) still ahead. With the two equal, the
 * switch fired right after a drop and found nothing to cancel.
 */
export const DEFAULT_FAULTS: SoakFaults = {
  dropSocketsEveryWallMs: 6_000,
  restErrorRate: 0.05,
  restHangRate: 0.005,
  restLatencyMs: 15,
  malformedFeedRate: 0.01,
  rateLimitBurst: 8,
  burstEveryWallMs: 7_000,
};

// A game cap the strategies reach, so the risk gate (not only their own budgets) is what holds it.
export const DEFAULT_LIMITS: RiskLimits = {
  maxGameLiability: 150,
  maxTotalLiability: 3_000,
  maxOrderSize: 100,
  maxOrdersPerGame: 40,
};

/**
 * When each thing happens, in exchange ms from the first bot's start. Fractions of the
 * run, so a short CI soak and a long one go through the same story: warm up quiet, every
 * fault on, a token rotation, a heartbeat lapse, a crash and restart, a quiet tail, stop.
 */
export interface SoakTimeline {
  readonly speed: number;
  readonly totalMs: number;
  readonly faultsOnAt: number;
  readonly tokenExpiryAt: number;
  readonly lapseAt: number;
  readonly lapseForMs: number;
  readonly restartAt: number;
  readonly faultsOffAt: number;
}

export function timelineOf(o: SoakOptions): SoakTimeline {
  const speed = o.speed ?? 60;
  const total = o.wallMs * speed;
  const heartbeatMs = (o.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS) * 1000;
  return {
    speed,
    totalMs: total,
    faultsOnAt: Math.round(total * 0.08),
    tokenExpiryAt: Math.round(total * 0.25),
    lapseAt: Math.round(total * 0.35),
    // Longer than the heartbeat timeout: the exchange's switch must fire.
    lapseForMs: Math.round(heartbeatMs * 1.5),
    restartAt: Math.round(total * 0.55),
    faultsOffAt: Math.round(total * 0.9),
  };
}
