import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';

interface Entry {
  readonly due: number;
  readonly seq: number;
  readonly action: VirtualSchedulerAction<unknown>;
  readonly version: number;
}

/**
 * An RxJS scheduler on virtual time, moved only by `flush(until)`. Unlike RxJS's own
 * VirtualTimeScheduler, an action that reschedules itself (what `interval` does every
 * period) is reused, as the real-time AsyncAction is: RxJS's virtual action nests a new
 * subscription per period, and after some thousands of periods unsubscribing that chain
 * overflows the stack — a backtest or a manual-clock simulator runs for days of them.
 */
export class VirtualScheduler implements SchedulerLike {
  frame: number;
  #seq = 0;
  readonly #heap: Entry[] = [];

  constructor(startMs: number) {
    this.frame = startMs;
  }

  now(): number {
    return this.frame;
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    return new VirtualSchedulerAction<T>(this, work).schedule(state, delay);
  }

  /** When the earliest live action is due, if any. */
  nextDue(): number | undefined {
    this.#dropStale();
    return this.#heap[0]?.due;
  }

  /** Run every action due at or before `until`, in due order (then scheduling order), then stand at `until`. */
  flush(until: number): void {
    for (;;) {
      this.#dropStale();
      const top = this.#heap[0];
      if (!top || top.due > until) break;
      this.#pop();
      this.frame = Math.max(this.frame, top.due);
      top.action.run(top.version);
    }
    this.frame = Math.max(this.frame, until);
  }

  /** @internal */
  enqueue(action: VirtualSchedulerAction<unknown>, due: number, version: number): void {
    const e: Entry = { due, seq: ++this.#seq, action, version };
    const h = this.#heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  #dropStale(): void {
    for (let top = this.#heap[0]; top && !top.action.holds(top.version); top = this.#heap[0]) this.#pop();
  }

  #pop(): void {
    const h = this.#heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l]!, h[m]!)) m = l;
      if (r < h.length && before(h[r]!, h[m]!)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

const before = (a: Entry, b: Entry) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

class VirtualSchedulerAction<T> extends Subscription implements SchedulerAction<T> {
  #state: T | undefined;
  /** Bumped on every (re)schedule, so an older queue entry of this action is ignored. */
  #version = 0;
  #pending = false;

  constructor(
    private readonly scheduler: VirtualScheduler,
    private readonly work: (this: SchedulerAction<T>, state?: T) => void,
  ) {
    super();
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.#state = state;
    this.#pending = true;
    this.scheduler.enqueue(this as VirtualSchedulerAction<unknown>, this.scheduler.now() + Math.max(0, delay), ++this.#version);
    return this;
  }

  holds(version: number): boolean {
    return !this.closed && this.#pending && version === this.#version;
  }

  run(version: number): void {
    if (!this.holds(version)) return;
    this.#pending = false;
    try {
      this.work.call(this, this.#state);
    } catch (err) {
      this.unsubscribe();
      throw err;
    }
    // Not rescheduled by its work: done, as an AsyncAction is.
    if (!this.#pending) this.unsubscribe();
  }
}
