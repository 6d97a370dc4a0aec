import type { Runtime } from '../../runtime/runtime.ts';
import { markToFair } from '../../runtime/summary.ts';
import { gamesAtRisk } from '../games-at-risk.ts';
import type { StatusReport } from '../status-report.ts';

/** A game with a worst case below 0, as the dashboard lists it. */
export interface DashboardGame {
  readonly gameID: string;
  readonly name: string;
  /** Projected worst case with every resting order filled (≤ 0). */
  readonly worstCase: number;
}

/**
 * What `GET /dashboard.json` answers: the status report and what the page draws beside it.
 * Read-only figures of the running session; nothing in it is a secret (no keys, no tokens,
 * no account id).
 */
export interface DashboardSnapshot {
  readonly format: 'linesmith-dashboard/1';
  readonly status: StatusReport;
  /** Open bets valued at the consensus fair price now. */
  readonly markedPnl: number;
  /** The risk section's caps, as positive amounts. */
  readonly caps: { readonly maxGameLiability: number; readonly maxTotalLiability: number };
  /** Every game with a worst case below 0, the deepest first. */
  readonly games: readonly DashboardGame[];
  /**
   * Strategy errors as the status report counts them; null while the status report has no
   * such count (the page then says so).
   */
  readonly strategyErrors: unknown;
}

export interface DashboardSource {
  readonly runtime: Runtime;
  readonly status: () => Promise<StatusReport>;
  readonly caps: DashboardSnapshot['caps'];
}

export async function dashboardSnapshot(o: DashboardSource): Promise<DashboardSnapshot> {
  const status = await o.status();
  const r = o.runtime;
  const games: DashboardGame[] = gamesAtRisk(r);
  const errors = (status as Readonly<Record<string, unknown>>)['strategyErrors'];
  return {
    format: 'linesmith-dashboard/1',
    status,
    markedPnl: markToFair(r),
    caps: o.caps,
    games,
    strategyErrors: errors === undefined ? null : errors,
  };
}
