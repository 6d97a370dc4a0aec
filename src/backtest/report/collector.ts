import type {
  EditInput,
  EngineEvent,
  Fill,
  FillSide,
  GradeVersion,
  OrderView,
  PlaceInput,
  PlaceOutcome,
} from '../../engine/types.ts';
import type { EditOutcome } from '../../sim/ops/edit.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../../markets/types.ts';
import type { Clock } from '../../shared/clock.ts';
import type { BacktestExecution } from '../venue/execution.ts';
import { US } from '../venue/execution.ts';
import { FairMarks } from './fair-marks.ts';
import { GroupPnl, type PnlGroup } from './group-pnl.ts';
import { OpenMarks, type GroupedFill, type MarkGroup } from './open-marks.ts';
import { OpenOrders } from './open-orders.ts';
import { PlacementSum } from './placement-sum.ts';
import { quoteBookOrder, QuoteSeries, type QuotedOrder } from './quote-series.ts';
import { MemoryRows, type ReportRowSinks } from './rows.ts';
import { ThinnedSeries } from './thinned-series.ts';
import { selectionLabel } from './selection-label.ts';
import { StrategyOf } from './strategy-of.ts';
import type {
  BacktestMetrics,
  BacktestSeries,
  BreakdownRow,
  FillRow,
  GameInfo,
  GameRow,
  MarkoutMetrics,
  OrderRow,
  ReportExtras,
  SeriesRow,
} from './types.ts';

/** Horizons of the mark-outs, ms. */
export const MARKOUT_MS = [5_000, 60_000] as const;

/** A one-shot work with its two arguments, `delayMs` from now on the virtual clock. */
export type MarkoutPost = <A, B>(work: (a: A, b: B) => void, delayMs: number, a: A, b: B) => void;

interface OwnFillRecord extends GroupedFill {
  readonly row: FillRow;
  readonly selection: Selection;
  readonly bookKey: string;
  /** Its strategy's and its league's (the league of its game, '' unknown) P&L groups in report.html. */
  readonly byStrategy: PnlGroup;
  readonly byLeague: PnlGroup;
  /** The two, whose marked P&L the open marks keep. */
  readonly markGroups: readonly MarkGroup[];
  /** Value at fair at the fill and at each horizon; null while unknown or without a fair price. */
  readonly values: (number | null)[];
}

/** What the samples keep of one game: one record, so a sample looks a game up once. */
interface GameTrack {
  readonly id: string;
  /** Whether we have a fill on it (it is then in #fillGames). */
  filled: boolean;
  /** Most negative projected liability seen, at fills and samples (≤ 0). */
  deepest: number;
  /** Its liability series, from its first sample while not ended (at most SERIES_MAX_ROWS rows). */
  series: ThinnedSeries | null;
  /** The sample that last took it: a game with fills and open orders is taken once. */
  sampled: number;
}

interface OrderRecord {
  /** 0, 1, 2, … in the order the rows were made: orders.csv's order in memory, and the sums'. */
  readonly seq: number;
  /** When its row became final (it ended, or the exchange refused it); null while open. */
  endedAt: number | null;
  placedAt: number;
  orderID: string;
  readonly userReference: string;
  readonly strategy: string;
  readonly gameID: string;
  readonly market: string;
  selection: string;
  readonly orderType: string;
  readonly odds: number;
  readonly bet: number;
  filled: number;
  status: string;
  closedAt: number | null;
  /** The edited order's id on an edit's row; '' on a place's. */
  readonly editOf: string;
}

interface Acc {
  fills: number;
  makerVolume: number;
  takerVolume: number;
  settledPnl: number;
  markedPnl: number;
}

const acc = (): Acc => ({ fills: 0, makerVolume: 0, takerVolume: 0, settledPnl: 0, markedPnl: 0 });
const QUOTE_SERIES_KEPT = 12;
/** Samples between two looks for quoted books that are done (QuoteSeries.retire). */
const QUOTE_RETIRE_EVERY = 30;

/**
 * Everything the report measures, from the exchange's side (the engine's events and book),
 * not from the bot's own opinion: fills, orders, grades, and samples on the virtual clock
 * of P&L, liability and our quotes against the recorded market.
 */
