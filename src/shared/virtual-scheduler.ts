import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { TimerHeap } from './heap.ts';

/** An RxJS action as the queue runs it: only the run of its latest schedule holds. */
interface Runnable {
  holds(version: number): boolean;
  run(version: number): void;
}

/** A posted one-shot work: its two arguments are the entry's, so the caller makes no closure to carry them. */
type PostedWork = (a: unknown, b: unknown) => void;

/**
 * One queued run: an action's (at the version it was scheduled with), or a one-shot
 * `post`'s work and its arguments. One object per post while it waits, reused once it ran:
 * the queue holds the work itself, not a wrapper of it.
 */
class Entry {
  constructor(
    public at: number,
    public action: Runnable | null,
    public version: number,
    public work: PostedWork | null,
    public a: unknown,
    public b: unknown,
  ) {}

  /** Whether it still runs: a posted work always does, an action only at its latest version. */
  holds(): boolean {
    return this.action === null || this.action.holds(this.version);
  }
}

/** Posted entries that ran, kept for the next posts: a backtest posts several per order of ours. */
const SPARE_KEPT = 64;

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
  readonly #spare: Entry[] = [];
  #actionsRun = 0;

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
   * without the Subscription an RxJS action is. `a` and `b` are handed to `work` when it runs,
   * so a caller with a work made once needs no closure per post to carry its values.
   */
  post(work: () => void, delay?: number): void;
  post<A>(work: (a: A) => void, delay: number, a: A): void;
  post<A, B>(work: (a: A, b: B) => void, delay: number, a: A, b: B): void;
  post(work: PostedWork, delay = 0, a?: unknown, b?: unknown): void {
    const at = this.frame + Math.max(0, delay);
    const e = this.#spare.pop();
    if (e === undefined) {
      this.#heap.push(new Entry(at, null, 0, work, a, b));
      return;
    }
    e.at = at;
    e.work = work;
    e.a = a;
    e.b = b;
    this.#heap.push(e);
  }

  /**
   * How many RxJS actions (`schedule`) have run so far; posted works are not counted. A
   * driver that settles promise chains between instants reads it: a posted work of its
   * own it knows, an action may be anyone's.
   */
  get actionsRun(): number {
    return this.#actionsRun;
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
      const action = top.action;
      if (action !== null) {
        const version = top.version;
        // Spare before it runs, as a posted entry: an action reschedules itself into an entry.
        top.action = null;
        this.#keep(top);
        this.#actionsRun++;
        action.run(version);
        continue;
      }
      const work = top.work!;
      const a = top.a;
      const b = top.b;
      // Spare before the work runs: what it posts may take this entry again.
      top.work = null;
      top.a = undefined;
      top.b = undefined;
      this.#keep(top);
      work(a, b);
    }
    this.frame = Math.max(this.frame, until);
  }

  /** @internal */
  enqueue(action: Runnable, at: number, version: number): void {
    const e = this.#spare.pop();
    if (e === undefined) {
      this.#heap.push(new Entry(at, action, version, null, undefined, undefined));
      return;
    }
    e.at = at;
    e.action = action;
    e.version = version;
    this.#heap.push(e);
  }

  /** An entry out of the queue, kept for a later post or schedule (it holds no work, action or arguments). */
  #keep(e: Entry): void {
    if (this.#spare.length < SPARE_KEPT) this.#spare.push(e);
  }

  #dropStale(): void {
    for (let top = this.#heap.peek(); top && !top.holds(); top = this.#heap.peek()) {
      this.#heap.pop();
      // A stale entry is always an action's (a posted work holds): it lets the action go.
      top.action = null;
      this.#keep(top);
    }
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
