import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';

/**
 * A scheduler that can die with its owner: `crash()` cancels everything scheduled through
 * it and makes later calls inert, as if the process that owned the timers were gone. The
 * soak gives each bot its own, so a crashed runtime's ticks, heartbeats, retries and socket
 * timers stop with it while the simulator and the next bot keep the shared clock.
 */
export class CrashableScheduler implements SchedulerLike {
  readonly #inner: SchedulerLike;
  readonly #live = new Set<Subscription>();
  #crashed = false;

  constructor(inner: SchedulerLike) {
    this.#inner = inner;
  }

  get crashed(): boolean {
    return this.#crashed;
  }

  now(): number {
    return this.#inner.now();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state: T) => void, delay = 0, state?: T): Subscription {
    if (this.#crashed) return Subscription.EMPTY;
    const sub = this.#inner.schedule(work as (this: SchedulerAction<T>, state?: T) => void, delay, state);
    this.#live.add(sub);
    sub.add(() => this.#live.delete(sub));
    return sub;
  }

  /** Cancel every pending action; nothing scheduled later runs. */
  crash(): void {
    this.#crashed = true;
    for (const sub of [...this.#live]) sub.unsubscribe();
    this.#live.clear();
  }
}
