import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';
import type { Clock } from '../../shared/clock.ts';
import { systemClock } from '../../shared/clock.ts';
import { RollingWindow } from '../../shared/rolling-window.ts';

/** The exchange's limits (exchange-api §8) a request can count against, besides the global one. */
export type LimitKey = 'gradedSince' | 'graded';

export interface WindowLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export interface RequestBudgetOptions {
  /** Fraction of each exchange limit the process allows itself (default 0.9: 2,700 of 3,000). */
  readonly headroom?: number;
  readonly global?: WindowLimit;
  readonly gradedSince?: WindowLimit;
  readonly graded?: WindowLimit;
  readonly clock?: Clock;
  readonly scheduler?: SchedulerLike;
}

export const EXCHANGE_LIMITS = {
  global: { limit: 3000, windowMs: 60_000 },
  gradedSince: { limit: 10, windowMs: 5_000 },
  graded: { limit: 60, windowMs: 60_000 },
} as const satisfies Record<'global' | LimitKey, WindowLimit>;

/** `urgent`: cancels, which must never queue behind places or reads (see RequestBudget). */
export type Priority = 'normal' | 'urgent';

interface Waiter {
  readonly key: LimitKey | null;
  readonly urgent: boolean;
  /** Clock time it started waiting. */
  readonly since: number;
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

/**
 * The process's request budget against the exchange: every REST request acquires a slot
 * first, and waits (on the scheduler, in arrival order) when the rolling windows are full
 * or the server told us to back off with a 429. Share one budget between every client of
 * the same exchange in a process; the exchange counts per IP.
 *
 * Urgent requests (cancels) go ahead of every waiting normal one and may use the headroom
 * the others leave (up to the exchange's own global limit), so a kill or a halt pulls its
 * quotes at once even while places and reads fill the budget. A server pause (429) holds
 * them too: the per-IP limit counts every request (exchange-api §8), so one sent during it
 * would only be refused; they are first out when it ends.
 */
export class RequestBudget {
  readonly #clock: Clock;
  readonly #scheduler: SchedulerLike;
  readonly #global: RollingWindow;
  /** The exchange's global limit without headroom: what urgent requests are held to. */
  readonly #globalFull: RollingWindow;
  readonly #keyed: Record<LimitKey, RollingWindow>;
  readonly #pausedUntil: Record<'global' | LimitKey, number> = {
    global: -Infinity,
    gradedSince: -Infinity,
    graded: -Infinity,
  };
  #queue: Waiter[] = [];
  #timer: Subscription | null = null;
  #timerAt = Infinity;
  /** `delayed`: requests that had to wait; `waitedMs`: their total wait on the budget's clock until admitted. */
  readonly stats = { admitted: 0, delayed: 0, paused: 0, waitedMs: 0 };

  constructor(options: RequestBudgetOptions = {}) {
    const headroom = options.headroom ?? 0.9;
    if (!(headroom > 0 && headroom <= 1)) throw new RangeError(`headroom must be in (0, 1], got ${headroom}`);
    const scaled = (l: WindowLimit, h = headroom) =>
      new RollingWindow(Math.max(1, Math.floor(l.limit * h)), l.windowMs);
    this.#clock = options.clock ?? systemClock;
    this.#scheduler = options.scheduler ?? asyncScheduler;
    this.#global = scaled(options.global ?? EXCHANGE_LIMITS.global);
    this.#globalFull = scaled(options.global ?? EXCHANGE_LIMITS.global, 1);
    this.#keyed = {
      gradedSince: scaled(options.gradedSince ?? EXCHANGE_LIMITS.gradedSince),
      graded: scaled(options.graded ?? EXCHANGE_LIMITS.graded),
    };
  }

  /** The effective limits after headroom, for display. */
  get limits(): Record<'global' | LimitKey, number> {
    return { global: this.#global.limit, gradedSince: this.#keyed.gradedSince.limit, graded: this.#keyed.graded.limit };
  }

  /** Resolves when one request may go out now (and counts it). */
  acquire(key: LimitKey | null = null, signal?: AbortSignal, priority: Priority = 'normal'): Promise<void> {
    // Withdrawn already: no slot is spent on a request that will not go.
    if (signal?.aborted) return Promise.reject(signal.reason);
    const urgent = priority === 'urgent';
    // An urgent request waits only behind other urgent ones.
    const ahead = urgent ? this.#queue.some((w) => w.urgent) : this.#queue.length > 0;
    if (!ahead && this.#fitsAt(key, urgent) <= this.#clock.now()) {
      this.#record(key);
      return Promise.resolve();
    }
    this.stats.delayed++;
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const waiter: Waiter = {
        key,
        urgent,
        since: this.#clock.now(),
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.#queue = this.#queue.filter((w) => w !== waiter);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      if (urgent) {
        // After the urgent ones already waiting, before every normal one.
        const firstNormal = this.#queue.findIndex((w) => !w.urgent);
        this.#queue.splice(firstNormal === -1 ? this.#queue.length : firstNormal, 0, waiter);
      } else {
        this.#queue.push(waiter);
      }
      this.#pump();
    });
  }

  /** The server answered 429: nothing of this kind goes out before `retryAfterMs` from now. */
  pause(key: LimitKey | 'global', retryAfterMs: number): void {
    this.stats.paused++;
    const until = this.#clock.now() + retryAfterMs;
    if (until > this.#pausedUntil[key]) this.#pausedUntil[key] = until;
    this.#pump();
  }

  #fitsAt(key: LimitKey | null, urgent: boolean): number {
    const now = this.#clock.now();
    let at = Math.max((urgent ? this.#globalFull : this.#global).freeAt(now), this.#pausedUntil.global);
    if (key !== null) at = Math.max(at, this.#keyed[key].freeAt(now), this.#pausedUntil[key]);
    return at;
  }

  #record(key: LimitKey | null): void {
    const now = this.#clock.now();
    this.#global.record(now);
    this.#globalFull.record(now);
    if (key !== null) this.#keyed[key].record(now);
    this.stats.admitted++;
  }

  /**
   * Admit every waiter that fits, in order; a waiter held by its own key's window does not
   * hold back the ones behind it, but the global window does (nothing behind it fits either).
   */
  #pump(): void {
    const now = this.#clock.now();
    let next = Infinity;
    const still: Waiter[] = [];
    for (const w of this.#queue) {
      const at = this.#fitsAt(w.key, w.urgent);
      if (at <= now) {
        this.stats.waitedMs += now - w.since;
        this.#record(w.key);
        w.signal?.removeEventListener('abort', w.onAbort);
        w.resolve();
      } else {
        still.push(w);
        next = Math.min(next, at);
      }
    }
    this.#queue = still;
    if (next === Infinity || next >= this.#timerAt) return;
    this.#timer?.unsubscribe();
    this.#timerAt = next;
    this.#timer = this.#scheduler.schedule(() => {
      this.#timer = null;
      this.#timerAt = Infinity;
      this.#pump();
    }, next - now);
  }
}
