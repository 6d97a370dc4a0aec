/** How a socket waits between connection attempts. */
export interface BackoffOptions {
  /** Delay before the first retry, ms. */
  readonly baseMs?: number;
  /** Cap on any delay, ms. */
  readonly maxMs?: number;
  /**
   * Fraction of each delay that is random (0 = none, 1 = anywhere in [0, delay]). Many
   * clients dropped by one server restart must not all come back in the same instant.
   */
  readonly jitter?: number;
  /**
   * A connection that stayed open this long counts as healthy: the next failure starts
   * again from `baseMs`. Short enough that a server dropping sockets every few seconds
   * does not push the delays to the cap while every connection actually worked.
   */
  readonly resetAfterMs?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = {
  baseMs: 500,
  maxMs: 30_000,
  jitter: 0.5,
  resetAfterMs: 5_000,
};

export function resolveBackoff(options: BackoffOptions | undefined): Required<BackoffOptions> {
  const b = { ...DEFAULT_BACKOFF, ...options };
  if (!(b.baseMs >= 0) || !(b.maxMs >= b.baseMs))
    throw new RangeError(`backoff needs 0 ≤ baseMs ≤ maxMs, got ${b.baseMs} and ${b.maxMs}`);
  if (!(b.jitter >= 0 && b.jitter <= 1)) throw new RangeError(`backoff jitter must be in [0, 1], got ${b.jitter}`);
  return b;
}

/**
 * Delay before retry number `failures` (1 for the first retry after a failure): capped
 * exponential, the random part taken off the top so the cap is never exceeded.
 */
export function backoffDelay(failures: number, options: Required<BackoffOptions>, random: () => number): number {
  const exponent = Math.max(0, failures - 1);
  const capped = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(exponent, 52));
  return Math.round(capped * (1 - options.jitter * random()));
}