export class BacktestCollector {
  readonly #clock: Clock;
  readonly #x: BacktestExecution;
  readonly #post: MarkoutPost;
  readonly #fills: OwnFillRecord[] = [];
  /** Where rows go: the caller's (a file written as the replay goes), or kept here for the result. */
  readonly #rows: ReportRowSinks;
  readonly #kept: { readonly orders: MemoryRows<OrderRow>; readonly fills: MemoryRows<FillRow> } | null;
  /**
   * Orders whose rows are final, waiting to be handed on at a later instant: an edit's outcome
   * still changes the row of the order it cancelled (`edited (replaced)`), in the same instant.
   */
  readonly #ended: (OrderRecord | undefined)[] = [];
  /** How many of #ended wait: the list is filled again in place, not emptied (an emptied array lets its store go). */
  #endedCount = 0;
  readonly #strategyOf = new StrategyOf();
  #orderSeq = 0;
  /** Orders whose rows were handed on. */
  #rowsOut = 0;
  /** Rows made and rows the exchange accepted (not refused). */
  #rowsMade = 0;
  #accepted = 0;
  /** Accepted rows with a fill, and accepted rows that placed an order (not an edit's). */
  #acceptedFilled = 0;
  #placed = 0;
  /** Σ stake offered over accepted rows, in placement order (known when placed). */
  #offered = 0;
  /** Σ stake matched over accepted rows, in placement order (known when each ends). */
  readonly #matched = new PlacementSum();
  /**
   * A taker order matched in full never rests, so only its fills name its id. The engine
   * delivers an order's events before its place call returns, so the fills come before
   * the outcome that makes the row: the id waits here, by userReference, for its row.
   */
  readonly #takerFills = new Map<string, string>();
  /** Open orders by the engine's id, and ended ones until their rows are handed on. */
  readonly #orderByEngineId = new Map<string, OrderRecord>();
  readonly #grades = new Map<string, GradeVersion>();
  /** Σ result over #grades, in their order; null when a grade came since it was summed. */
  #settledPnl: number | null = 0;
  /** Fills not graded when last looked at, in fill order: what #pnlNow marks. */
  readonly #unsettled: OpenMarks<OwnFillRecord>;
  /** #grades.size when #unsettled was last filtered (grades are never removed). */
  #unsettledAt = 0;
  readonly #marks: FairMarks;
  readonly #games = new Map<string, GameTrack>();
  /** Games with a fill of ours, in the order of their first fill (as a set made from #fills would be). */
  readonly #fillGames: GameTrack[] = [];
  readonly #scores = new Map<string, { away: number; home: number }>();
  readonly #pnl = new ThinnedSeries();
  readonly #quotes = new QuoteSeries(QUOTE_SERIES_KEPT);
  /** P&L per strategy and per league over time: report.html's, not report.json's. */
  readonly #byStrategy = new GroupPnl();
  readonly #byLeague = new GroupPnl();
  readonly #fillByTx = new Map<string, OwnFillRecord>();
  /** Our open orders, oldest first, kept from the events: a sample needs no view of each from the engine. */
  readonly #open = new OpenOrders<QuotedOrder<GameTrack>>((o) => this.#quotes.quoted(o, this.#game(o.gameID)));
  /** Counts samples, so each can mark the games it took (GameTrack.sampled). */
  #sampleSeq = 0;
  #peak = 0;
  #maxDrawdown = 0;
  #maxLiability = 0;
  #cancelled = 0;
  #edited = 0;
  #editsReplacing = 0;
  #editsRejected = 0;

  constructor(o: {
    clock: Clock;
    execution: BacktestExecution;
    /**
     * Runs a one-shot work on the virtual clock (ManualTimeSource.post): the mark-outs, two per
     * fill, with their fill and horizon as arguments rather than a closure and an action each.
     */
    post: MarkoutPost;
    /** Where orders.csv's and fills.csv's rows go as they become final; without it they are kept for the result. */
    rows?: ReportRowSinks;
  }) {
    this.#kept = o.rows ? null : { orders: new MemoryRows(), fills: new MemoryRows() };
    this.#rows = o.rows ?? this.#kept!;
    this.#clock = o.clock;
    this.#x = o.execution;
    this.#post = o.post;
    this.#marks = new FairMarks(o.execution.recorded);
    this.#unsettled = new OpenMarks(this.#marks);
  }

