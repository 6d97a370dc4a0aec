import { z } from 'zod';
import type { LimitKey } from './request-budget.ts';

/**
 * One REST endpoint as the contract describes it: how it authenticates (exchange-api §5.3:
 * Bearer, or the raw token on the graded endpoints), whether it may be retried after a
 * failure that leaves the outcome unknown, which per-user limit it counts against, and the
 * shape of its answer.
 */
export interface Endpoint<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly auth: 'bearer' | 'raw' | 'none';
  /**
   * `safe`: 503, timeouts and network errors are retried with backoff (idempotent reads).
   * `never`: a write; its caller establishes the outcome instead (place: lookup by
   * userReference; cancel: an `outcomeUnknown` entry the order manager resolves from the
   * user feed or by cancelling again).
   */
  readonly retry: 'safe' | 'never';
  readonly limit: LimitKey | null;
  /**
   * `fail`: a 429 is not waited out and the request is never sent again; the caller gets
   * RateLimitedError at once. For place: an order is priced for the moment it was decided,
   * and a resend after Retry-After (up to max429Waits × maxRetryAfterMs later) would reach
   * the book whatever happened meanwhile (a kill, a stop, the price moving). Default: wait.
   */
  readonly on429?: 'fail';
  /**
   * `urgent` (cancels): admitted before anything waiting in the request budget and allowed
   * into the headroom it keeps back, so pulling quotes never queues behind places or reads.
   */
  readonly priority?: 'urgent';
  /**
   * The longest the request may wait for the request budget (or a server pause) before it
   * is sent; past it the call fails with RateLimitedError, not sent. For place, whose price
   * was decided for the moment it was decided: the order manager decides afresh instead.
   */
  readonly maxQueueMs?: number;
  /** `data`: the answer is `{data: …}`; `top`: at the top level (exchange-api §1.2). */
  readonly envelope: 'data' | 'top';
  readonly schema: S;
}

/** Compile the schema for zod's fast path; a schema zod cannot compile keeps the standard parser. */
export function endpoint<S extends z.ZodType>(def: Endpoint<S>): Endpoint<S> {
  let schema: S = def.schema;
  try {
    schema = z.compile(def.schema) as unknown as S;
  } catch {
    // ZodCompileUnsupportedError: the interpreted parser gives the same results.
  }
  return { ...def, schema };
}
