import type { StrategyErrorEvent } from '../../runtime/strategy-errors.ts';
/**
 * The backtest report (report.json), format version 1. Every value comes from the virtual
 * clock and the recording, never from the machine: the same recording, config and seed give
 * the same bytes. Money is full precision; times are ms since the epoch (exchange time).
 */
import type { StrategyErrorReport } from '../../runtime/strategy-errors.ts';

export const REPORT_FORMAT = 'linesmith.backtest-report';
export const REPORT_VERSION = 1;

export interface PnlMetrics {
  /** Graded P&L of the games with a recorded result, net of commission. */
  readonly settled: number;
  /** Open bets (games without a result) valued at the last consensus fair price. */
  readonly marked: number;
  readonly total: number;
  /** Commission on graded fills. */
  readonly commissionPaid: number;
  /**
   * The most commission the open (ungraded) taker fills can still be charged: per fill the larger
   * of its fee on a win and on a loss. Marked P&L already counts the expected fee.
   */
  readonly commissionAccrued: number;
}

export interface MarkoutMetrics {
  /** Fills that had a fair price at the horizon. */
  readonly fills: number;
  /** Σ over fills of the fill's value at the fair price `horizon` later (positive: we were right). */
  readonly total: number;
  /** total / Σ stake: value per unit staked. */
  readonly perStake: number;
}

export interface BreakdownRow {
  readonly fills: number;
  readonly makerVolume: number;
  readonly takerVolume: number;
  readonly settledPnl: number;
  readonly markedPnl: number;
}

export interface GameRow extends BreakdownRow {
  readonly gameID: string;
  readonly league: string;
  readonly name: string;
  /** `settled`: a recorded result graded it; `marked`: none, valued at the last fair price. */
  readonly settlement: 'settled' | 'marked' | 'none';
  readonly score: { readonly away: number; readonly home: number } | null;
  /** Most negative worst case seen on the game, resting orders included (≤ 0). */
  readonly maxLiability: number;
  readonly markets: readonly (BreakdownRow & { readonly market: string })[];
}

export interface BacktestMetrics {
  readonly pnl: PnlMetrics;
  readonly volume: {
    readonly fills: number;
    readonly makerFills: number;
    readonly takerFills: number;
    readonly maker: number;
    readonly taker: number;
  };
  readonly orders: {
    /** Orders placed and accepted (an edit's new terms are not counted here, but in `edited`). */
    readonly placed: number;
    /** Orders we cancelled (a partly filled order an edit replaced is counted in `edited`, not here). */
    readonly cancelled: number;
    /** Edits the exchange carried out: each one request instead of a cancel and a place. */
    readonly edited: number;
    /** Of those, edits of a partly filled order: cancelled and replaced by a new order for the whole new volume. */
    readonly editsReplacing: number;
    /** Edits the exchange refused (the order was gone, or the new terms broke a rule). */
    readonly editsRejected: number;
    readonly refusedByRisk: number;
    readonly rejectedByExchange: number;
    readonly postArb: number;
    /** Terms offered with at least one fill / terms offered (each place and each edit's new terms is one row of orders.csv). */
    readonly fillRatio: number;
    /** Stake matched / stake offered, over every row of orders.csv accepted. */
    readonly stakeFillRatio: number;
  };
  readonly markout: { readonly '5s': MarkoutMetrics; readonly '60s': MarkoutMetrics };
  /** Largest fall of total P&L (settled + marked, sampled) from a previous high (≥ 0). */
  readonly maxDrawdown: number;
  /** Most negative worst case over all games at once, resting orders included (≤ 0). */
  readonly maxLiability: number;
}

/** `[t, value…]` rows, sampled on the virtual clock. */
export type SeriesRow = readonly number[];

export interface BacktestSeries {
  readonly sampleMs: number;
  /** [t, settled, marked, total] */
  readonly pnl: readonly SeriesRow[];
  /** Per game: [t, worst case with resting orders, worst case of matched bets only] */
  readonly liability: Readonly<Record<string, readonly SeriesRow[]>>;
  /** Per game and book, our best listed odds against the recorded market's, per side: [t, ours0, market0, ours1, market1] (null: none). */
  readonly quotes: readonly {
    readonly gameID: string;
    readonly bookKey: string;
    readonly rows: readonly (readonly (number | null)[])[];
  }[];
  /** One row per fill: [t, stake, value at fill, value 5 s later, value 60 s later] (null: no fair price). */
  readonly markouts: readonly (readonly (number | null)[])[];
}

