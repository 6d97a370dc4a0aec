import { ThinnedSeries } from './thinned-series.ts';
import type { SeriesRow } from './types.ts';

/** One group's P&L: what a fill of the group holds, so marking it looks nothing up. */
export interface PnlGroup {
  readonly name: string;
  settled: number;
  /** Σ of the group's open fills' values at fair at the last sum, in fill order (OpenMarks keeps it). */
  marked: number;
  /** [t, settled + marked], at most SERIES_MAX_ROWS rows spread over the replay. */
  readonly series: ThinnedSeries;
}

/**
 * Total P&L (settled + marked) per group of fills (a strategy, a league), sampled for
 * report.html. Settled P&L moves by each grade's change; marked P&L is summed afresh by the
 * caller, fill by fill, through `mark`, after a `restart`, whenever a fill's value moved; a
 * sample at which none did repeats the last marks.
 */
export class GroupPnl {
  readonly #byName = new Map<string, PnlGroup>();
  /** In the order of their first fill. */
  readonly #groups: PnlGroup[] = [];

  /** A group exists from its first fill on: it gets a row at every sample after. */
  add(name: string): PnlGroup {
    let g = this.#byName.get(name);
    if (!g) {
      this.#byName.set(name, (g = { name, settled: 0, marked: 0, series: new ThinnedSeries() }));
      this.#groups.push(g);
    }
    return g;
  }

  /** A grade of a fill of the group: `delta` is its result less the result it replaces. */
  graded(g: PnlGroup, delta: number): void {
    g.settled += delta;
  }

  /** One row per group, [t, settled + marked]. */
  sample(t: number): void {
    for (const g of this.#groups) if (g.series.wants()) g.series.push([t, g.settled + g.marked]);
  }

  /** Rows by group, groups in name order. */
  series(): Record<string, SeriesRow[]> {
    return Object.fromEntries(
      [...this.#groups]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((g) => [g.name, g.series.rows] as const),
    );
  }
}
