import type { SeriesRow } from './types.ts';

/**
 * Total P&L (settled + marked) per group of fills (a strategy, a league), sampled for
 * report.html. Settled P&L moves by each grade's change; marked P&L is summed afresh at
 * every sample by the caller, fill by fill, through `mark`.
 */
export class GroupPnl {
  readonly #settled = new Map<string, number>();
  readonly #marked = new Map<string, number>();
  readonly #rows = new Map<string, SeriesRow[]>();

  /** A group exists from its first fill on: it gets a row at every sample after. */
  add(group: string): void {
    if (this.#settled.has(group)) return;
    this.#settled.set(group, 0);
    this.#marked.set(group, 0);
    this.#rows.set(group, []);
  }

  /** A grade of a fill of the group: `delta` is its result less the result it replaces. */
  graded(group: string, delta: number): void {
    this.#settled.set(group, (this.#settled.get(group) ?? 0) + delta);
  }

  mark(group: string, value: number): void {
    this.#marked.set(group, (this.#marked.get(group) ?? 0) + value);
  }

  /** One row per group, [t, settled + marked]; the marks start again from 0. */
  sample(t: number): void {
    for (const [group, rows] of this.#rows) {
      rows.push([t, (this.#settled.get(group) ?? 0) + (this.#marked.get(group) ?? 0)]);
      this.#marked.set(group, 0);
    }
  }

  /** Rows by group, groups in name order. */
  series(): Record<string, SeriesRow[]> {
    return Object.fromEntries([...this.#rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
