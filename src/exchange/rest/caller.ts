import type { Logger } from 'pino';
import type { SchedulerLike } from 'rxjs';
import type { z } from 'zod';
import type { Clock } from '../../shared/clock.ts';
import type { Random } from '../../shared/random.ts';
import { sleep } from '../../shared/sleep.ts';
import type { AuthSession } from '../auth/session.ts';
import {
  AuthenticationError,
  HttpStatusError,
  RateLimitedError,
  RequestAbortedError,
  ServiceUnavailableError,
} from '../errors.ts';
import { LinesmithError } from '../../shared/errors.ts';
import { headerValue, type HttpTransport } from '../http/transport.ts';
import { backoffDelay } from '../../shared/backoff.ts';
import { restBackoff, type BackoffPolicy } from './backoff.ts';
import { decodeBody, errorTypeOf, serverMessageOf } from './decode.ts';
import type { Endpoint } from './endpoint.ts';
import type { RequestBudget } from './request-budget.ts';
import { retryAfterMs } from './retry-after.ts';

export interface CallParams {
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  /**
   * Withdraws the call while it waits (request budget, token, backoff): it then fails with
   * RequestAbortedError and is not sent. Looked at last just before the request leaves;
   * never once it has left (that outcome would be unknown instead of "not sent").
   */
  readonly signal?: AbortSignal;
}

export interface CallerPolicy {
  readonly backoff: BackoffPolicy;
  /** How many 429s in a row one call waits out before giving up. */
  readonly max429Waits: number;
  /** A Retry-After longer than this is not waited out: the call fails with RateLimitedError. */
  readonly maxRetryAfterMs: number;
}

export interface CallerDeps {
  readonly transport: HttpTransport;
  readonly session: AuthSession;
  readonly budget: RequestBudget;
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  readonly random: Random;
  readonly logger: Logger;
  readonly policy: CallerPolicy;
}

export interface CallStats {
  calls: number;
  retries: number;
  rateLimited: number;
  relogins: number;
  failures: number;
}