  // ------------------------------------------------------------ events

  onPlaceOutcome(input: PlaceInput, outcome: PlaceOutcome): void {
    this.#record(
      outcome,
      typeof input.userReference === 'string' ? input.userReference : '',
      typeof input.gameID === 'string' ? input.gameID : '',
      typeof input.type === 'string' ? input.type : '',
      selectionOrNothing(this.#x.selectionOf(input)),
      typeof input.orderType === 'string' ? input.orderType : 'limit',
      typeof input.odds === 'number' ? input.odds : 0,
      typeof input.bet === 'number' ? input.bet : 0,
      '',
    );
  }

  /**
   * An edit's outcome. The edited order's row closes as `edited`, and the new terms get a
   * row of their own (`editOf` naming the edited order) that the fills from then on count
   * on. A partly filled order's edit cancelled it: that cancel is the edit's, not one of ours.
   */
  onEditOutcome(input: EditInput, outcome: EditOutcome): void {
    if (outcome.status !== 'ok') {
      this.#editsRejected++;
      return;
    }
    const original = outcome.edit.original;
    const replaced = outcome.edit.mode === 'replaced';
    this.#edited++;
    if (replaced) this.#editsReplacing++;
    const old = this.#orderByEngineId.get(original.id);
    if (old) {
      if (replaced && old.status === 'cancelled') this.#cancelled--;
      old.status = replaced ? 'edited (replaced)' : 'edited';
      old.closedAt = this.#clock.now();
      this.#end(old);
    }
    const ref = typeof input.userReference === 'string' ? input.userReference : (original.userReference ?? '');
    const rec = this.#record(
      outcome,
      ref,
      original.gameID,
      old?.market ?? original.wire.type,
      old?.selection ?? selectionLabel(original.selection),
      typeof input.orderType === 'string' ? input.orderType : original.orderType,
      typeof input.orderOdds === 'number' ? input.orderOdds : original.odds,
      typeof input.orderVolume === 'number' ? input.orderVolume : original.bet,
      original.id,
    );
    // An amended order keeps its id: matched in full, it left the book without an event of its own.
    if (!replaced && !outcome.unmatched) {
      rec.orderID ||= original.id;
      this.#orderByEngineId.set(original.id, rec);
      this.#open.drop(original.id);
    }
  }

  /** The row of an order's (or an edit's) outcome; its terms as arguments, not an object made per order. */
  #record(
    outcome: PlaceOutcome,
    ref: string,
    gameID: string,
    market: string,
    selection: string,
    orderType: string,
    odds: number,
    bet: number,
    editOf: string,
  ): OrderRecord {
    const ok = outcome.status === 'ok';
    const now = this.#clock.now();
    // Every field named, in one order: one shape for every record.
    const rec: OrderRecord = {
      seq: this.#orderSeq++,
      endedAt: null,
      placedAt: now,
      orderID: ok && outcome.unmatched ? outcome.unmatched.orderID : '',
      strategy: this.#strategyOf.read(ref),
      userReference: ref,
      gameID,
      market,
      selection,
      orderType,
      odds,
      bet,
      editOf,
      filled: 0,
      status: ok ? (outcome.unmatched ? 'open' : 'filled') : `rejected: ${outcome.errorType}`,
      closedAt: ok && !outcome.unmatched ? now : null,
    };
    this.#rowsMade++;
    if (ok) {
      this.#accepted++;
      if (editOf === '') this.#placed++;
      this.#offered += rec.bet;
    }
    if (this.#takerFills.size > 0) {
      const taken = this.#takerFills.get(ref);
      this.#takerFills.delete(ref);
      if (!rec.orderID && taken !== undefined && ok) rec.orderID = taken;
    }
    if (rec.orderID) this.#orderByEngineId.set(rec.orderID, rec);
    if (outcome.status === 'ok') {
      for (const m of outcome.matched) rec.filled += m.amount;
      if (!outcome.unmatched && rec.filled < rec.bet - 1e-9)
        rec.status = rec.filled > 0 ? 'filled (rest killed)' : 'killed';
    }
    if (rec.status !== 'open') this.#end(rec);
    return rec;
  }

  onOwnEvent(e: EngineEvent): void {
    this.#open.onEvent(e);
    switch (e.kind) {
      case 'fill':
        this.#onFill(e.fill);
        return;
      case 'orderCancelled':
      case 'orderExpired':
        if (e.kind === 'orderCancelled' && e.order.closeReason === 'user') this.#cancelled++;
        this.#close(e.order, e.kind === 'orderCancelled' ? 'cancelled' : 'expired');
        return;
      case 'betGraded': {
        const f = this.#fillByTx.get(e.grade.txID);
        if (f) {
          const delta = e.grade.result - (this.#grades.get(e.grade.txID)?.result ?? 0);
          this.#byStrategy.graded(f.byStrategy, delta);
          this.#byLeague.graded(f.byLeague, delta);
        }
        this.#grades.set(e.grade.txID, e.grade);
        this.#settledPnl = null;
        if (e.grade.score) this.#scores.set(e.grade.gameID, { away: e.grade.score.away, home: e.grade.score.home });
        return;
      }
      default:
        return;
    }
  }

  #game(id: string): GameTrack {
    let g = this.#games.get(id);
    if (!g) this.#games.set(id, (g = { id, filled: false, deepest: 0, series: null, sampled: 0 }));
    return g;
  }

  #close(o: OrderView, status: string): void {
    const rec = this.#orderByEngineId.get(o.id);
    if (!rec) return;
    rec.status = o.closeReason && o.closeReason !== 'user' ? `${status} (${o.closeReason})` : status;
    rec.closedAt = this.#clock.now();
    this.#end(rec);
  }

  /**
   * The order's row is final but for an edit's outcome in the same instant: it waits for the
   * next sample or the next order that ends at a later instant, whichever comes first. Rows
   * leave in the order their orders ended either way; a run with no samples (or a long gap
   * between two) holds only the orders of the current instant.
   */
  #end(rec: OrderRecord): void {
    if (rec.endedAt !== null) return;
    const now = this.#clock.now();
    rec.endedAt = now;
    if (this.#endedCount > 0 && this.#ended[0]!.endedAt! < now) this.#handOn(now);
    this.#ended[this.#endedCount++] = rec;
  }

  /**
   * Hands on the rows of orders that ended before `before` (every one when null), in the
   * order they ended, and forgets those orders: what grows with the recording leaves here.
   */
  #handOn(before: number | null): void {
    const ended = this.#ended;
    const count = this.#endedCount;
    let n = 0;
    for (; n < count; n++) {
      const rec = ended[n]!;
      if (before !== null && rec.endedAt! >= before) break;
      this.#out(rec);
    }
    if (n === 0) return;
    // The rest move to the front; the slots behind them let their records go.
    for (let i = n; i < count; i++) ended[i - n] = ended[i];
    for (let i = count - n; i < count; i++) ended[i] = undefined;
    this.#endedCount = count - n;
  }

  #out(rec: OrderRecord): void {
    if (rec.orderID && this.#orderByEngineId.get(rec.orderID) === rec) this.#orderByEngineId.delete(rec.orderID);
    const accepted = !rec.status.startsWith('rejected');
    if (accepted && rec.filled > 0) this.#acceptedFilled++;
    this.#matched.set(rec.seq, accepted ? rec.filled : null);
    this.#rowsOut++;
    this.#rows.orders.push(orderRow(rec), rec.seq);
  }

  /** What the collector holds that grows with the replay, for the tests that keep it bounded. */
  get retained(): { readonly orders: number; readonly quoteBooks: number; readonly quoteRows: number } {
    return {
      orders: this.#orderSeq - this.#rowsOut,
      quoteBooks: this.#quotes.books.length,
      quoteRows: this.#quotes.books.reduce((n, b) => n + b.rows.length, 0),
    };
  }

  #onFill(f: Fill): void {
    const ours: FillSide = f.maker.userId === US ? f.maker : f.taker;
    const origin = f.maker.userId === US ? 'offer' : 'wager';
    const now = this.#clock.now();
    const bookKey = bookKeyOf(ours.selection);
    const row: FillRow = {
      t: now,
      txID: f.txID,
      orderID: ours.orderID,
      strategy: this.#strategyOf.read(ours.userReference),
      gameID: f.gameID,
      market: bookKey,
      selection: selectionLabel(ours.selection),
      origin,
      isPostArb: f.isPostArb && origin === 'wager',
      odds: ours.money.odds,
      amount: ours.money.amount,
      risk: ours.money.risk,
      win: ours.money.win,
      commissionOnWin: ours.money.commissionOnWin,
      commissionOnLoss: ours.money.commissionOnLoss,
    };
    const league = this.#x.game(f.gameID)?.league ?? '';
    const byStrategy = this.#byStrategy.add(row.strategy);
    const byLeague = this.#byLeague.add(league);
    const rec: OwnFillRecord = {
      row,
      selection: ours.selection,
      bookKey,
      byStrategy,
      byLeague,
      markGroups: [byStrategy, byLeague],
      fair: this.#marks.bookFair(f.gameID, bookKey),
      side: sideIndexOf(ours.selection),
      values: [null, null, null],
    };
    this.#fillByTx.set(f.txID, rec);
    this.#quotes.fill(f.gameID, bookKey, now);
    rec.values[0] = this.#marks.now(rec);
    this.#rows.fills.push(row, this.#fills.length);
    this.#fills.push(rec);
    this.#unsettled.add(rec);
    const game = this.#game(f.gameID);
    if (!game.filled) {
      game.filled = true;
      this.#fillGames.push(game);
    }
    this.#post(this.#markOut, MARKOUT_MS[0], rec, 1);
    this.#post(this.#markOut, MARKOUT_MS[1], rec, 2);
    const order = this.#orderByEngineId.get(ours.orderID);
    if (order && origin === 'offer') {
      order.filled += ours.money.amount;
      if (f.makerOrderAfter.status === 'filled') {
        order.status = 'filled';
        order.closedAt = now;
        this.#end(order);
      }
    } else if (!order && origin === 'wager' && ours.userReference) {
      this.#takerFills.set(ours.userReference, ours.orderID);
    }
    this.#noteLiability(game);
  }

  /** A fill's value at fair at one horizon: `values[at]`, at 1 the first of MARKOUT_MS. */
  readonly #markOut = (rec: OwnFillRecord, at: number): void => {
    rec.values[at] = this.#marks.now(rec);
  };

  #noteLiability(g: GameTrack): number {
    const l = this.#x.engine.gameProjectedLiability(US, g.id);
    g.deepest = Math.min(g.deepest, l);
    return l;
  }

  // ------------------------------------------------------------ samples

  /** One sample of every series, at the virtual clock's now. */
  sample(): void {
    const t = this.#clock.now();
    this.#handOn(t);
    const { settled, marked } = this.#pnlNow();
    this.#byStrategy.sample(t);
    this.#byLeague.sample(t);
    const total = settled + marked;
    if (this.#pnl.wants()) this.#pnl.push([t, settled, marked, total]);
    this.#peak = Math.max(this.#peak, total);
    this.#maxDrawdown = Math.max(this.#maxDrawdown, this.#peak - total);
    // Games with fills in the order of their first fill, then the others with open orders in
    // the order of their oldest: `all` is a float sum, so this order is part of the result.
    const stamp = ++this.#sampleSeq;
    let all = 0;
    for (const g of this.#fillGames) {
      g.sampled = stamp;
      const l = this.#sampleGame(g, t);
      if (l !== null) all += l;
    }
    for (const o of this.#open.values()) {
      const g = o.game;
      if (g.sampled === stamp) continue;
      g.sampled = stamp;
      const l = this.#sampleGame(g, t);
      if (l !== null) all += l;
    }
    this.#maxLiability = Math.min(this.#maxLiability, all);
    this.#quotes.sample(t, this.#open.values(), this.#x.recorded);
    if (stamp % QUOTE_RETIRE_EVERY === 0) this.#quotes.retire(t, this.#gameEnded);
  }

  /** The game's liability row now; null (and no row) once it ended. */
  #sampleGame(g: GameTrack, t: number): number | null {
    const engine = this.#x.engine;
    if (this.#x.gameSettled(g.id)) {
      g.series?.trim();
      return null;
    }
    const withResting = this.#noteLiability(g);
    const series = (g.series ??= new ThinnedSeries());
    if (series.wants()) series.push([t, withResting, engine.gameLiability(US, g.id)]);
    return withResting;
  }

  readonly #gameEnded = (id: string): boolean => this.#x.hasEnded(id);

  #pnlNow(): { settled: number; marked: number } {
    if (this.#settledPnl === null) {
      let settled = 0;
      for (const g of this.#grades.values()) settled += g.result;
      this.#settledPnl = settled;
    }
    const grades = this.#grades;
    if (this.#unsettledAt !== grades.size) {
      this.#unsettled.retain((f) => !grades.has(f.row.txID));
      this.#unsettledAt = grades.size;
    }
    return { settled: this.#settledPnl, marked: this.#unsettled.sum() };
  }

  // ------------------------------------------------------------ the end

  finish(
    runtimeStats: { riskRejected: number; exchangeRejected: number; postArb: number },
    gameInfo: (id: string) => GameInfo | null,
  ) {
    const { settled, marked } = this.#pnlNow();
    // Every row now: the ended orders', then the open orders' in the order they were placed.
    this.#handOn(null);
    const open = [...new Set(this.#orderByEngineId.values())].filter((r) => r.endedAt === null);
    for (const rec of open.sort((a, b) => a.seq - b.seq)) this.#out(rec);
    let commissionPaid = 0;
    for (const g of this.#grades.values()) commissionPaid += g.fee;
    let accrued = 0;
    const byGame = new Map<string, Acc & { markets: Map<string, Acc> }>();
    const byMarket = new Map<string, Acc>();
    const byStrategy = new Map<string, Acc>();
    let makerFills = 0;
    let maker = 0;
    let taker = 0;
    for (const f of this.#fills) {
      const grade = this.#grades.get(f.row.txID);
      const settledPnl = grade ? grade.result : 0;
      const markedPnl = grade ? 0 : (this.#marks.now(f) ?? 0);
      if (!grade && f.row.origin === 'wager') accrued += Math.max(f.row.commissionOnWin, f.row.commissionOnLoss);
      const g = byGame.get(f.row.gameID) ?? { ...acc(), markets: new Map<string, Acc>() };
      byGame.set(f.row.gameID, g);
      const gm = g.markets.get(f.bookKey) ?? acc();
      g.markets.set(f.bookKey, gm);
      const m = byMarket.get(f.selection.type) ?? acc();
      byMarket.set(f.selection.type, m);
      const s = byStrategy.get(f.row.strategy) ?? acc();
      byStrategy.set(f.row.strategy, s);
      for (const a of [g, gm, m, s]) {
        a.fills++;
        if (f.row.origin === 'offer') a.makerVolume += f.row.amount;
        else a.takerVolume += f.row.amount;
        a.settledPnl += settledPnl;
        a.markedPnl += markedPnl;
      }
      if (f.row.origin === 'offer') {
        makerFills++;
        maker += f.row.amount;
      } else taker += f.row.amount;
    }
    const accepted = this.#accepted;
    const offered = this.#offered;
    const row = (a: Acc): BreakdownRow => ({
      fills: a.fills,
      makerVolume: a.makerVolume,
      takerVolume: a.takerVolume,
      settledPnl: a.settledPnl,
      markedPnl: a.markedPnl,
    });
    const games: GameRow[] = [...byGame.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([gameID, a]) => {
        const score = this.#scores.get(gameID) ?? null;
        const info = gameInfo(gameID);
        const settlement: GameRow['settlement'] = score ? 'settled' : a.fills > 0 ? 'marked' : 'none';
        return {
          gameID,
          league: info?.league ?? '',
          name: info ? `${info.away} @ ${info.home}` : '',
          settlement,
          score,
          maxLiability: this.#games.get(gameID)?.deepest ?? 0,
          ...row(a),
          markets: [...a.markets.entries()]
            .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
            .map(([market, r]) => ({ market, ...row(r) })),
        };
      });
    const markout = (i: number): MarkoutMetrics => {
      let n = 0;
      let total = 0;
      let stake = 0;
      for (const f of this.#fills) {
        const v = f.values[i + 1];
        if (v === null || v === undefined) continue;
        n++;
        total += v;
        stake += f.row.amount;
      }
      return { fills: n, total, perStake: stake > 0 ? total / stake : 0 };
    };
    const metrics: BacktestMetrics = {
      pnl: { settled, marked, total: settled + marked, commissionPaid, commissionAccrued: accrued },
      volume: { fills: this.#fills.length, makerFills, takerFills: this.#fills.length - makerFills, maker, taker },
      orders: {
        placed: this.#placed,
        cancelled: this.#cancelled,
        edited: this.#edited,
        editsReplacing: this.#editsReplacing,
        editsRejected: this.#editsRejected,
        refusedByRisk: runtimeStats.riskRejected,
        rejectedByExchange: this.#rowsMade - accepted,
        postArb: runtimeStats.postArb,
        fillRatio: accepted > 0 ? this.#acceptedFilled / accepted : 0,
        stakeFillRatio: offered > 0 ? this.#matched.total() / offered : 0,
      },
      markout: { '5s': markout(0), '60s': markout(1) },
      maxDrawdown: this.#maxDrawdown,
      maxLiability: this.#maxLiability,
    };
    // Keys are unique, so the order books were first quoted in does not reach the report.
    const quotes = [...this.#quotes.books]
      .sort(quoteBookOrder)
      .slice(0, QUOTE_SERIES_KEPT)
      .map((b) => ({ gameID: b.gameID, bookKey: b.bookKey, rows: b.rows }));
    const series: Omit<BacktestSeries, 'sampleMs'> = {
      pnl: this.#pnl.rows,
      liability: liabilityRows(this.#games.values()),
      quotes,
      markouts: this.#fills.map((f) => [f.row.t, f.row.amount, ...f.values]),
    };
    const named: Record<string, GameInfo> = {};
    for (const id of [...this.#games.keys()].sort()) {
      const info = gameInfo(id);
      if (info) named[id] = info;
    }
    const extras: ReportExtras = {
      games: named,
      pnlByStrategy: this.#byStrategy.series(),
      pnlByLeague: this.#byLeague.series(),
    };
    return {
      metrics,
      extras,
      games,
      markets: [...byMarket.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([market, a]) => ({ market, ...row(a) })),
      strategies: [...byStrategy.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([strategy, a]) => ({ strategy, ...row(a) })),
      series,
      fills: this.#kept?.fills.rows() ?? [],
      orders: this.#kept?.orders.rows() ?? [],
    };
  }
}

/** An order's row, its fields in the order report has always listed them. */
function orderRow(o: OrderRecord): OrderRow {
  return {
    placedAt: o.placedAt,
    orderID: o.orderID,
    strategy: o.strategy,
    userReference: o.userReference,
    gameID: o.gameID,
    market: o.market,
    selection: o.selection,
    orderType: o.orderType,
    odds: o.odds,
    bet: o.bet,
    editOf: o.editOf,
    filled: o.filled,
    status: o.status,
    closedAt: o.closedAt,
  };
}

function selectionOrNothing(s: Selection | null): string {
  return s ? selectionLabel(s) : '';
}

/**
 * Each game's liability series by game id (in id order), its rows made as a key is read
 * rather than all at once. Over the 1.7M-event recording the 660 games' rows were 13 MB of
 * report.json and some 36 MB of lists; written, one game's rows at a time are alive, not all
 * of them beside the text. Every read of a key makes its rows afresh, equal each time.
 */
function liabilityRows(games: Iterable<GameTrack>): Record<string, SeriesRow[]> {
  const sampled: [string, ThinnedSeries][] = [];
  for (const g of games) if (g.series) sampled.push([g.id, g.series]);
  sampled.sort(([a], [b]) => (a < b ? -1 : 1));
  const out: Record<string, SeriesRow[]> = {};
  for (const [id, series] of sampled) {
    Object.defineProperty(out, id, { enumerable: true, configurable: true, get: () => series.rows });
  }
  return out;
}
