import type { BackoffOptions } from '../../shared/backoff.ts';

/** How the REST caller retries calls that are safe to retry. */
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
 * The shared backoff with half of each delay random ("equal jitter"): a crowd of clients
 * spreads out, but none retries at once. No reset: one call's retries are one sequence.
 */
export function restBackoff(policy: BackoffPolicy): Required<BackoffOptions> {
  return { baseMs: policy.baseMs, maxMs: policy.maxMs, jitter: 0.5, resetAfterMs: Infinity };
}