export interface BacktestReport {
  readonly format: typeof REPORT_FORMAT;
  readonly version: number;
  readonly run: {
    readonly config: string;
    readonly strategies: readonly { readonly id: string; readonly module: string; readonly params: unknown }[];
    readonly recording: {
      readonly files: readonly string[];
      readonly sessions: readonly string[];
      readonly start: number;
      readonly end: number;
      readonly complete: boolean;
    };
    readonly seed: number;
    readonly fillModel: unknown;
    readonly latency: unknown;
    readonly balance: number;
    readonly commission: number;
  };
  readonly input: {
    readonly events: number;
    readonly priceFrames: number;
    readonly malformedFrames: number;
    readonly unknownFrameTypes: number;
    readonly badLines: number;
    /** The first skipped lines, `file:line: problem: detail`. */
    readonly problems: readonly string[];
  };
  readonly metrics: BacktestMetrics;
  readonly games: readonly GameRow[];
  readonly markets: readonly (BreakdownRow & { readonly market: string })[];
  readonly strategies: readonly (BreakdownRow & { readonly strategy: string })[];
  readonly execution: Readonly<Record<string, number>>;
  /** Strategy errors: failed quote() calls and malformed intents, by strategy, kind and distinct error. */
  readonly strategyErrors: StrategyErrorReport;
  /** Games whose bets were valued at the last fair price because the recording has no result. */
  readonly notes: readonly string[];
  readonly series: BacktestSeries;
}

/** A game as report.html names it. */
export interface GameInfo {
  readonly league: string;
  readonly away: string;
  readonly home: string;
  /** Start time, ms since the epoch; null when unknown. */
  readonly start: number | null;
}

/**
 * What report.html draws beyond report.json, kept out of the JSON (whose bytes the golden
 * reports hold): the games by name and P&L over time per strategy and per league.
 */
export interface ReportExtras {
  /** Every game the series name (fills, open orders). */
  readonly games: Readonly<Record<string, GameInfo>>;
  /** Per strategy id: [t, settled + marked] per sample, from the strategy's first fill. */
  readonly pnlByStrategy: Readonly<Record<string, readonly SeriesRow[]>>;
  /** Per league ('' unknown), as pnlByStrategy. */
  readonly pnlByLeague: Readonly<Record<string, readonly SeriesRow[]>>;
}

/** One of our fills, for fills.csv. */
export interface FillRow {
  readonly t: number;
  readonly txID: string;
  readonly orderID: string;
  readonly strategy: string;
  readonly gameID: string;
  readonly market: string;
  readonly selection: string;
  readonly origin: 'offer' | 'wager';
  readonly isPostArb: boolean;
  readonly odds: number;
  readonly amount: number;
  readonly risk: number;
  readonly win: number;
  readonly commissionOnWin: number;
  readonly commissionOnLoss: number;
}

/** One of our orders, for orders.csv. */
export interface OrderRow {
  readonly placedAt: number;
  readonly orderID: string;
  readonly userReference: string;
  readonly strategy: string;
  readonly gameID: string;
  readonly market: string;
  readonly selection: string;
  readonly orderType: string;
  readonly odds: number;
  readonly bet: number;
  readonly filled: number;
  /** open, filled, cancelled, expired, edited (its terms changed by an edit: the row that follows holds them), or rejected with its errorType. */
  readonly status: string;
  readonly closedAt: number | null;
  /**
   * Set on the row of an edit's new terms: the id of the order the edit changed (the same
   * as `orderID` when it was amended in place; another when a partly filled order was
   * replaced). Fills after the edit count on this row. Empty on a placed order's row.
   */
  readonly editOf: string;
}

export interface BacktestResult {
  readonly report: BacktestReport;
  /** What report.html draws beyond the report (not in report.json). */
  readonly extras: ReportExtras;
  readonly fills: readonly FillRow[];
  readonly orders: readonly OrderRow[];
  /** Items replayed (frames, snapshots, results, gaps). */
  readonly events: number;
  /** The strategy error the replay stopped at (stopAtStrategyError), else null. */
  readonly stoppedAt: StrategyErrorEvent | null;
}
