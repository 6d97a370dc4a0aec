import type { SeriesRow } from './types.ts';

/**
 * Rows a sampled series of the report holds at most: far more than a chart shows, and more
 * than a replay of a day at the default 10 s sample (8,640) halves to. A series grows with
 * the recording's length otherwise, one row per sample per game and per P&L group: a
 * fixed-spread replay of the 1.7M-event recording (some 20 hours) held some 340,000 rows.
 */
export const SERIES_MAX_ROWS = 4_096;

/** Rows a series makes room for at first: most games of a replay are sampled for hours. */
const FIRST_ROOM = 64;

/**
 * A sampled series of at most `cap` rows, evenly spread over the whole replay. It keeps every
 * sample while it has room; full, it keeps every other row and from then on one sample in
 * two (then in four, and so on), so its rows are always the samples at multiples of one
 * stride, the first sample among them. `wants` says whether the next sample would be kept,
 * so a row that would be dropped is not made.
 *
 * The rows are held as doubles side by side, all of one width (that of the first row), and
 * made into lists only when `rows` is read, at the report's end: a replay of the 1.7M-event
 * recording samples some 600 games, and a list per row cost three times the memory and
 * a few hundred thousand objects for the collector to trace.
 */
export class ThinnedSeries {
  #values = new Float64Array(0);
  /** Values per row, set by the first row. */
  #width = -1;
  #count = 0;
  readonly #cap: number;
  #stride = 1;
  /** Samples offered so far, kept or not. */
  #offered = 0;

  constructor(cap = SERIES_MAX_ROWS) {
    this.#cap = cap;
  }

  /** Rows kept. */
  get length(): number {
    return this.#count;
  }

  /** Rows it has room for before it grows. */
  get room(): number {
    return this.#width > 0 ? this.#values.length / this.#width : 0;
  }

  /** The rows kept, oldest first: lists made now. */
  get rows(): SeriesRow[] {
    const w = this.#width;
    const v = this.#values;
    const out: SeriesRow[] = new Array<SeriesRow>(this.#count);
    for (let r = 0; r < this.#count; r++) {
      const row = new Array<number>(w);
      for (let c = 0; c < w; c++) row[c] = v[r * w + c]!;
      out[r] = row;
    }
    return out;
  }

  /** Whether the next sample is kept; counts it as offered. Call once per sample, then `push` if true. */
  wants(): boolean {
    return this.#offered++ % this.#stride === 0;
  }

  /** Adds the row of a sample `wants` asked for; every row of a series has the first row's width. */
  push(row: SeriesRow): void {
    if (this.#width < 0) this.#width = row.length;
    const w = this.#width;
    if (row.length !== w) throw new Error(`a series row of ${row.length} values in a series of rows of ${w}`);
    if ((this.#count + 1) * w > this.#values.length) this.#grow();
    const v = this.#values;
    const at = this.#count * w;
    for (let c = 0; c < w; c++) v[at + c] = row[c]!;
    this.#count++;
    if (this.#count <= this.#cap) return;
    let n = 0;
    for (let r = 0; r < this.#count; r += 2, n++) if (n !== r) v.copyWithin(n * w, r * w, r * w + w);
    this.#count = n;
    this.#stride *= 2;
  }

  /**
   * Gives back the room made for rows that will not come: a series that takes no more rows
   * (its game ended) holds up to twice what it needs otherwise, for the rest of the replay.
   */
  trim(): void {
    const used = this.#count * Math.max(this.#width, 0);
    if (this.#values.length > used) this.#values = this.#values.slice(0, used);
  }

  #grow(): void {
    const rows = Math.min(Math.max(FIRST_ROOM, (this.#count + 1) * 2), this.#cap + 1);
    const next = new Float64Array(rows * this.#width);
    next.set(this.#values.subarray(0, this.#count * this.#width));
    this.#values = next;
  }
}
