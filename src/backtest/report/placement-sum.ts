/**
 * A float sum over orders taken in the order they were placed, though each order's value is
 * known only when the order ends, in another order. A float sum depends on the order of its
 * terms, and the report's figures are pinned to the bytes, so the terms are added in placement
 * order: the sum folds in each order as soon as every order placed before it has ended, and
 * holds only the values of orders placed since the oldest still open.
 */
export class PlacementSum {
  #sum = 0;
  /** Seq of the first slot in #pending. */
  #base = 0;
  /**
   * Values by seq from #base on, in the first #length slots; undefined while the order is
   * open, `null`: ended, nothing to add. The slots are used again once every order in them
   * ended, not let go: a new array per fold would be one more allocation per order ended.
   */
  #pending: (number | null | undefined)[] = [];
  #length = 0;
  #head = 0;

  /** Slots still held: the orders placed since the oldest order still open. */
  get held(): number {
    return this.#length - this.#head;
  }

  /** Order `seq` (0, 1, 2, … in placement order) ended: `value` is its term, null for none. */
  set(seq: number, value: number | null): void {
    const i = seq - this.#base;
    const p = this.#pending;
    while (this.#length <= i) p[this.#length++] = undefined;
    p[i] = value;
    this.#fold();
  }

  #fold(): void {
    const p = this.#pending;
    const n = this.#length;
    let h = this.#head;
    for (; h < n && p[h] !== undefined; h++) {
      const v = p[h];
      if (v !== null && v !== undefined) this.#sum += v;
    }
    this.#head = h;
    if (h === n) {
      this.#base += h;
      this.#length = 0;
      this.#head = 0;
    } else if (h >= 1024 && h * 2 >= n) {
      this.#base += h;
      this.#pending = p.slice(h, n);
      this.#length = n - h;
      this.#head = 0;
    }
  }

  /** The sum of every term set, in seq order; a slot never set is an error of the caller's (it counts as nothing). */
  total(): number {
    return this.#sum;
  }
}
