import type { FillRow, OrderRow } from './types.ts';

/**
 * Where the report's rows go once they are final: an order's when the order ended (or the
 * replay did), a fill's when it happened. A long replay places hundreds of thousands of
 * orders, so the collector hands each row on instead of keeping it.
 */
export interface RowSink<T> {
  /** `seq` numbers the rows in the order their orders were placed (fills: in fill order). */
  push(row: T, seq: number): void;
}

/** orders.csv's and fills.csv's rows. */
export interface ReportRowSinks {
  readonly orders: RowSink<OrderRow>;
  readonly fills: RowSink<FillRow>;
}

/** Rows kept in memory and listed in `seq` order: the in-memory report of a short replay. */
export class MemoryRows<T> implements RowSink<T> {
  /** Rows and their seqs side by side: no wrapper object per row. */
  #rows: T[] = [];
  #seqs: number[] = [];
  #sorted = true;

  push(row: T, seq: number): void {
    const n = this.#seqs.length;
    if (n > 0 && this.#seqs[n - 1]! > seq) this.#sorted = false;
    this.#rows.push(row);
    this.#seqs.push(seq);
  }

  rows(): T[] {
    if (!this.#sorted) {
      const seqs = this.#seqs;
      const rows = this.#rows;
      const order = seqs.map((_, i) => i).sort((a, b) => seqs[a]! - seqs[b]!);
      this.#rows = order.map((i) => rows[i]!);
      this.#seqs = order.map((i) => seqs[i]!);
      this.#sorted = true;
    }
    return [...this.#rows];
  }
}
