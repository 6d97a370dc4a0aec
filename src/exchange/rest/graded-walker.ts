import type { Logger } from 'pino';
import { Observable, type SchedulerLike } from 'rxjs';
import { HttpStatusError, RateLimitedError } from '../errors.ts';
import { LinesmithError } from '../../shared/errors.ts';
import type { GradedRow, GradedSinceResponse } from '../schemas/bets.ts';

/** One getGradedSince call: `since` on the first, the latest cursor verbatim after. */
export type GradedSinceFetch = (
  params: { since?: string; cursor?: string },
  signal?: AbortSignal,
) => Promise<GradedSinceResponse>;

export interface GradedPage {
  /** Rows new to this walker, or newer versions (refund, regrade) of rows it gave before. */
  readonly rows: readonly GradedRow[];
  /** Persist this: resuming with it as `resumeFrom` never misses a bet (exchange-api §4.15 rule 6). */
  readonly settledThrough: string;
  readonly cursor: string;
  readonly hasMore: boolean;
  /** Rows the server sent that were repeats of what this walker already gave. */
  readonly duplicates: number;
}

export interface GradedWalkerOptions {
  /** First call's `since` (ISO 8601); omitted means the whole history. */
  readonly since?: string;
  /** A persisted `settledThrough`: resume from there (repeats of its last group are dropped). */
  readonly resumeFrom?: string;
  /** Keep polling when caught up (default true); false stops at the first page without more. */
  readonly follow?: boolean;
  /** Polling interval once caught up; the contract's recommended rate is once per second. */
  readonly pollMs?: number;
  /** Wait after a failed call before trying again (following walks only). */
  readonly errorDelayMs?: number;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
}

/** A settled promise: a callback on it runs one microtask turn later. */
const SETTLED = Promise.resolve();

/** What a page with no rows carries: one shared empty list. */
const NO_ROWS: readonly GradedRow[] = Object.freeze([]);

const versionOf = (r: GradedRow) =>
  `${r.settledAt ?? ''}|${r.outcome ?? ''}|${r.result ?? ''}|${r.fee}|${r.adminRefund ?? ''}`;
const msOf = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

/**
 * Walks getGradedSince by rules 1–7 of exchange-api §4.15: the cursor sent back verbatim,
 * `hasMore` followed at once, polling once a second when caught up, rows deduplicated by
 * txID with the latest version winning, `settledThrough` kept for a restart. A 429 is
 * waited out by the REST caller, which resends the same cursor; a cursor the server no
 * longer accepts (400, e.g. after its restart) falls back to `since = settledThrough`.
 */
export class GradedWalker {
  readonly #fetch: GradedSinceFetch;
  readonly #o: GradedWalkerOptions;
  /** `follow` with its default: the same for every walk of this walker. */
  readonly #follow: boolean;
  /** txID → version last given, for rows that can still repeat (settled at or after settledThrough). */
  readonly #seen = new Map<string, { version: string; settledMs: number }>();
  #cursor: string | null = null;
  /** The last call's params by cursor: a caught-up walk sends the same cursor poll after poll. */
  #cursorParams: { readonly cursor: string } | null = null;
  #settledThrough: string | null;
  readonly stats = { pages: 0, rows: 0, duplicates: 0, regrades: 0, cursorResets: 0, errors: 0 };

  constructor(fetch: GradedSinceFetch, options: GradedWalkerOptions) {
    this.#fetch = fetch;
    this.#o = options;
    this.#follow = options.follow ?? true;
    this.#settledThrough = options.resumeFrom ?? null;
  }

  get settledThrough(): string | null {
    return this.#settledThrough;
  }