function queryString(q: CallParams['query']): string {
  if (!q) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * Sends one endpoint call through the whole policy: request budget, auth header, token
 * rotation, one re-login on 401, Retry-After on 429 (except where the endpoint says a 429
 * fails at once), backoff on 503 and network errors for endpoints safe to retry, typed
 * decoding. Everything else is a typed error.
 */
export class RestCaller {
  readonly #d: CallerDeps;
  readonly stats: CallStats = { calls: 0, retries: 0, rateLimited: 0, relogins: 0, failures: 0 };

  constructor(deps: CallerDeps) {
    this.#d = deps;
  }

  async call<S extends z.ZodType>(ep: Endpoint<S>, params: CallParams = {}): Promise<z.output<S>> {
    const d = this.#d;
    const path = ep.path + queryString(params.query);
    const body = params.body === undefined ? undefined : JSON.stringify(params.body);
    let relogged = false;
    let failures = 0;
    let waits429 = 0;
    this.stats.calls++;
    const queuedSince = d.clock.now();
    for (;;) {
      await this.#admitted(ep, params.signal);
      const token = ep.auth === 'none' ? null : await d.session.token();
      // The last look: the budget or a login may have held the call a long time, and
      // whatever happened meanwhile (a kill, a stop) decides whether it still goes.
      if (params.signal?.aborted) throw new RequestAbortedError(ep.name, params.signal.reason);
      // A login is not bounded by the budget's wait: a call that must not go out late is
      // held to its limit over both (a place priced for the moment it was decided).
      if (ep.maxQueueMs !== undefined && d.clock.now() - queuedSince > ep.maxQueueMs)
        throw this.#heldTooLong(ep, ep.maxQueueMs);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token !== null) headers.authorization = ep.auth === 'raw' ? token : `Bearer ${token}`;
      const started = d.clock.now();
      let res;
      try {
        res = await d.transport.request({
          method: ep.method,
          path,
          headers,
          ...(body !== undefined ? { body } : {}),
          label: ep.name,
        });
      } catch (err) {
        if (ep.retry === 'safe' && ++failures < d.policy.backoff.maxAttempts) {
          await this.#unlessAborted(ep, params.signal, this.#backoff(ep, failures, err, params.signal));
          continue;
        }
        this.stats.failures++;
        throw err;
      }
      const rotated = headerValue(res.headers, 'x-auth-token');
      if (rotated && token !== null) d.session.rotated(rotated);
      d.logger.debug({ endpoint: ep.name, status: res.status, ms: d.clock.now() - started }, 'rest call');

      if (res.status >= 200 && res.status < 300) return decodeBody(ep, res.text);
      if (res.status === 401 && token !== null) {
        if (!relogged) {
          relogged = true;
          this.stats.relogins++;
          d.logger.warn({ endpoint: ep.name }, '401: logging in again once');
          await d.session.refresh(token);
          continue;
        }
        this.stats.failures++;
        throw new AuthenticationError(
          `${ep.name}: the exchange refused a fresh token too (401 after re-login); check the account`,
        );
      }
      if (res.status === 429) {
        this.stats.rateLimited++;
        const wait = retryAfterMs(headerValue(res.headers, 'retry-after'), d.clock.now());
        // The graded endpoints have per-user limits of their own; anything else hit the per-IP one.
        // Never paused beyond what the client is willing to wait: an absurd Retry-After (a
        // date decades ahead, a number past a double) would otherwise stall every later call.
        d.budget.pause(ep.limit ?? 'global', Math.min(wait, d.policy.maxRetryAfterMs));
        if (ep.on429 === 'fail') {
          d.logger.warn({ endpoint: ep.name, retryAfterMs: wait }, '429: not sent again; the caller decides afresh');
        } else if (++waits429 <= d.policy.max429Waits && wait <= d.policy.maxRetryAfterMs) {
          d.logger.warn({ endpoint: ep.name, retryAfterMs: wait }, '429: waiting Retry-After, then sending again');
          continue;
        }
        this.stats.failures++;
        throw new RateLimitedError(ep.name, wait);
      }
      if (res.status >= 500) {
        if (ep.retry === 'safe' && ++failures < d.policy.backoff.maxAttempts) {
          await this.#unlessAborted(
            ep,
            params.signal,
            this.#backoff(ep, failures, new ServiceUnavailableError(ep.name, res.status), params.signal),
          );
          continue;
        }
        this.stats.failures++;
        throw new ServiceUnavailableError(ep.name, res.status);
      }
      this.stats.failures++;
      throw new HttpStatusError(ep.name, res.status, serverMessageOf(res.text), errorTypeOf(res.text));
    }
  }

  /**
   * A slot in the request budget. An endpoint with `maxQueueMs` gives up waiting after it,
   * unsent, as RateLimitedError (the budget is this process's share of the exchange's limit).
   */
  async #admitted(ep: Endpoint, signal: AbortSignal | undefined): Promise<void> {
    const d = this.#d;
    if (ep.maxQueueMs === undefined)
      return this.#unlessAborted(ep, signal, d.budget.acquire(ep.limit, signal, ep.priority ?? 'normal'));
    const waited = new AbortController();
    const onAbort = () => waited.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = d.scheduler.schedule(() => {
      timedOut = true;
      waited.abort('queued too long');
    }, ep.maxQueueMs);
    try {
      await d.budget.acquire(ep.limit, waited.signal, ep.priority ?? 'normal');
    } catch (err) {
      if (signal?.aborted) throw new RequestAbortedError(ep.name, signal.reason);
      if (timedOut) throw this.#heldTooLong(ep, ep.maxQueueMs);
      throw err;
    } finally {
      timer.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** A call held past its `maxQueueMs` (budget, login): counted, logged, and failed unsent. */
  #heldTooLong(ep: Endpoint, maxQueueMs: number): RateLimitedError {
    this.stats.failures++;
    this.#d.logger.warn(
      { endpoint: ep.name, maxQueueMs },
      'held too long before it could go: not sent; the caller decides afresh',
    );
    return new RateLimitedError(ep.name, maxQueueMs, 'budget');
  }

  /** A wait the signal ended fails as RequestAbortedError, one typed error for every way a call is withdrawn. */
  async #unlessAborted(ep: Endpoint, signal: AbortSignal | undefined, wait: Promise<void>): Promise<void> {
    try {
      await wait;
    } catch (err) {
      if (signal?.aborted) throw new RequestAbortedError(ep.name, signal.reason);
      throw err;
    }
  }

  async #backoff(ep: Endpoint, failures: number, err: unknown, signal: AbortSignal | undefined): Promise<void> {
    this.stats.retries++;
    const delay = backoffDelay(failures, restBackoff(this.#d.policy.backoff), () => this.#d.random.float());
    this.#d.logger.warn(
      {
        endpoint: ep.name,
        attempt: failures,
        delayMs: Math.round(delay),
        error: err instanceof LinesmithError ? err.code : String(err),
      },
      'retrying after failure',
    );
    await sleep(delay, this.#d.scheduler, signal);
  }
}
