import type { BookFair, FairMarks, MarkedFill } from './fair-marks.ts';

/** A sum over some of the open fills (a P&L group): Σ of its fills' values at the last sum, in fill order. */
export interface MarkGroup {
  marked: number;
}

/** A fill as the open marks hold it: valued at its book's fair, and counted in the sums of its groups. */
export interface GroupedFill extends MarkedFill {
  readonly markGroups: readonly MarkGroup[];
}

/** A book the open fills are on, with the fair price the last sum read of it. */
interface OpenBook {
  readonly fair: BookFair;
  /** Fair of side 0 at the last sum; undefined before the first. */
  p: number | null | undefined;
  /** The places of its fills among the open ones: a move of its fair values those again. */
  readonly at: number[];
  /** The retain that last saw a fill on it: the books are listed again from the fills when they change. */
  seen: number;
}

/** A group of the open fills and the places of its fills, ascending. */
interface GroupSum {
  readonly group: MarkGroup;
  readonly at: number[];
  /** A value of one of its fills changed, or a fill came or left, since its last sum. */
  dirty: boolean;
  seen: number;
}

/** One open fill and what it counts in. */
interface OpenFill<F> {
  readonly f: F;
  readonly book: OpenBook;
  readonly groups: GroupSum[];
  /** Valued at its book's fair since it came (a fill that came since the last sum is not yet). */
  valued: boolean;
}

/**
 * The fills not yet graded, in fill order, marked at fair at every sample: the whole sum and
 * the sum of each group (report.html's P&L per strategy, per league). A sample reads each
 * book's fair once, and values again only the fills of the books whose fair moved; a sample
 * at which no fair moved and no fill came or left is the last sum again.
 *
 * The sums are always the same terms in the same order (fill order), so each is the float
 * the fill-by-fill sum gives. A fill without a fair price counts +0 where the fill-by-fill sum
 * skips it: the same float, as a sum that starts at +0 never is -0, and x + (+0) is x for
 * every other x. The values are kept in one array of doubles, so the whole sum again is a
 * plain pass over it; a group's sum is worked out again only when one of its terms changed.
 */
export class OpenMarks<F extends GroupedFill> {
  readonly #marks: FairMarks;
  #fills: OpenFill<F>[] = [];
  /** Each open fill's value at its book's last fair (0: no fair price), by its place. */
  #values = new Float64Array(64);
  /** The distinct books of #fills. */
  #books: OpenBook[] = [];
  readonly #byFair = new Map<BookFair, OpenBook>();
  /** The distinct groups of #fills. */
  #groups: GroupSum[] = [];
  readonly #byGroup = new Map<MarkGroup, GroupSum>();
  /** Places of fills that came since the last sum, to value at their book's fair then. */
  readonly #fresh: number[] = [];
  /** Fills came or left since the last sum. */
  #changed = true;
  #total = 0;
  #retains = 0;

  constructor(marks: FairMarks) {
    this.#marks = marks;
  }

  get size(): number {
    return this.#fills.length;
  }

  add(f: F): void {
    const at = this.#fills.length;
    let book = this.#byFair.get(f.fair);
    if (!book) {
      this.#byFair.set(f.fair, (book = { fair: f.fair, p: undefined, at: [], seen: 0 }));
      this.#books.push(book);
    }
    book.at.push(at);
    const groups: GroupSum[] = [];
    for (const g of f.markGroups) {
      const sum = this.#groupSum(g);
      sum.at.push(at);
      sum.dirty = true;
      groups.push(sum);
    }
    this.#fills.push({ f, book, groups, valued: false });
    if (at === this.#values.length) {
      const values = new Float64Array(at * 2);
      values.set(this.#values);
      this.#values = values;
    }
    this.#values[at] = 0;
    this.#fresh.push(at);
    this.#changed = true;
  }

  #groupSum(g: MarkGroup): GroupSum {
    let sum = this.#byGroup.get(g);
    if (!sum) {
      this.#byGroup.set(g, (sum = { group: g, at: [], dirty: true, seen: 0 }));
      this.#groups.push(sum);
    }
    return sum;
  }

  /** Keep the fills `keep` says, in their order (after grades: a graded fill is settled, no longer marked). */
  retain(keep: (f: F) => boolean): void {
    const fills = this.#fills;
    const values = this.#values;
    let n = 0;
    for (let i = 0; i < fills.length; i++) {
      const o = fills[i]!;
      if (!keep(o.f)) continue;
      fills[n] = o;
      values[n] = values[i]!;
      n++;
    }
    if (n === fills.length) return;
    fills.length = n;
    this.#changed = true;
    // Every place moved: the books and the groups of the fills left, with their fills' new places.
    // A book with no open fill is read no more; a group with none sums to nothing.
    const stamp = ++this.#retains;
    const books: OpenBook[] = [];
    const groups: GroupSum[] = [];
    for (let i = 0; i < n; i++) {
      const o = fills[i]!;
      const b = o.book;
      if (b.seen !== stamp) {
        b.seen = stamp;
        b.at.length = 0;
        books.push(b);
      }
      b.at.push(i);
      for (const g of o.groups) {
        if (g.seen !== stamp) {
          g.seen = stamp;
          g.at.length = 0;
          g.dirty = true;
          groups.push(g);
        }
        g.at.push(i);
      }
    }
    for (const b of this.#books) if (b.seen !== stamp) this.#byFair.delete(b.fair);
    for (const g of this.#groups)
      if (g.seen !== stamp) {
        g.group.marked = 0;
        this.#byGroup.delete(g.group);
      }
    this.#books = books;
    this.#groups = groups;
    this.#fresh.length = 0;
    for (let i = 0; i < n; i++) if (!fills[i]!.valued) this.#fresh.push(i);
  }

  /**
   * Σ over the fills, in fill order, of their value at fair now (fills without a fair price
   * count nothing); each group's `marked` is left at the same sum over its fills.
   */
  sum(): number {
    let moved = this.#changed;
    const marks = this.#marks;
    const fills = this.#fills;
    const values = this.#values;
    // Every book is read at every sum, moved or not: a book's last consensus is the one read last.
    const books = this.#books;
    for (let i = 0; i < books.length; i++) {
      const b = books[i]!;
      const p = marks.fair(b.fair);
      if (p === b.p) continue;
      b.p = p;
      moved = true;
      const at = b.at;
      for (let k = 0; k < at.length; k++) {
        const j = at[k]!;
        const o = fills[j]!;
        values[j] = p === null ? 0 : marks.valueAt(o.f, p);
        o.valued = true;
        for (const g of o.groups) g.dirty = true;
      }
    }
    if (!moved) return this.#total;
    this.#changed = false;
    const fresh = this.#fresh;
    for (let k = 0; k < fresh.length; k++) {
      const o = fills[fresh[k]!]!;
      if (o.valued) continue;
      const p = o.book.p!;
      values[fresh[k]!] = p === null ? 0 : marks.valueAt(o.f, p);
      o.valued = true;
    }
    fresh.length = 0;
    let total = 0;
    for (let i = 0; i < fills.length; i++) total += values[i]!;
    this.#total = total;
    const groups = this.#groups;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      if (!g.dirty) continue;
      g.dirty = false;
      let s = 0;
      const at = g.at;
      for (let k = 0; k < at.length; k++) s += values[at[k]!]!;
      g.group.marked = s;
    }
    return total;
  }
}
