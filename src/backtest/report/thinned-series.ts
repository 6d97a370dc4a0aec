import type { SeriesRow } from './types.ts';

/**
 * Rows a sampled series of the report holds at most: far more than a chart shows, and more
 * than a replay of a day at the default 10 s sample (8,640) halves to. A series grows with
 * the recording's length otherwise, one row per sample per game and per P&L group: a
 * fixed-spread replay of the 1.7M-event recording (some 20 hours) held some 340,000 rows.
 */
export const SERIES_MAX_ROWS = 4_096;

/**
 * A sampled series of at most `cap` rows, evenly spread over the whole replay. It keeps every
 * sample while it has room; full, it keeps every other row and from then on one sample in
 * two (then in four, and so on), so its rows are always the samples at multiples of one
 * stride, the first sample among them. `wants` says whether the next sample would be kept,
 * so a row that would be dropped is not made.
 */
export class ThinnedSeries {
  readonly rows: SeriesRow[] = [];
  readonly #cap: number;
  #stride = 1;
  /** Samples offered so far, kept or not. */
  #offered = 0;

  constructor(cap = SERIES_MAX_ROWS) {
    this.#cap = cap;
  }

  /** Whether the next sample is kept; counts it as offered. Call once per sample, then `push` if true. */
  wants(): boolean {
    return this.#offered++ % this.#stride === 0;
  }

  /** Adds the row of a sample `wants` asked for. */
  push(row: SeriesRow): void {
    const rows = this.rows;
    rows.push(row);
    if (rows.length <= this.#cap) return;
    let n = 0;
    for (let i = 0; i < rows.length; i += 2) rows[n++] = rows[i]!;
    rows.length = n;
    this.#stride *= 2;
  }
}
