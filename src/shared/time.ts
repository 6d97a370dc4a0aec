import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
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
  /**
   * Exchange milliseconds per wall millisecond of a real source (60 in a sped-up paper run).
   * Transport periods that guard against a silent peer (pings, pongs) are wall time and are
   * scaled by it; absent (1) for a manual source, whose time moves only when told.
   */
  readonly speed?: number;
}

/** A time source that only moves when told (simulator `--manual-clock`, backtests, tests). */
export interface ManualTimeSource extends TimeSource {
  readonly kind: 'manual';
  /**
   * Run `work` once, `delayMs` from now, queued as `scheduler.schedule` would queue it, but never
   * cancelled (no Subscription); `a` and `b` are handed to it, so a work made once carries them.
   */
  post(work: () => void, delayMs: number): void;
  post<A>(work: (a: A) => void, delayMs: number, a: A): void;
  post<A, B>(work: (a: A, b: B) => void, delayMs: number, a: A, b: B): void;
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
  /** How many of the scheduler's actions (`scheduler.schedule`) have run so far: `post`ed works are not counted. */
  actionsRun(): number;
}

/** The longest delay a Node timer holds (2^31−1 ms); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Wall time, optionally compressed: at speed 60 an hour of exchange time passes in a minute.
 * Its scheduler waits of any length (see WallAction), unlike RxJS's asyncScheduler, whose
 * timers fire at once past MAX_TIMER_MS.
 */
export function realTime(options: { readonly speed?: number; readonly epochMs?: number } = {}): TimeSource {
  const speed = options.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
  if (speed === 1 && options.epochMs === undefined) {
    return { kind: 'real', clock: { now: () => Date.now() }, scheduler: new WallScheduler(1, () => Date.now()) };
  }
  const epochMs = options.epochMs ?? Date.now();
  const realStart = performance.now();
  const scheduler = new WallScheduler(speed, () => Math.floor(epochMs + (performance.now() - realStart) * speed));
  return { kind: 'real', clock: { now: () => scheduler.now() }, scheduler, speed };
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
    post: scheduler.post.bind(scheduler) as ManualTimeSource['post'],
    advanceTo,
    nextDueAt: nextDue,
    actionsRun: () => scheduler.actionsRun,
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
class WallScheduler implements SchedulerLike {
  constructor(
    readonly speed: number,
    readonly now: () => number,
  ) {}

  schedule<T>(work: (this: SchedulerAction<T>, state: T) => void, delay = 0, state?: T): Subscription {
    return new WallAction<T>(this, work).schedule(state, delay);
  }
}

class WallAction<T> extends Subscription implements SchedulerAction<T> {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #rescheduled = false;
  #state: T | undefined;

  constructor(
    private readonly scheduler: WallScheduler,
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
    this.#state = state;
    const wait = delay / this.scheduler.speed;
    this.#arm(wait > 0 ? wait : 0);
    return this;
  }

  /** One timer of at most MAX_TIMER_MS; the rest of a longer wait is armed when it fires. */
  #arm(waitMs: number): void {
    const step = Math.min(waitMs, MAX_TIMER_MS);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (waitMs > step) {
        this.#arm(waitMs - step);
        return;
      }
      this.#rescheduled = false;
      try {
        this.work.call(this, this.#state as T);
      } finally {
        if (!this.#rescheduled) this.unsubscribe();
      }
    }, step);
  }
}

/** Resolves after pending promise callbacks and I/O callbacks have run (one event-loop turn). */
export function settleEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
