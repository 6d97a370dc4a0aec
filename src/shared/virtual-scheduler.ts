import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { TimerHeap } from './heap.ts';

/** What the queue runs: an RxJS action, or a one-shot `post`. */
interface Runnable {
  holds(version: number): boolean;
  run(version: number): void;
}

interface Entry {
  readonly at: number;
  readonly action: Runnable;
  readonly version: number;
}

/** Work posted once, never cancelled: nothing to unsubscribe, so no Subscription to make. */
class Posted implements Runnable {
  constructor(readonly work: () => void) {}
  holds(): boolean {
    return true;
  }
  run(): void {
    this.work();
  }
}

/**
 * An RxJS scheduler on virtual time, moved only by `flush(until)`. Unlike RxJS's own
 * VirtualTimeScheduler, an action that reschedules itself (what `interval` does every
 * period) is reused, as the real-time AsyncAction is: RxJS's virtual action nests a new
 * subscription per period, and after some thousands of periods unsubscribing that chain
 * overflows the stack — a backtest or a manual-clock simulator runs for days of them.
 * Equal due times run in scheduling order (the heap is FIFO among equals).
 */
export class VirtualScheduler implements SchedulerLike {
  frame: number;
  readonly #heap = new TimerHeap<Entry>();

  constructor(startMs: number) {
    this.frame = startMs;
  }

  now(): number {
    return this.frame;
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    return new VirtualSchedulerAction<T>(this, work).schedule(state, delay);
  }

  /**
   * Run `work` once, `delay` ms from now, in the same queue and order as `schedule`: for the
   * many one-shot steps of a simulation that are never cancelled (a backtest's latency legs),
   * without the Subscription an RxJS action is.
   */
  post(work: () => void, delay = 0): void {
    this.#heap.push({ at: this.frame + Math.max(0, delay), action: new Posted(work), version: 0 });
  }

  /** When the earliest live action is due, if any. */
  nextDue(): number | undefined {
    this.#dropStale();
    return this.#heap.peek()?.at;
  }

  /** Run every action due at or before `until`, in due order (then scheduling order), then stand at `until`. */
  flush(until: number): void {
    for (;;) {
      this.#dropStale();
      const top = this.#heap.peek();
      if (!top || top.at > until) break;
      this.#heap.pop();
      this.frame = Math.max(this.frame, top.at);
      top.action.run(top.version);
    }
    this.frame = Math.max(this.frame, until);
  }

  /** @internal */
  enqueue(action: Runnable, at: number, version: number): void {
    this.#heap.push({ at, action, version });
  }

  #dropStale(): void {
    for (let top = this.#heap.peek(); top && !top.action.holds(top.version); top = this.#heap.peek()) this.#heap.pop();
  }
}

class VirtualSchedulerAction<T> extends Subscription implements SchedulerAction<T> {
  #state: T | undefined;
  /** Bumped on every (re)schedule: only the queue entry of the latest one runs. */
  #version = 0;

  constructor(
    private readonly scheduler: VirtualScheduler,
    private readonly work: (this: SchedulerAction<T>, state?: T) => void,
  ) {
    super();
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.#state = state;
    this.scheduler.enqueue(
      this as VirtualSchedulerAction<unknown>,
      this.scheduler.now() + Math.max(0, delay),
      ++this.#version,
    );
    return this;
  }

  holds(version: number): boolean {
    return !this.closed && version === this.#version;
  }

  run(version: number): void {
    if (!this.holds(version)) return;
    try {
      this.work.call(this, this.#state);
    } catch (err) {
      this.unsubscribe();
      throw err;
    }
    // Not rescheduled by its work: done, as an AsyncAction is.
    if (this.#version === version) this.unsubscribe();
  }
}
