import { Observable, type Subscriber } from 'rxjs';

/**
 * A hot stream of the simulated venue's feed messages, as a Subject hands them out, for
 * less per message: a Subject's `next` makes a closure (its error context) and an iterator
 * over its observers for every value, and a backtest sends one or more per order of ours.
 *
 * The same order and timing as a Subject's: each value goes synchronously to the
 * subscribers there were when it was sent, in the order they subscribed; one that
 * subscribes while a value is being handed out gets the next value, and one unsubscribed
 * meanwhile gets nothing more (its subscriber is closed). It never completes or errors.
 */
export class Fanout<T> {
  /** Replaced, never changed in place: a value being handed out goes to the list it started with. */
  #subscribers: readonly Subscriber<T>[] = [];
  readonly events$: Observable<T> = new Observable<T>((subscriber) => {
    this.#subscribers = [...this.#subscribers, subscriber];
    return () => {
      this.#subscribers = this.#subscribers.filter((s) => s !== subscriber);
    };
  });

  next(value: T): void {
    const subscribers = this.#subscribers;
    for (let i = 0; i < subscribers.length; i++) subscribers[i]!.next(value);
  }
}
