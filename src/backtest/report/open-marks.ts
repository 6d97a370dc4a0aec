import type { FairMarks, MarkedFill } from './fair-marks.ts';

/** The fills not yet graded, in fill order, marked at fair at every sample. */
export class OpenMarks<F extends MarkedFill> {
  readonly #marks: FairMarks;
  #fills: F[] = [];

  constructor(marks: FairMarks) {
    this.#marks = marks;
  }

  get size(): number {
    return this.#fills.length;
  }

  add(f: F): void {
    this.#fills.push(f);
  }

  /** Keep the fills `keep` says, in their order (after grades: a graded fill is settled, no longer marked). */
  retain(keep: (f: F) => boolean): void {
    this.#fills = this.#fills.filter(keep);
  }

  /**
   * Σ over the fills, in fill order, of their value at fair now (fills without a fair price
   * count nothing). `each`, when given, sees every fill with a fair price and its value.
   */
  sum(each?: (f: F, value: number) => void): number {
    let total = 0;
    for (const f of this.#fills) {
      const v = this.#marks.now(f);
      if (v === null) continue;
      total += v;
      each?.(f, v);
    }
    return total;
  }
}
