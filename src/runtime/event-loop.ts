import type { Logger } from 'pino';

export interface EventLoopOptions<E extends { readonly kind: string }> {
  /** Apply one event; a throw is logged and counted, and the next event still applies. */
  readonly apply: (e: E) => void;
  /** After the queue is drained: the evaluations of what changed. A throw is logged and counted. */
  readonly settle: () => void;
  readonly logger: Logger;
}

/**
 * The one queue every change passes through, in order, and the errors it caught rather than
 * let out. Events dispatched while one is applied (an answer delivered synchronously, a
 * wake-up) wait their turn, so only one event is applied at a time.
 */
export class EventLoop<E extends { readonly kind: string }> {
  readonly #o: EventLoopOptions<E>;
  #queue: E[] = [];
  #draining = false;
  /** Errors caught and logged rather than let out. */
  readonly #errors = { events: 0, evaluations: 0 };

  constructor(options: EventLoopOptions<E>) {
    this.#o = options;
  }

  /** Events that failed to apply, and evaluations that failed, since start. */
  get errors(): { readonly events: number; readonly evaluations: number } {
    return this.#errors;
  }

  /** Queue an event without draining: the next dispatch applies it. */
  enqueue(e: E): void {
    this.#queue.push(e);
  }

  /** Put events back at the head of the queue, in their order, ahead of whatever waits. */
  requeue(events: E[]): void {
    this.#queue = events.concat(this.#queue);
  }

  /** Feed one event into the loop; events arriving while one is processed wait their turn. */
  dispatch(e: E): void {
    if (this.#draining) {
      this.#queue.push(e);
      return;
    }
    this.#draining = true;
    try {
      // Nothing waiting (the usual case): the event applies without passing through the queue.
      if (this.#queue.length === 0) this.#applyOne(e);
      else this.#queue.push(e);
      this.#drainAndSettle();
    } finally {
      this.#draining = false;
    }
  }

  /**
   * Feed `x` into the loop as the event `wrap(x)` of kind `kind`, which `apply` applies as the
   * loop's own apply would: when nothing waits (the usual case), without building the event.
   * For the busiest feed, whose every message would otherwise become one more object.
   */
  dispatchAs<X>(kind: E['kind'], x: X, apply: (x: X) => void, wrap: (x: X) => E): void {
    if (this.#draining || this.#queue.length > 0) {
      this.dispatch(wrap(x));
      return;
    }
    this.#draining = true;
    try {
      try {
        apply(x);
      } catch (err) {
        this.#failed(err, kind);
      }
      this.#drainAndSettle();
    } finally {
      this.#draining = false;
    }
  }

  /** Apply what waits, then settle. */
  #drainAndSettle(): void {
    while (this.#queue.length > 0) this.#applyOne(this.#queue.shift()!);
    try {
      this.#o.settle();
    } catch (err) {
      // dispatch runs inside feed subscribers and scheduler callbacks: a throw from here
      // would reach RxJS, which rethrows it outside any handler and Node exits, with our
      // orders left resting and stop() never run. Logged and counted; the next event evaluates again.
      this.#errors.evaluations++;
      this.#o.logger.error({ err }, 'evaluation failed');
    }
  }

  #applyOne(e: E): void {
    try {
      this.#o.apply(e);
    } catch (err) {
      this.#failed(err, e.kind);
    }
  }

  /** One bad event must not stop the bot; it is logged with what it was. */
  #failed(err: unknown, kind: string): void {
    this.#errors.events++;
    this.#o.logger.error({ err, event: kind }, 'event failed');
  }
}
