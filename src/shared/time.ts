import { asyncScheduler, Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import type { Clock } from './clock.ts';
import { VirtualScheduler } from './virtual-scheduler.ts';

/**
 * Where time comes from: a clock to read and an RxJS scheduler to wait on. Domain code
 * takes one of these; only this module touches real timers.
 */
export interface TimeSource {
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  readonly kind: 'real' | 'manual';
}

/** A time source that only moves when told (simulator `--manual-clock`, backtests, tests). */
export interface ManualTimeSource extends TimeSource {
  readonly kind: 'manual';
  /** Move time forward, running every action due on the way, in order. */
  advance(ms: number): void;
  advanceTo(ms: number): void;
  /**
   * Like advanceTo, but one due instant at a time, awaiting `settle` between them, so the
   * promise and I/O work an action starts finishes before later actions run — as it would
   * in real time. A server's 15 s timeout must not beat a 5 s delayed order just because
   * the clock jumped over both at once.
   */
  advanceToSettling(ms: number, settle: () => Promise<void>): Promise<void>;
  /** When the earliest scheduled action is due, if any. */
  nextDueAt(): number | undefined;
}

/** Wall time, optionally compressed: at speed 60 an hour of exchange time passes in a minute. */
export function realTime(options: { readonly speed?: number; readonly epochMs?: number } = {}): TimeSource {
  const speed = options.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
  if (speed === 1 && options.epochMs === undefined) {
    return { kind: 'real', clock: { now: () => Date.now() }, scheduler: asyncScheduler };
  }
  const scheduler = new ScaledScheduler(speed, options.epochMs ?? Date.now());
  return { kind: 'real', clock: { now: () => scheduler.now() }, scheduler };
}

export function manualTime(startMs = Date.UTC(2026, 0, 1)): ManualTimeSource {
  const scheduler = new VirtualScheduler(startMs);
  const advanceTo = (ms: number) => {
    if (ms < scheduler.frame) throw new RangeError(`time cannot go backwards (${ms} < ${scheduler.frame})`);
    scheduler.flush(ms);
  };
  const nextDue = (): number | undefined => scheduler.nextDue();
  return {
    kind: 'manual',
    clock: { now: () => scheduler.now() },
    scheduler,
    advanceTo,
    nextDueAt: nextDue,
    advanceToSettling: async (ms, settle) => {
      if (ms < scheduler.frame) throw new RangeError(`time cannot go backwards (${ms} < ${scheduler.frame})`);
      for (let due = nextDue(); due !== undefined && due <= ms; due = nextDue()) {
        advanceTo(Math.max(due, scheduler.frame));
        await settle();
      }
      advanceTo(ms);
      await settle();
    },
    advance: (ms: number) => {
      if (!(ms >= 0)) throw new RangeError(`advance needs a non-negative duration, got ${ms}`);
      advanceTo(scheduler.frame + ms);
    },
  };
}

/** Real timers with every delay divided by `speed`, and a clock that runs `speed` times fast. */
class ScaledScheduler implements SchedulerLike {
  readonly #realStart = performance.now();
  constructor(
    readonly speed: number,
    readonly epochMs: number,
  ) {}

  now(): number {
    return Math.floor(this.epochMs + (performance.now() - this.#realStart) * this.speed);
  }

  schedule<T>(work: (this: SchedulerAction<T>, state: T) => void, delay = 0, state?: T): Subscription {
    return new ScaledAction<T>(this, work).schedule(state, delay);
  }
}

class ScaledAction<T> extends Subscription implements SchedulerAction<T> {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #rescheduled = false;

  constructor(
    private readonly scheduler: ScaledScheduler,
    private readonly work: (this: SchedulerAction<T>, state: T) => void,
  ) {
    super(() => {
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      this.#timer = undefined;
    });
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#rescheduled = true;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#rescheduled = false;
      try {
        this.work.call(this, state as T);
      } finally {
        if (!this.#rescheduled) this.unsubscribe();
      }
    }, Math.max(0, delay / this.scheduler.speed));
    return this;
  }
}

/** Resolves after pending promise callbacks and I/O callbacks have run (one event-loop turn). */
export function settleEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
