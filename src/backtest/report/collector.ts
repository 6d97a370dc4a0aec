import type { EngineEvent, Fill, FillSide, GradeVersion, OrderView, PlaceInput, PlaceOutcome } from '../../engine/types.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../../markets/types.ts';
import { invertOdds, oddsRank } from '../../odds/american.ts';
import { decodeReference } from '../../orders/user-reference.ts';
import type { Clock } from '../../shared/clock.ts';
import { consensusFair } from '../../strategy/fair.ts';
import type { BacktestExecution } from '../venue/execution.ts';
import { US } from '../venue/execution.ts';
import { selectionLabel } from './selection-label.ts';
import type { BacktestMetrics, BacktestSeries, BreakdownRow, FillRow, GameRow, MarkoutMetrics, OrderRow, SeriesRow } from './types.ts';

/** Horizons of the mark-outs, ms. */
export const MARKOUT_MS = [5_000, 60_000] as const;

/** A recorded book's fair price as the report reads it, shared by our fills on the book. */
interface BookFair {
  readonly gameID: string;
  readonly bookKey: string;
  /** The last consensus the book had: what counts while it has none. */
  last: number | null;
  /** The price read in #pnlNow's pass `pass`: the market cannot move within one pass. */
  pass: number;
  inPass: number | null;
}

interface OwnFillRecord {
  readonly row: FillRow;
  readonly selection: Selection;
  readonly bookKey: string;
  readonly fair: BookFair;
  /** Side of the selection in its book: the fair price is of side 0. */
  readonly side: 0 | 1;
  /** Value at fair at the fill and at each horizon; null while unknown or without a fair price. */
  readonly values: (number | null)[];
}

interface OrderRecord {
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

/** Value of a bet at win probability p: what it is worth on average. */
const valueAt = (p: number, f: { win: number; risk: number }) => p * f.win - (1 - p) * f.risk;

/**
 * Everything the report measures, from the exchange's side (the engine's events and book),
 * not from the bot's own opinion: fills, orders, grades, and samples on the virtual clock
 * of P&L, liability and our quotes against the recorded market.
 */
export class BacktestCollector {
  readonly #clock: Clock;
  readonly #x: BacktestExecution;
  readonly #schedule: (work: () => void, delayMs: number) => void;
  readonly #fills: OwnFillRecord[] = [];
  readonly #orders: OrderRecord[] = [];
  /** Taker orders that matched in full, by userReference, until a fill names their order id. */
  readonly #unnamed = new Map<string, OrderRecord>();
  readonly #orderByEngineId = new Map<string, OrderRecord>();
  readonly #grades = new Map<string, GradeVersion>();
  /** Σ result over #grades, in their order; null when a grade came since it was summed. */
  #settledPnl: number | null = 0;
  /** Fills not graded when last looked at, in fill order: what #pnlNow marks. */
  #unsettled: OwnFillRecord[] = [];
  /** #grades.size when #unsettled was last filtered (grades are never removed). */
  #unsettledAt = 0;
  /** By `gameID|bookKey`. */
  readonly #bookFairs = new Map<string, BookFair>();
  #pass = 0;
  /** Games with a fill of ours, in the order of their first fill (as a set made from #fills would be). */
  readonly #fillGames = new Set<string>();
  readonly #scores = new Map<string, { away: number; home: number }>();
  readonly #maxGameLiability = new Map<string, number>();
  readonly #pnl: SeriesRow[] = [];
  readonly #liability = new Map<string, SeriesRow[]>();
  readonly #quotes = new Map<string, (number | null)[][]>();
  #peak = 0;
  #maxDrawdown = 0;
  #maxLiability = 0;
  #cancelled = 0;

  constructor(o: { clock: Clock; execution: BacktestExecution; schedule: (work: () => void, delayMs: number) => void }) {
    this.#clock = o.clock;
    this.#x = o.execution;
    this.#schedule = o.schedule;
  }

  // ------------------------------------------------------------ events

