import type { Random } from '../../shared/random.ts';

export interface BackoffPolicy {
  /** First delay, ms. */
  readonly baseMs: number;
  /** Cap on any delay, ms. */
  readonly maxMs: number;
  /** Attempts in all, including the first. */
  readonly maxAttempts: number;
}

export const DEFAULT_READ_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 8_000, maxAttempts: 5 };

/**
 * Delay before retry number `retry` (1 for the first retry): capped exponential with "equal
 * jitter", so a crowd of clients spreads out but none retries at once.
 */
export function backoffDelay(policy: Pick<BackoffPolicy, 'baseMs' | 'maxMs'>, retry: number, random: Pick<Random, 'float'>): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  return cap / 2 + random.float() * (cap / 2);
}