  /**
   * The walk, a callback per page: what `gradedPages$` runs. Resolves once the walk is over
   * (aborted, or caught up and not following); rejects with what `onPage` throws, or with a
   * failed call when not following.
   *
   * Written as steps chained on promises rather than as nested async functions: a walk
   * polls once a second through hours of a backtest, and the async frames, their promises
   * and their resumptions made most of what each poll allocated. The steps keep the
   * microtask turns of the nested functions they replace (a page handed over three turns
   * after its call's answer, the next poll's wait started in that same turn), so a
   * deterministic replay interleaves the walk with everything else exactly as before.
   */
  walk(onPage: (page: GradedPage) => void, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const scheduler = this.#o.scheduler;
      const pollMs = this.#o.pollMs ?? 1_000;
      /** The signal's state, kept by its listener: read on every call, where the getter costs more than the rest of a caught-up poll. */
      let aborted = signal?.aborted ?? false;
      /** The step the pending wait wakes, and its timer (null: no wait pending). */
      let waking: (() => void) | null = null;
      let timer: { unsubscribe(): void } | null = null;
      /**
       * Run `step` one microtask turn after `ms` on the scheduler, or after an abort: the turn
       * a promise resolved by the timer would run it in, without the promise.
       */
      const wait = (ms: number, step: () => void): void => {
        if (aborted) {
          void SETTLED.then(step);
          return;
        }
        waking = step;
        timer = scheduler.schedule(wake, Math.max(0, ms));
      };
      const wake = (): void => {
        timer?.unsubscribe();
        timer = null;
        const step = waking;
        waking = null;
        if (step !== null) void SETTLED.then(step);
      };
      const onAbort = (): void => {
        aborted = true;
        wake();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      /** Caught up and following: wait the poll interval, then call. */
      const poll = (): void => wait(pollMs, call);
      /** The last page had no more: the next call waits the poll interval first. */
      let caughtUp = false;
      /** The page between its answer and its hand-over. */
      let page: GradedPage | null = null;
      /** Resolve, or reject with `err`, `turns` microtask turns from now. */
      const end = (turns: number, err?: { readonly cause: unknown }): void => {
        if (turns > 0) {
          void SETTLED.then(() => end(turns - 1, err));
          return;
        }
        signal?.removeEventListener('abort', onAbort);
        wake();
        if (err) reject(err.cause);
        else resolve();
      };
      /** The top of the walk's loop: wait when caught up, then call. */
      const next = (): void => {
        if (!caughtUp) call();
        else if (!this.#follow) end(1);
        else poll();
      };
      const call = (): void => {
        if (aborted) {
          end(1);
          return;
        }
        let answer: Promise<GradedSinceResponse>;
        try {
          answer = Promise.resolve(this.#fetch(this.#params(), signal));
        } catch (err) {
          failed(err);
          return;
        }
        void answer.then(answered, failed);
      };
      const answered = (res: GradedSinceResponse): void => {
        try {
          page = this.#accept(res);
        } catch (err) {
          end(2, { cause: err });
          return;
        }
        caughtUp = !page.hasMore;
        void SETTLED.then(pass);
      };
      const pass = (): void => void SETTLED.then(handOver);
      const handOver = (): void => {
        const p = page!;
        page = null;
        try {
          onPage(p);
        } catch (err) {
          end(0, { cause: err });
          return;
        }
        next();
      };
      /** Call again: after a cursor reset, or after a failure waited out. */
      const callAgain = (): void => {
        caughtUp = false;
        next();
      };
      /** Call again two turns from now. */
      const again = (): void => void SETTLED.then(callAgain);
      const failed = (err: unknown): void => {
        try {
          const outcome = this.#failure(err, signal);
          if (outcome === 'stop') end(2);
          else if (outcome === 'again') again();
          else if (outcome === 'throw') end(2, { cause: err });
          else wait(outcome, again);
        } catch (thrown) {
          end(2, { cause: thrown });
        }
      };
      next();
    });
  }

  /**
   * What a failed call leads to: 'stop' once aborted; 'again' at once after a cursor reset;
   * 'throw' when not following; else the wait before trying again.
   */
  #failure(err: unknown, signal: AbortSignal | undefined): 'stop' | 'again' | 'throw' | number {
    if (signal?.aborted) return 'stop';
    if (err instanceof HttpStatusError && err.status === 400 && this.#cursor !== null) {
      this.stats.cursorResets++;
      this.#o.logger.warn(
        { settledThrough: this.#settledThrough },
        'getGradedSince refused the cursor; resuming from settledThrough',
      );
      this.#cursor = null;
      return 'again';
    }
    if (!this.#follow) return 'throw';
    this.stats.errors++;
    const wait = err instanceof RateLimitedError ? err.retryAfterMs : (this.#o.errorDelayMs ?? 5_000);
    this.#o.logger.warn(
      { error: err instanceof LinesmithError ? err.code : String(err), waitMs: wait },
      'graded walk: call failed; trying again',
    );
    return wait;
  }

  #params(): { since?: string; cursor?: string } {
    if (this.#cursor !== null) {
      if (this.#cursorParams?.cursor !== this.#cursor) this.#cursorParams = Object.freeze({ cursor: this.#cursor });
      return this.#cursorParams;
    }
    const since = this.#settledThrough ?? this.#o.since;
    return since !== undefined ? { since } : {};
  }

  #accept(res: GradedSinceResponse): GradedPage {
    this.stats.pages++;
    const rows = res.graded.length === 0 ? NO_ROWS : this.#fresh(res.graded);
    const duplicates = res.graded.length - rows.length;
    this.#cursor = res.cursor;
    this.#settledThrough = res.settledThrough;
    // Only rows settled after settledThrough can come back as repeats; a newer version of
    // an older row is a different version anyway.
    if (this.#seen.size > 0) {
      const horizon = msOf(res.settledThrough);
      if (Number.isFinite(horizon)) for (const [tx, v] of this.#seen) if (v.settledMs < horizon) this.#seen.delete(tx);
    }
    this.stats.rows += rows.length;
    this.stats.duplicates += duplicates;
    return { rows, settledThrough: res.settledThrough, cursor: res.cursor, hasMore: res.hasMore, duplicates };
  }

  /** The rows new to this walker, or newer versions of rows it gave before; remembered as given. */
  #fresh(graded: readonly GradedRow[]): GradedRow[] {
    const rows: GradedRow[] = [];
    for (const r of graded) {
      const version = versionOf(r);
      const prev = this.#seen.get(r.txID);
      if (prev && prev.version === version) continue;
      if (prev) this.stats.regrades++;
      this.#seen.set(r.txID, { version, settledMs: msOf(r.settledAt) });
      rows.push(r);
    }
    return rows;
  }
}

/** The walk as an observable of pages; unsubscribing stops it. */
export function gradedPages$(walker: GradedWalker): Observable<GradedPage> {
  return new Observable<GradedPage>((sub) => {
    const ac = new AbortController();
    walker
      .walk((page) => sub.next(page), ac.signal)
      .then(
        () => sub.complete(),
        (err: unknown) => sub.error(err),
      );
    return () => ac.abort();
  });
}