  onPlaceOutcome(input: PlaceInput, outcome: PlaceOutcome): void {
    const ref = typeof input.userReference === 'string' ? input.userReference : '';
    const game = typeof input.gameID === 'string' ? input.gameID : '';
    const rec: OrderRecord = {
      placedAt: this.#clock.now(),
      orderID: outcome.status === 'ok' && outcome.unmatched ? outcome.unmatched.orderID : '',
      userReference: ref,
      strategy: decodeReference(ref)?.strategyId ?? '',
      gameID: game,
      market: typeof input.type === 'string' ? input.type : '',
      selection: '',
      orderType: typeof input.orderType === 'string' ? input.orderType : 'limit',
      odds: typeof input.odds === 'number' ? input.odds : 0,
      bet: typeof input.bet === 'number' ? input.bet : 0,
      filled: 0,
      status: outcome.status === 'ok' ? (outcome.unmatched ? 'open' : 'filled') : `rejected: ${outcome.errorType}`,
      closedAt: outcome.status === 'ok' && !outcome.unmatched ? this.#clock.now() : null,
    };
    this.#orders.push(rec);
    if (rec.orderID) this.#orderByEngineId.set(rec.orderID, rec);
    else if (outcome.status === 'ok') this.#unnamed.set(ref, rec);
    if (outcome.status === 'ok') {
      for (const m of outcome.matched) rec.filled += m.amount;
      if (!outcome.unmatched && rec.filled < rec.bet - 1e-9) rec.status = rec.filled > 0 ? 'filled (rest killed)' : 'killed';
    }
  }

  onOwnEvent(e: EngineEvent): void {
    switch (e.kind) {
      case 'fill':
        this.#onFill(e.fill);
        return;
      case 'orderCancelled':
      case 'orderExpired':
        if (e.kind === 'orderCancelled' && e.order.closeReason === 'user') this.#cancelled++;
        this.#close(e.order, e.kind === 'orderCancelled' ? 'cancelled' : 'expired');
        return;
      case 'orderPlaced': {
        const rec = this.#orderByEngineId.get(e.order.id);
        if (rec) rec.selection = selectionLabel(e.order.selection);
        return;
      }
      case 'betGraded':
        this.#grades.set(e.grade.txID, e.grade);
        this.#settledPnl = null;
        if (e.grade.score) this.#scores.set(e.grade.gameId, { away: e.grade.score.away, home: e.grade.score.home });
        return;
      default:
        return;
    }
  }

  #close(o: OrderView, status: string): void {
    const rec = this.#orderByEngineId.get(o.id);
    if (!rec) return;
    rec.status = o.closeReason && o.closeReason !== 'user' ? `${status} (${o.closeReason})` : status;
    rec.closedAt = this.#clock.now();
  }

  #onFill(f: Fill): void {
    const ours: FillSide = f.maker.userId === US ? f.maker : f.taker;
    const origin = f.maker.userId === US ? 'offer' : 'wager';
    const now = this.#clock.now();
    const bookKey = bookKeyOf(ours.selection);
    const row: FillRow = {
      t: now,
      txID: f.txID,
      orderID: ours.orderId,
      strategy: decodeReference(ours.userReference)?.strategyId ?? '',
      gameID: f.gameId,
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
    const rec: OwnFillRecord = { row, selection: ours.selection, bookKey, fair: this.#bookFair(f.gameId, bookKey), side: sideIndexOf(ours.selection), values: [null, null, null] };
    rec.values[0] = this.#fairValue(rec);
    this.#fills.push(rec);
    this.#unsettled.push(rec);
    this.#fillGames.add(f.gameId);
    MARKOUT_MS.forEach((ms, i) => this.#schedule(() => (rec.values[i + 1] = this.#fairValue(rec)), ms));
    const order = this.#orderByEngineId.get(ours.orderId);
    if (order && origin === 'offer') {
      order.filled += ours.money.amount;
      if (f.makerOrderAfter.status === 'filled') {
        order.status = 'filled';
        order.closedAt = now;
      }
    } else if (!order && origin === 'wager') {
      // A taker order that matched in full never rested: name it by the fill.
      const r = this.#unnamed.get(ours.userReference ?? '');
      if (r) {
        this.#unnamed.delete(ours.userReference ?? '');
        r.orderID = ours.orderId;
        r.selection = selectionLabel(ours.selection);
        this.#orderByEngineId.set(ours.orderId, r);
      }
    }
    this.#noteLiability(f.gameId);
  }

  #bookFair(gameID: string, bookKey: string): BookFair {
    const key = `${gameID}|${bookKey}`;
    let b = this.#bookFairs.get(key);
    if (!b) this.#bookFairs.set(key, (b = { gameID, bookKey, last: null, pass: 0, inPass: null }));
    return b;
  }

  /** Value of a fill of ours at fair now; `pass` (from #pnlNow) reads each book once per pass. */
  #fairValue(f: OwnFillRecord, pass = 0): number | null {
    const b = f.fair;
    let p0: number | null;
    if (pass !== 0 && b.pass === pass) p0 = b.inPass;
    else {
      p0 = this.#fair(b);
      if (pass !== 0) {
        b.pass = pass;
        b.inPass = p0;
      }
    }
    if (p0 === null) return null;
    return valueAt(f.side === 0 ? p0 : 1 - p0, f.row);
  }

