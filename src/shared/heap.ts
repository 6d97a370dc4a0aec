/** A binary min-heap ordered by `at`, then insertion order, so equal times stay FIFO. */
export interface Timed {
  readonly at: number;
}

export class TimerHeap<T extends Timed> {
  readonly #items: { item: T; seq: number }[] = [];
  #seq = 0;

  get size(): number {
    return this.#items.length;
  }

  push(item: T): void {
    const items = this.#items;
    items.push({ item, seq: this.#seq++ });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(i, parent)) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  peek(): T | undefined {
    return this.#items[0]?.item;
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    if (!top) return undefined;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.#less(l, m)) m = l;
        if (r < items.length && this.#less(r, m)) m = r;
        if (m === i) break;
        this.#swap(i, m);
        i = m;
      }
    }
    return top.item;
  }

  #less(a: number, b: number): boolean {
    const x = this.#items[a]!;
    const y = this.#items[b]!;
    return x.item.at < y.item.at || (x.item.at === y.item.at && x.seq < y.seq);
  }

  #swap(a: number, b: number): void {
    const items = this.#items;
    const t = items[a]!;
    items[a] = items[b]!;
    items[b] = t;
  }
}
