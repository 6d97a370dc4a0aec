import { z } from 'zod';
import { DurationError, parseDuration } from '../shared/duration.ts';

/** At most `limit` events in any rolling `windowMs`. */
export interface RateSetting {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The simulator's limits: the contract's rate limits (exchange-api §8), the login throttle
 * it names without numbers, and the caps on sockets a client may hold. Each one is a
 * `linesmith sim` flag and a scenario `limits` key of the same name; the defaults are below.
 */
export interface SimLimitSettings {
  /** Every request and every WebSocket handshake, per client IP (contract: 3000 per rolling 60 s). */
  readonly ipRate: RateSetting;
  /** Logins per client IP. */
  readonly loginRate: RateSetting;
  /** getGraded and getGradedWagers per user (contract: 60 per minute). */
  readonly gradedRate: RateSetting;
  /** getGradedSince per user (contract: 10 per 5 s). */
  readonly gradedSinceRate: RateSetting;
  /** Open WebSocket connections per client IP, every path together; the next handshake is a 429. */
  readonly maxConnectionsPerIp: number;
  /** Open WebSocket connections per account, every path together; the next handshake is a 429. */
  readonly maxConnectionsPerAccount: number;
  /** Game, league and sport ids one price-feed connection may hold subscribed, together. */
  readonly maxSubscriptionsPerConnection: number;
}

export const DEFAULT_LIMITS: SimLimitSettings = {
  ipRate: { limit: 3000, windowMs: 60_000 },
  loginRate: { limit: 30, windowMs: 60_000 },
  gradedRate: { limit: 60, windowMs: 60_000 },
  gradedSinceRate: { limit: 10, windowMs: 5_000 },
  maxConnectionsPerIp: 256,
  maxConnectionsPerAccount: 64,
  maxSubscriptionsPerConnection: 10_000,
};

export type LimitName = keyof SimLimitSettings;
export const RATE_LIMITS = [
  'ipRate',
  'loginRate',
  'gradedRate',
  'gradedSinceRate',
] as const satisfies readonly LimitName[];
export const COUNT_LIMITS = [
  'maxConnectionsPerIp',
  'maxConnectionsPerAccount',
  'maxSubscriptionsPerConnection',
] as const satisfies readonly LimitName[];

const MAX_COUNT = 1_000_000_000;
const MAX_WINDOW_MS = 86_400_000;

/** `COUNT/DURATION` (`30/1m`, `3000/60s`): a whole count from 1 and a window from 1 ms to a day; otherwise the reason it is not one. */
export function parseRate(text: string): RateSetting | string {
  const m = /^\s*(\d+)\s*\/\s*(.+)$/.exec(text);
  if (!m) return `expected COUNT/DURATION such as 30/1m or 3000/60s, got "${text}"`;
  const limit = Number(m[1]);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_COUNT)
    return `the count must be a whole number from 1 to ${MAX_COUNT}, got "${m[1]}"`;
  let windowMs: number;
  try {
    windowMs = parseDuration(m[2]!);
  } catch (e) {
    if (e instanceof DurationError) return e.message;
    throw e;
  }
  if (windowMs < 1 || windowMs > MAX_WINDOW_MS) return `the window must be from 1ms to 1d, got "${m[2]!.trim()}"`;
  return { limit, windowMs };
}

/** A whole count from 1; otherwise the reason it is not one. */
export function parseCount(text: string): number | string {
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_COUNT
    ? n
    : `expected a whole number from 1 to ${MAX_COUNT}, got "${text}"`;
}

/** `30/1m`, or its parsed form `{limit, windowMs}` (so a parsed scenario validates again). */
const rate = z.unknown().transform((v, ctx): RateSetting => {
  const r =
    typeof v === 'string' ? parseRate(v) : isRateSetting(v) ? v : 'expected COUNT/DURATION such as 30/1m or 3000/60s';
  if (typeof r === 'string') {
    ctx.addIssue({ code: 'custom', message: r });
    return z.NEVER;
  }
  return { limit: r.limit, windowMs: r.windowMs };
});

function isRateSetting(v: unknown): v is RateSetting {
  if (v === null || typeof v !== 'object') return false;
  const { limit, windowMs } = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(limit) &&
    (limit as number) >= 1 &&
    (limit as number) <= MAX_COUNT &&
    Number.isSafeInteger(windowMs) &&
    (windowMs as number) >= 1 &&
    (windowMs as number) <= MAX_WINDOW_MS
  );
}
const count = z.int().min(1).max(MAX_COUNT);

/** The scenario's `limits` section: any of the limits, by name; the rest keep their defaults. */
export const limitsSchema = z.strictObject({
  ipRate: rate.optional(),
  loginRate: rate.optional(),
  gradedRate: rate.optional(),
  gradedSinceRate: rate.optional(),
  maxConnectionsPerIp: count.optional(),
  maxConnectionsPerAccount: count.optional(),
  maxSubscriptionsPerConnection: count.optional(),
});

export type LimitsInput = z.output<typeof limitsSchema>;

/** Only the limits given (a scenario's or the command line's), for layering over the defaults. */
export function givenLimits(input: LimitsInput | undefined): Partial<SimLimitSettings> {
  const out: Partial<Record<LimitName, unknown>> = {};
  if (input) for (const [k, v] of Object.entries(input)) if (v !== undefined) out[k as LimitName] = v;
  return out as Partial<SimLimitSettings>;
}
