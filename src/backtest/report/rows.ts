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
  readonly #rows: { readonly row: T; readonly seq: number }[] = [];
  #sorted = true;

  push(row: T, seq: number): void {
    const last = this.#rows[this.#rows.length - 1];
    if (last !== undefined && last.seq > seq) this.#sorted = false;
    this.#rows.push({ row, seq });
  }

  rows(): T[] {
    if (!this.#sorted) {
      this.#rows.sort((a, b) => a.seq - b.seq);
      this.#sorted = true;
    }
    return this.#rows.map((r) => r.row);
  }
}
