/** A binary min-heap ordered by `at`, then insertion order, so equal times stay FIFO. */
export interface Timed {
  readonly at: number;
}

export class TimerHeap<T extends Timed> {
  /** The items in heap order, and beside each its insertion number: two arrays, no wrapper object per push. */
  readonly #items: T[] = [];
  readonly #seqs: number[] = [];
  #seq = 0;

  get size(): number {
    return this.#items.length;
  }

  push(item: T): void {
    const items = this.#items;
    const seqs = this.#seqs;
    const seq = this.#seq++;
    let i = items.length;
    items.push(item);
    seqs.push(seq);
    // Sift up by moving parents down into the hole, then place the item once.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent]!;
      if (!(item.at < p.at || (item.at === p.at && seq < seqs[parent]!))) break;
      items[i] = p;
      seqs[i] = seqs[parent]!;
      i = parent;
    }
    items[i] = item;
    seqs[i] = seq;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  pop(): T | undefined {
    const items = this.#items;
    const seqs = this.#seqs;
    if (items.length === 0) return undefined;
    const top = items[0]!;
    const last = items.pop()!;
    const lastSeq = seqs.pop()!;
    const n = items.length;
    if (n > 0) {
      // Sift the last item down from the root, moving smaller children up into the hole.
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let m = l;
        if (r < n && this.#less(r, l)) m = r;
        const c = items[m]!;
        if (!(c.at < last.at || (c.at === last.at && seqs[m]! < lastSeq))) break;
        items[i] = c;
        seqs[i] = seqs[m]!;
        i = m;
      }
      items[i] = last;
      seqs[i] = lastSeq;
    }
    return top;
  }

  #less(a: number, b: number): boolean {
    const x = this.#items[a]!;
    const y = this.#items[b]!;
    return x.at < y.at || (x.at === y.at && this.#seqs[a]! < this.#seqs[b]!);
  }
}
