import type { BookFair, FairMarks, MarkedFill } from './fair-marks.ts';

const INITIAL = 64;

/**
 * The fills not yet graded, in fill order, marked at fair at every sample. Their stake,
 * payout and side sit in flat arrays and each book's fair is read once per pass, so a
 * sample's mark is one pass over contiguous memory rather than a walk over hundreds of fill
 * objects and their rows.
 *
 * The mark is the same float sum, term for term, as adding each fill's
 * `FairMarks.now` value in fill order: the same values, the same expression, the same order.
 */
export class OpenMarks<F extends MarkedFill> {
  readonly #marks: FairMarks;
  /** The fills themselves, for `retain`; the arrays below mirror them index for index. */
  #fills: F[] = [];
  #win = new Float64Array(INITIAL);
  #risk = new Float64Array(INITIAL);
  #side = new Uint8Array(INITIAL);
  /** Index into #books of each fill's book. */
  #book = new Int32Array(INITIAL);
  /** The books of the fills, each once: only these are read (a read also updates the book's last fair). */
  #books: BookFair[] = [];
  readonly #slot = new Map<BookFair, number>();
  /** Per book, this pass's fair of side 0, and whether it has one. */
  #p0 = new Float64Array(INITIAL);
  #has = new Uint8Array(INITIAL);

  constructor(marks: FairMarks) {
    this.#marks = marks;
  }

  get size(): number {
    return this.#fills.length;
  }

  add(f: F): void {
    const i = this.#fills.length;
    if (i === this.#win.length) this.#grow();
    this.#fills.push(f);
    this.#win[i] = f.row.win;
    this.#risk[i] = f.row.risk;
    this.#side[i] = f.side;
    let slot = this.#slot.get(f.fair);
    if (slot === undefined) {
      slot = this.#books.length;
      this.#books.push(f.fair);
      this.#slot.set(f.fair, slot);
      if (slot === this.#p0.length) {
        this.#p0 = grow(this.#p0, new Float64Array(slot * 2));
        this.#has = grow(this.#has, new Uint8Array(slot * 2));
      }
    }
    this.#book[i] = slot;
  }

  /** Keep the fills `keep` says, in their order (after grades: a graded fill is settled, no longer marked). */
  retain(keep: (f: F) => boolean): void {
    const kept = this.#fills.filter(keep);
    this.#fills = [];
    this.#books = [];
    this.#slot.clear();
    for (const f of kept) this.add(f);
  }

  /** Σ over the fills, in fill order, of their value at fair now (fills without a fair price count nothing). */
  sum(): number {
    const books = this.#books;
    const p0 = this.#p0;
    const has = this.#has;
    for (let b = 0; b < books.length; b++) {
      const p = this.#marks.fair(books[b]!);
      has[b] = p === null ? 0 : 1;
      p0[b] = p ?? 0;
    }
    const win = this.#win;
    const risk = this.#risk;
    const side = this.#side;
    const book = this.#book;
    let total = 0;
    for (let i = 0, n = this.#fills.length; i < n; i++) {
      const b = book[i]!;
      if (has[b] === 0) continue;
      const q = p0[b]!;
      // FairMarks' valueAt, written out: p * win - (1 - p) * risk.
      const p = side[i] === 0 ? q : 1 - q;
      total += p * win[i]! - (1 - p) * risk[i]!;
    }
    return total;
  }

  #grow(): void {
    const n = this.#win.length * 2;
    this.#win = grow(this.#win, new Float64Array(n));
    this.#risk = grow(this.#risk, new Float64Array(n));
    this.#side = grow(this.#side, new Uint8Array(n));
    this.#book = grow(this.#book, new Int32Array(n));
  }
}

function grow<T extends Float64Array | Uint8Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
