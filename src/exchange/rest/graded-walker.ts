import type { Logger } from 'pino';
import { Observable, type SchedulerLike } from 'rxjs';
import { napper, type Napper } from '../../shared/sleep.ts';
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

/** One walk in progress: what its loop carries from one page to the next. */
interface WalkState {
  readonly pause: Napper;
  readonly signal: AbortSignal | undefined;
  /** The last page had no more: the next call waits the poll interval first. */
  caughtUp: boolean;
}

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
   * The walk, a callback per page: what `gradedPages$` runs. A callback rather than an
   * async generator: a generator adds promise hops per page, which a walk polling once a
   * second through an hours-long backtest pays thousands of times. Resolves once the walk
   * is over (aborted, or caught up and not following).
   */
  async walk(onPage: (page: GradedPage) => void, signal?: AbortSignal): Promise<void> {
    const walk: WalkState = { pause: napper(this.#o.scheduler, signal), signal, caughtUp: false };
    try {
      for (let page = await this.#next(walk); page !== null; page = await this.#next(walk)) onPage(page);
    } finally {
      walk.pause.dispose();
    }
  }

  /**
   * The walk's next page: after the poll interval when the last page was caught up; null
   * once it is over (aborted, or caught up and not following).
   */
  async #next(w: WalkState): Promise<GradedPage | null> {
    for (;;) {
      if (w.caughtUp) {
        if (!this.#follow) return null;
        await w.pause.nap(this.#o.pollMs ?? 1_000);
      }
      if (w.signal?.aborted) return null;
      const page = await this.#call(w);
      if (page === 'stop') return null;
      w.caughtUp = page !== 'again' && !page.hasMore;
      // 'again': a failure waited out, or a cursor reset: call again at once.
      if (page !== 'again') return page;
    }
  }

  /** One call: its page; 'again' after a failure waited out or a cursor reset; 'stop' once aborted. */
  async #call({ pause, signal }: WalkState): Promise<GradedPage | 'again' | 'stop'> {
    let res: GradedSinceResponse;
    try {
      res = await this.#fetch(this.#params(), signal);
    } catch (err) {
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
      if (!this.#follow) throw err;
      this.stats.errors++;
      const wait = err instanceof RateLimitedError ? err.retryAfterMs : (this.#o.errorDelayMs ?? 5_000);
      this.#o.logger.warn(
        { error: err instanceof LinesmithError ? err.code : String(err), waitMs: wait },
        'graded walk: call failed; trying again',
      );
      await pause.nap(wait);
      return 'again';
    }
    return this.#accept(res);
  }

  #params(): { since?: string; cursor?: string } {
    if (this.#cursor !== null) return { cursor: this.#cursor };
    const since = this.#settledThrough ?? this.#o.since;
    return since !== undefined ? { since } : {};
  }

  #accept(res: GradedSinceResponse): GradedPage {
    this.stats.pages++;
    const rows: GradedRow[] = [];
    let duplicates = 0;
    for (const r of res.graded) {
      const version = versionOf(r);
      const prev = this.#seen.get(r.txID);
      if (prev && prev.version === version) {
        duplicates++;
        continue;
      }
      if (prev) this.stats.regrades++;
      this.#seen.set(r.txID, { version, settledMs: msOf(r.settledAt) });
      rows.push(r);
    }
    this.#cursor = res.cursor;
    this.#settledThrough = res.settledThrough;
    // Only rows settled after settledThrough can come back as repeats; a newer version of
    // an older row is a different version anyway.
    const horizon = msOf(res.settledThrough);
    if (Number.isFinite(horizon)) for (const [tx, v] of this.#seen) if (v.settledMs < horizon) this.#seen.delete(tx);
    this.stats.rows += rows.length;
    this.stats.duplicates += duplicates;
    return { rows, settledThrough: res.settledThrough, cursor: res.cursor, hasMore: res.hasMore, duplicates };
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
