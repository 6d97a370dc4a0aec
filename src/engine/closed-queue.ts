import type { IdToken } from './ids.ts';

/**
 * Ids of closed orders with their closing times, oldest first, for forgetting them once
 * the retention period has passed. A ring that grows only when full: every order passes
 * through it, and a queue that sliced or regrew would keep allocating.
 */
export class ClosedQueue {
  #ids: IdToken[] = new Array<IdToken>(1024).fill(0);
  #times = new Float64Array(1024);
  #head = 0;
  #size = 0;

  push(id: IdToken, closedAt: number): void {
    if (this.#size === this.#times.length) this.#grow();
    const at = (this.#head + this.#size) & (this.#times.length - 1);
    this.#ids[at] = id;
    this.#times[at] = closedAt;
    this.#size++;
  }

  /** How many ids it holds. */
  get size(): number {
    return this.#size;
  }

  /** Closing time of the oldest entry; Infinity when empty. */
  oldestAt(): number {
    return this.#size === 0 ? Infinity : this.#times[this.#head]!;
  }

  /** Remove and return the oldest id; only when not empty. */
  shift(): IdToken {
    const id = this.#ids[this.#head]!;
    this.#ids[this.#head] = 0;
    this.#head = (this.#head + 1) & (this.#times.length - 1);
    this.#size--;
    return id;
  }

  #grow(): void {
    const capacity = this.#times.length;
    const ids = new Array<IdToken>(2 * capacity).fill(0);
    const times = new Float64Array(2 * capacity);
    for (let i = 0; i < this.#size; i++) {
      const from = (this.#head + i) & (capacity - 1);
      ids[i] = this.#ids[from]!;
      times[i] = this.#times[from]!;
    }
    this.#ids = ids;
    this.#times = times;
    this.#head = 0;
  }
}
