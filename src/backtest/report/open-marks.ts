import type { BookFair, FairMarks, MarkedFill } from './fair-marks.ts';

/** Who sees every fill's value when a sum is worked out afresh (the P&L per group). */
export interface MarkVisitor<F> {
  /** A sum starts afresh: what the visitor summed at the last one is void. */
  restart(): void;
  /** A fill with a fair price and its value, in fill order. */
  mark(f: F, value: number): void;
}

/** A book the open fills are on, with the fair price the last sum read of it. */
interface OpenBook {
  readonly fair: BookFair;
  /** Fair of side 0 at the last sum; undefined before the first. */
  p: number | null | undefined;
  /** The sum that last saw a fill on it: the books are listed again from the fills when they change. */
  seen: number;
}

/** An open fill and its value at its book's fair of the last sum. */
interface OpenFill<F> {
  readonly f: F;
  readonly book: OpenBook;
  /** The fair it was valued at (undefined: never), and the value (null: no fair price). */
  p: number | null | undefined;
  value: number | null;
}

/**
 * The fills not yet graded, in fill order, marked at fair at every sample. A sample reads each
 * book's fair once; a fill is valued again only when its book's fair moved, and a sample at
 * which no fair moved and no fill came or left is the last sum again. The sum itself is always
 * the same terms in the same order (fill order), so it is the float the fill-by-fill sum gives.
 */
export class OpenMarks<F extends MarkedFill> {
  readonly #marks: FairMarks;
  #fills: OpenFill<F>[] = [];
  /** The distinct books of #fills. */
  #books: OpenBook[] = [];
  readonly #byFair = new Map<BookFair, OpenBook>();
  /** Fills came or left since the last sum. */
  #changed = true;
  #total = 0;
  /** The visitor of the last sum: a sum for another one (or none) is worked out afresh. */
  #visitor: MarkVisitor<F> | undefined = undefined;
  #sums = 0;

  constructor(marks: FairMarks) {
    this.#marks = marks;
  }

  get size(): number {
    return this.#fills.length;
  }

  add(f: F): void {
    let book = this.#byFair.get(f.fair);
    if (!book) {
      this.#byFair.set(f.fair, (book = { fair: f.fair, p: undefined, seen: 0 }));
      this.#books.push(book);
    }
    this.#fills.push({ f, book, p: undefined, value: null });
    this.#changed = true;
  }

  /** Keep the fills `keep` says, in their order (after grades: a graded fill is settled, no longer marked). */
  retain(keep: (f: F) => boolean): void {
    const before = this.#fills.length;
    this.#fills = this.#fills.filter((o) => keep(o.f));
    if (this.#fills.length === before) return;
    this.#changed = true;
    // The books of the fills left: a book with no open fill is read no more.
    const stamp = ++this.#sums;
    const books: OpenBook[] = [];
    for (const o of this.#fills) {
      if (o.book.seen === stamp) continue;
      o.book.seen = stamp;
      books.push(o.book);
    }
    for (const b of this.#books) if (b.seen !== stamp) this.#byFair.delete(b.fair);
    this.#books = books;
  }

  /**
   * Σ over the fills, in fill order, of their value at fair now (fills without a fair price
   * count nothing). `visitor`, when given, sees every fill with a fair price and its value
   * whenever the sum is worked out afresh; when nothing moved it is told nothing, and what it
   * summed at the last sum stands.
   */
  sum(visitor?: MarkVisitor<F>): number {
    let moved = this.#changed || visitor !== this.#visitor;
    const marks = this.#marks;
    // Every book is read at every sum, moved or not: a book's last consensus is the one read last.
    for (const b of this.#books) {
      const p = marks.fair(b.fair);
      if (p !== b.p) {
        b.p = p;
        moved = true;
      }
    }
    if (!moved) return this.#total;
    this.#changed = false;
    this.#visitor = visitor;
    visitor?.restart();
    let total = 0;
    for (const o of this.#fills) {
      const p = o.book.p!;
      if (p !== o.p) {
        o.p = p;
        o.value = p === null ? null : marks.valueAt(o.f, p);
      }
      const v = o.value;
      if (v === null) continue;
      total += v;
      visitor?.mark(o.f, v);
    }
    this.#total = total;
    return total;
  }
}