  /** Win probability of side 0 of a book at the recorded market's consensus; the last one known when the book has none now. */
  #fair(b: BookFair): number | null {
    const p0 = consensusFair(this.#x.recorded.book(b.gameID, b.bookKey));
    if (p0 !== null) b.last = p0;
    return p0 ?? b.last;
  }

  #noteLiability(gameID: string): number {
    const l = this.#x.engine.gameProjectedLiability(US, gameID);
    this.#maxGameLiability.set(gameID, Math.min(this.#maxGameLiability.get(gameID) ?? 0, l));
    return l;
  }

  // ------------------------------------------------------------ samples

  /** One sample of every series, at the virtual clock's now. */
  sample(): void {
    const t = this.#clock.now();
    const { settled, marked } = this.#pnlNow();
    const total = settled + marked;
    this.#pnl.push([t, settled, marked, total]);
    this.#peak = Math.max(this.#peak, total);
    this.#maxDrawdown = Math.max(this.#maxDrawdown, this.#peak - total);
    let all = 0;
    const open = this.#x.engine.openOrders(US);
    const games = new Set(this.#fillGames);
    for (const o of open) games.add(o.gameId);
    for (const g of games) {
      if (this.#x.engine.game(g)?.ended) continue;
      const withResting = this.#noteLiability(g);
      all += withResting;
      let s = this.#liability.get(g);
      if (!s) this.#liability.set(g, (s = []));
      s.push([t, withResting, this.#x.engine.gameLiability(US, g)]);
    }
    this.#maxLiability = Math.min(this.#maxLiability, all);
    this.#sampleQuotes(t, open);
  }

  #sampleQuotes(t: number, open: readonly OrderView[]): void {
    // Our best listed odds of each side of each book, books in the order of their oldest order.
    const best = new Map<string, { readonly gameID: string; readonly bookKey: string; readonly odds: [number | null, number | null] }>();
    for (const o of open) {
      const listedSide: 0 | 1 = sideIndexOf(o.selection) === 0 ? 1 : 0;
      const key = `${o.gameId}|${o.bookKey}`;
      let cur = best.get(key);
      if (!cur) best.set(key, (cur = { gameID: o.gameId, bookKey: o.bookKey, odds: [null, null] }));
      const listed = invertOdds(o.odds);
      const prev = cur.odds[listedSide];
      if (prev === null || oddsRank(listed) > oddsRank(prev)) cur.odds[listedSide] = listed;
    }
    const recorded = this.#x.recorded;
    for (const [key, ours] of best) {
      const sides = recorded.book(ours.gameID, ours.bookKey)?.sides;
      // The recorded market's best price still available to a taker of each side.
      const m0 = sides?.[0].offers.find((x) => recorded.available(x) > 0)?.odds ?? null;
      const m1 = sides?.[1].offers.find((x) => recorded.available(x) > 0)?.odds ?? null;
      let rows = this.#quotes.get(key);
      if (!rows) this.#quotes.set(key, (rows = []));
      rows.push([t, ours.odds[0], m0, ours.odds[1], m1]);
    }
  }

  #pnlNow(): { settled: number; marked: number } {
    if (this.#settledPnl === null) {
      let settled = 0;
      for (const g of this.#grades.values()) settled += g.result;
      this.#settledPnl = settled;
    }
    const grades = this.#grades;
    if (this.#unsettledAt !== grades.size) {
      this.#unsettled = this.#unsettled.filter((f) => !grades.has(f.row.txID));
      this.#unsettledAt = grades.size;
    }
    let marked = 0;
    const pass = ++this.#pass;
    for (const f of this.#unsettled) {
      const v = this.#fairValue(f, pass);
      if (v !== null) marked += v;
    }
    return { settled: this.#settledPnl, marked };
  }

  // ------------------------------------------------------------ the end

  finish(runtimeStats: { riskRejected: number; exchangeRejected: number; postArb: number }, gameInfo: (id: string) => { league: string; name: string } | null) {
    const { settled, marked } = this.#pnlNow();
    let commissionPaid = 0;
    for (const g of this.#grades.values()) commissionPaid += g.fee;
    let accrued = 0;
    const byGame = new Map<string, Acc & { markets: Map<string, Acc> }>();
    const byMarket = new Map<string, Acc>();
    const byStrategy = new Map<string, Acc>();
    /** Fills by `gameID|bookKey`, the key of #quotes. */
    const fillsByBook = new Map<string, number>();
    let makerFills = 0;
    let maker = 0;
    let taker = 0;
    for (const f of this.#fills) {
      const grade = this.#grades.get(f.row.txID);
      const settledPnl = grade ? grade.result : 0;
      const markedPnl = grade ? 0 : (this.#fairValue(f) ?? 0);
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
      const book = `${f.row.gameID}|${f.bookKey}`;
      fillsByBook.set(book, (fillsByBook.get(book) ?? 0) + 1);
    }
    const orders = this.#orders;
    const accepted = orders.filter((o) => !o.status.startsWith('rejected'));
    const offered = accepted.reduce((s, o) => s + o.bet, 0);
    const row = (a: Acc): BreakdownRow => ({ fills: a.fills, makerVolume: a.makerVolume, takerVolume: a.takerVolume, settledPnl: a.settledPnl, markedPnl: a.markedPnl });
    const games: GameRow[] = [...byGame.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([gameID, a]) => {
        const score = this.#scores.get(gameID) ?? null;
        const info = gameInfo(gameID);
        const settlement: GameRow['settlement'] = score ? 'settled' : a.fills > 0 ? 'marked' : 'none';
        return {
          gameID,
          league: info?.league ?? '',
          name: info?.name ?? '',
          settlement,
          score,
          maxLiability: this.#maxGameLiability.get(gameID) ?? 0,
          ...row(a),
          markets: [...a.markets.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([market, r]) => ({ market, ...row(r) })),
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
        placed: accepted.length,
        cancelled: this.#cancelled,
        refusedByRisk: runtimeStats.riskRejected,
        rejectedByExchange: orders.length - accepted.length,
        postArb: runtimeStats.postArb,
        fillRatio: accepted.length > 0 ? accepted.filter((o) => o.filled > 0).length / accepted.length : 0,
        stakeFillRatio: offered > 0 ? accepted.reduce((s, o) => s + o.filled, 0) / offered : 0,
      },
      markout: { '5s': markout(0), '60s': markout(1) },
      maxDrawdown: this.#maxDrawdown,
      maxLiability: this.#maxLiability,
    };
    const quotes = [...this.#quotes.entries()]
      .map(([key, rows]) => ({ key, rows, fills: fillsByBook.get(key) ?? 0 }))
      .sort((a, b) => b.fills - a.fills || b.rows.length - a.rows.length || (a.key < b.key ? -1 : 1))
      .slice(0, QUOTE_SERIES_KEPT)
      .map(({ key, rows }) => ({ gameID: key.split('|')[0]!, bookKey: key.split('|')[1]!, rows }));
    const series: Omit<BacktestSeries, 'sampleMs'> = {
      pnl: this.#pnl,
      liability: Object.fromEntries([...this.#liability.entries()].sort(([a], [b]) => (a < b ? -1 : 1))),
      quotes,
      markouts: this.#fills.map((f) => [f.row.t, f.row.amount, ...f.values]),
    };
    return {
      metrics,
      games,
      markets: [...byMarket.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([market, a]) => ({ market, ...row(a) })),
      strategies: [...byStrategy.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([strategy, a]) => ({ strategy, ...row(a) })),
      series,
      fills: this.#fills.map((f) => f.row),
      orders: orders.map((o): OrderRow => ({ ...o })),
    };
  }
}
