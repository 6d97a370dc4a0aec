import type { EngineEvent, OrderView } from '../../engine/types.ts';
import { US } from '../venue/execution.ts';

/**
 * Our open orders as the engine's events tell them, oldest first: what
 * `engine.openOrders(US)` lists, kept as the events come instead of a view of every open
 * order built and sorted at every sample. Each carries what the report derives from it once
 * (`make`), at the event that opened it.
 *
 * Oldest first holds because an order rests in the call that creates it and its
 * `orderPlaced` is emitted there, and the engine delivers events in the order it emits them.
 */
export class OpenOrders<T> {
  readonly #byId = new Map<string, T>();
  readonly #make: (o: OrderView) => T;

  constructor(make: (o: OrderView) => T) {
    this.#make = make;
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Every event of our account, in order: the ones that open or close an order change the list. */
  onEvent(e: EngineEvent): void {
    switch (e.kind) {
      case 'orderPlaced':
        this.#byId.set(e.order.id, this.#make(e.order));
        return;
      case 'orderCancelled':
      case 'orderExpired':
        this.#byId.delete(e.order.id);
        return;
      case 'fill':
        // A resting order leaves the book when a fill leaves nothing of it.
        if (e.fill.maker.userId === US && e.fill.makerOrderAfter.status !== 'open')
          this.#byId.delete(e.fill.maker.orderID);
        return;
      default:
        return;
    }
  }

  /** An order that left the book without an event of its own (an amend that matched in full). */
  drop(id: string): void {
    this.#byId.delete(id);
  }

  values(): IterableIterator<T> {
    return this.#byId.values();
  }
}
