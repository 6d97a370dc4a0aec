import { restingPosition, worstCaseLiability, worstCaseLiabilityOfGroups, worstLoss } from '../money/liability.ts';
import { PnlGroups, RecentRegions } from '../money/pnl-groups.ts';
import type { Position } from '../money/position.ts';
import type { OwnFill, OwnOrder, OwnOrderStatus } from '../book/types.ts';
import { DuplicateOrderError, UnknownOrderError } from './errors.ts';
import {
  closesByAbsence,
  IllegalTransitionError,
  lifecycleStateOf,
  transitionOf,
  type OrderAmounts,
  type OrderEvent,
} from './lifecycle.ts';

/** Risk below this is nothing left (the engine's dust). */
export const DUST = 1e-9;

const TERMINAL: ReadonlySet<OwnOrderStatus> = new Set(['cancelled', 'filled', 'expired', 'rejected']);

export function isTerminal(status: OwnOrderStatus): boolean {
  return TERMINAL.has(status);
}

/** Whether an order may still rest or fill: counted in projected liability. */
export function isLive(o: OwnOrder): boolean {
  return !isTerminal(o.status);
}

export type TransitionListener = (order: OwnOrder, from: OwnOrderStatus | null, reason: string) => void;

/** One strategy's (or the whole account's, key undefined) fills on a game, and what they make. */
interface FillView {
  readonly fills: readonly OwnFill[];
  readonly positions: readonly Position[];
  /** The commission rate the positions were made with. */
  readonly rate: number;
  liability: number | null;
}

interface GameOwn {
  /**
   * The game's live orders by client id, in the order they were added (terminal ones leave
   * at once): the current record of each, so reading them needs no lookup in #orders.
   */
  readonly live: Map<string, OwnOrder>;
  readonly fills: OwnFill[];
  /**
   * Per strategy id: its fills, positions and matched worst case, kept until the next fill
   * on the game. The runtime asks for them on every evaluation, and fills are rare next
   * to evaluations.
   */
  readonly views: Map<string | null | undefined, FillView>;
  /** Projected worst case (matched + live orders), null when it must be recomputed. */
  projected: number | null;
  /**
   * A lower bound of the projected worst case at all times: the last exact figure, deepened
   * by each change since by the most it could lose (a new or larger live order, a fill);
   * a smaller or closed order only lifts the exact figure. Valid while the commission rate
   * is `floorRate` (fills' positions depend on it); NaN after a settlement.
   */
  floor: number;
  floorRate: number;
  /**
   * The game's fills merged for the worst-case search, the first `matchedCount` of them
   * with the commission rate `matchedRate`. Fills only append, so this extends; other sets
   * start as copies of it and never add to it.
   */
  matched: PnlGroups | null;
  matchedCount: number;
  matchedRate: number;
  /**
   * What the projected worst case starts from: `matched` (unless settled) plus every live
   * order where it loses, in `liveOrders` order, while `baseValid` (until any change
   * `#touch` sees). Its storage is reused when it is made again.
   */
  base: PnlGroups | null;
  baseValid: boolean;
  /** The commission rate `base` was made with (#touch does not see the rate change). */
  baseRate: number;
  /** Sets searched on this game, whose regions a new set with the same selections reuses. */
  readonly recent: RecentRegions;
  /** Where `base` plus extras is worked out: reused by every such query, never kept. */
  scratch: PnlGroups | null;
  /** Fills the exchange reported on an order (a cancel answer) that no booked fill covers yet, by client id. */
  readonly awaiting: Map<string, AwaitedFill>;
}

/**
 * Risk of one of our orders the exchange said matched that is not booked yet: counted
 * where it loses, as a contingent position, until its fills arrive. Where it wins it counts
 * nothing, so the worst case is never understated.
 */
interface AwaitedFill {
  readonly amount: number;
  /** What it counts in the worst case: a maker's fill, counted where it loses, made once when set. */
  readonly risk: Position;
  /** When the exchange reported it. */
  readonly since: number;
}

/**
 * How far the fills booked for an order may fall short of what the exchange said it
 * matched and still cover it, per fill: REST reads of bets carry 2 decimals, so each is off
 * by up to half a cent (feeds-and-semantics §4: reconcile with a cent of tolerance).
 */
const FILL_TOLERANCE = 0.01;

/** What of an order counts in the projected worst case: its remaining risk while it is live. */
function restingOf(o: OwnOrder): number {
  return isLive(o) && o.remaining > DUST ? o.remaining : 0;
}

/** The commission rate a fill pays: takers only, and not on postArb (makers pay none). */
function commissionOf(f: OwnFill, rate: number): number {
  return f.origin === 'wager' && !f.isPostArb ? rate : 0;
}

/**
 * `amount` of a live order where it loses. An order sent to take may still match as a taker,
 * paying commission at `rate`, until the exchange has answered for it: once it has an order id
 * what is left of it rests, as a maker (or it is done).
 */
function contingentOf(o: OwnOrder, amount: number, rate: number): Position {
  return restingPosition(o.selection, amount, o.odds, o.mayTake === true && o.orderID === null ? rate : 0);
}

const EMPTY_VIEW: FillView = Object.freeze({
  fills: Object.freeze([]),
  positions: Object.freeze([]),
  rate: 0,
  liability: 0,
}) as FillView;

/**
 * How long a terminal order is kept for late messages about it: a fill or listing that
 * raced its cancel, or a REST view of the account taken before it ended (which must not
 * adopt it again). Those come within seconds; a bot running for days must not keep every
 * order it ever placed.
 */
export const TERMINAL_RETENTION_MS = 15 * 60_000;
/** And never more than this many, whatever their age. */
export const MAX_TERMINAL_KEPT = 20_000;

/**
 * Our own side of the book model: every order we placed or adopted, with its state, and
 * every fill (deduplicated by txID) with the positions and exact worst-case liability they
 * make, per game. Records are immutable objects replaced on every change, so snapshots
 * handed out stay valid. Only the runtime's event loop calls the mutating methods.
 */
export class OwnBook {
  readonly #orders = new Map<string, OwnOrder>();
  readonly #byOrderId = new Map<string, string>();
  readonly #byReference = new Map<string, string>();
  readonly #fills = new Map<string, OwnFill>();
  /** Per client id: the stake of the fills booked for the order, and how many. */
  readonly #booked = new Map<string, { amount: number; count: number }>();
  /** How many orders have an awaited fill, over every game. */
  #awaitingCount = 0;
  /** Every fill booked since start, settled games included (never decreases): counts and risk by role. */
  readonly #fillTotals = { maker: 0, taker: 0, makerVolume: 0, takerVolume: 0 };
  readonly #games = new Map<string, GameOwn>();
  /** Games graded: their bets no longer count towards liability. */
  readonly #settled = new Set<string>();
  readonly #onTransition: TransitionListener;
  /** Terminal orders in the order they ended, with when, for pruning; those before #terminalHead are gone. */
  readonly #terminal: { readonly clientId: string; readonly at: number }[] = [];
  #terminalHead = 0;
  /** Σ projected over unsettled games, valid for the games not in #dirtyProjected. */
  #projectedTotal = 0;
  readonly #commissionRate: () => number;

  /** Lifecycle events applied that the table refuses (`illegal`) or absorbs as a late word on a closed order (`late`). */
  readonly lifecycle = { illegal: 0, late: 0 };
  readonly #onIllegal: (e: IllegalTransitionError) => void;

  constructor(options: {
    commissionRate: () => number;
    onTransition?: TransitionListener;
    onIllegalTransition?: (e: IllegalTransitionError) => void;
  }) {
    this.#commissionRate = options.commissionRate;
    this.#onTransition = options.onTransition ?? (() => {});
    this.#onIllegal = options.onIllegalTransition ?? (() => {});
  }

  // ---- orders ----

  order(clientId: string): OwnOrder | undefined {
    return this.#orders.get(clientId);
  }

  byOrderId(orderID: string): OwnOrder | undefined {
    const c = this.#byOrderId.get(orderID);
    return c === undefined ? undefined : this.#orders.get(c);
  }

  byReference(userReference: string): OwnOrder | undefined {
    const c = this.#byReference.get(userReference);
    return c === undefined ? undefined : this.#orders.get(c);
  }

  isOurOrderId(orderID: string): boolean {
    return this.#byOrderId.has(orderID);
  }

  /** Orders that may still rest or fill, optionally of one game and one strategy. */
  liveOrders(gameID?: string, strategyId?: string | null): OwnOrder[] {
    const out: OwnOrder[] = [];
    if (gameID === undefined) {
      for (const g of this.#games.values()) this.#liveOf(g, strategyId, out);
    } else {
      const g = this.#games.get(gameID);
      if (g !== undefined) this.#liveOf(g, strategyId, out);
    }
    return out;
  }

  #liveOf(g: GameOwn, strategyId: string | null | undefined, out: OwnOrder[]): void {
    for (const o of g.live.values()) if (strategyId === undefined || o.strategyId === strategyId) out.push(o);
  }

  /** How many of the game's orders may still rest or fill. */
  liveCountOf(gameID: string): number {
    return this.#games.get(gameID)?.live.size ?? 0;
  }

  liveCount(): number {
    let n = 0;
    for (const g of this.#games.values()) n += g.live.size;
    return n;
  }

  allOrders(): IterableIterator<OwnOrder> {
    return this.#orders.values();
  }

  /** A new order: pending-place until the exchange answers, or adopted at start-up with its state. */
  add(order: OwnOrder, reason: string): OwnOrder {
    if (this.#orders.has(order.clientId)) throw new DuplicateOrderError(order.clientId);
    this.#orders.set(order.clientId, order);
    this.#byReference.set(order.userReference, order.clientId);
    if (order.orderID) this.#byOrderId.set(order.orderID, order.clientId);
    const g = this.#game(order.gameID);
    if (isLive(order)) g.live.set(order.clientId, order);
    this.#touch(order.gameID);
    this.#deepenFloor(g, order, restingOf(order));
    this.#onTransition(order, null, reason);
    return order;
  }

  /**
   * Move an order by the lifecycle table (`lifecycle.ts`): the status comes from the table,
   * the amounts from the event. A closed order keeps its status against a late word (its
   * amounts may still be corrected); an order closed only by inference (`closedByAbsence`)
   * takes evidence of it as it comes, live again if it says so. An event the table has no
   * move for changes nothing: it is counted and handed to `onIllegalTransition`.
   */
  apply(clientId: string, event: OrderEvent, now: number, reason: string): OwnOrder {
    const cur = this.#orders.get(clientId);
    if (!cur) throw new UnknownOrderError(clientId);
    const cell = transitionOf(cur, event.kind);
    if (cell === 'illegal') {
      this.lifecycle.illegal++;
      this.#onIllegal(new IllegalTransitionError(clientId, lifecycleStateOf(cur), event.kind, reason));
      return cur;
    }
    const amounts = 'amounts' in event ? event.amounts : undefined;
    if (cell === 'stays') {
      this.lifecycle.late++;
      return this.#write(cur, { ...amounts }, now, reason);
    }
    return this.#write(
      cur,
      closesByAbsence(event.kind) ? { ...amounts, status: cell, closedByAbsence: true } : { ...amounts, status: cell },
      now,
      reason,
    );
  }

  /** Correct what the exchange says of an order (its id, its amounts) without moving its status. */
  amend(clientId: string, amounts: OrderAmounts, now: number, reason: string): OwnOrder {
    const cur = this.#orders.get(clientId);
    if (!cur) throw new UnknownOrderError(clientId);
    return this.#write(cur, amounts, now, reason);
  }

  /** Setting a status clears `closedByAbsence` unless the patch sets it again. */
  #write(
    cur: OwnOrder,
    patch: Partial<Pick<OwnOrder, 'orderID' | 'status' | 'filled' | 'remaining' | 'closedByAbsence'>>,
    now: number,
    reason: string,
  ): OwnOrder {
    const clientId = cur.clientId;
    let next: OwnOrder = { ...cur, ...patch, updatedAt: now };
    if (patch.status !== undefined && patch.closedByAbsence === undefined && next.closedByAbsence !== undefined) {
      const { closedByAbsence: _evidence, ...rest } = next;
      next = rest;
    }
    this.#orders.set(clientId, next);
    if (next.orderID && next.orderID !== cur.orderID) this.#byOrderId.set(next.orderID, clientId);
    // A reopened order's game may have been forgotten meanwhile: it has a live order again.
    const g = !isLive(cur) && isLive(next) ? this.#game(next.gameID) : this.#games.get(next.gameID);
    if (next.remaining !== cur.remaining || next.status !== cur.status) {
      this.#touch(next.gameID);
      if (g) this.#deepenFloor(g, next, restingOf(next) - restingOf(cur));
    }
    if (isLive(cur) && !isLive(next)) {
      g?.live.delete(clientId);
      this.#terminal.push({ clientId, at: now });
      this.#prune(now);
    } else if (g && (g.live.has(clientId) || isLive(next))) {
      g.live.set(clientId, next);
    }
    if (next.status !== cur.status) this.#onTransition(next, cur.status, reason);
    return next;
  }

  // ---- fills ----

  hasFill(txID: string): boolean {
    return this.#fills.has(txID);
  }

  /**
   * Record a fill once; false when its txID was already booked. It counts towards the order
   * `owner` (a client id; by default the order with the fill's orderID; null for none: a taker
   * fill's orderID names the resting order it hit, never the taker's own), and what of that
   * order's awaited fill it covers stops counting as contingent.
   */
  addFill(fill: OwnFill, owner?: string | null): boolean {
    if (this.#fills.has(fill.txID)) return false;
    this.#fills.set(fill.txID, fill);
    const c = owner === null ? undefined : (owner ?? this.#byOrderId.get(fill.orderID));
    if (c !== undefined) {
      const b = this.#booked.get(c);
      if (b) {
        b.amount += fill.amount;
        b.count++;
      } else {
        this.#booked.set(c, { amount: fill.amount, count: 1 });
      }
    }
    if (fill.origin === 'offer') {
      this.#fillTotals.maker++;
      this.#fillTotals.makerVolume += fill.amount;
    } else {
      this.#fillTotals.taker++;
      this.#fillTotals.takerVolume += fill.amount;
    }
    const g = this.#game(fill.gameID);
    g.fills.push(fill);
    g.floor += worstLoss(this.#position(fill, this.#commissionRate()));
    g.views.clear();
    this.#touch(fill.gameID);
    const awaited = c === undefined ? undefined : this.#games.get(this.#orders.get(c)?.gameID ?? '')?.awaiting.get(c);
    if (c !== undefined && awaited) this.#await(c, awaited.amount - fill.amount, awaited.since, fill.at);
    return true;
  }

  /**
   * The exchange says `filled` of the order matched (a cancel answer): what the fills booked
   * for it do not cover yet counts where it loses until they are booked (the user feed's
   * fill can come after the answer, or never, and then a REST reconciliation books it).
   */
  awaitFills(clientId: string, filled: number, now: number): void {
    const o = this.#orders.get(clientId);
    if (!o || this.#settled.has(o.gameID)) return;
    const prior = this.#games.get(o.gameID)?.awaiting.get(clientId);
    this.#await(clientId, filled - (this.#booked.get(clientId)?.amount ?? 0), prior?.since ?? now, now);
  }

  /** The order's risk matched and not yet booked (0 when none). */
  awaitedFill(clientId: string): number {
    const o = this.#orders.get(clientId);
    return (o && this.#games.get(o.gameID)?.awaiting.get(clientId)?.amount) ?? 0;
  }

  /** When the oldest awaited fill still unbooked was reported; undefined when none is. */
  oldestAwaitedFill(): number | undefined {
    if (this.#awaitingCount === 0) return undefined;
    let oldest: number | undefined;
    for (const g of this.#games.values())
      for (const a of g.awaiting.values()) if (oldest === undefined || a.since < oldest) oldest = a.since;
    return oldest;
  }

  /** Set the order's awaited fill to `amount`, or end it once the booked fills cover it within tolerance. */
  #await(clientId: string, amount: number, since: number, now: number): void {
    const o = this.#orders.get(clientId)!;
    const g = this.#game(o.gameID);
    const prior = g.awaiting.get(clientId);
    const tolerance = FILL_TOLERANCE * ((this.#booked.get(clientId)?.count ?? 0) + 1);
    if (amount > tolerance) {
      g.awaiting.set(clientId, {
        amount,
        risk: { selection: o.selection, amount, odds: o.odds, commissionRate: 0, contingent: true },
        since,
      });
      if (!prior) this.#awaitingCount++;
      this.#deepenFloor(g, o, amount - (prior?.amount ?? 0));
    } else if (prior) {
      g.awaiting.delete(clientId);
      this.#awaitingCount--;
      // Kept past its retention while it waited (see #prune): it may go now.
      if (!isLive(o)) this.#terminal.push({ clientId, at: now });
    } else {
      return;
    }
    this.#touch(o.gameID);
  }

  /** Fills booked since start as maker (`offer`) and taker (`wager`), settled games included: only ever grows. */
  fillTotals(): {
    readonly maker: number;
    readonly taker: number;
    readonly makerVolume: number;
    readonly takerVolume: number;
  } {
    return { ...this.#fillTotals };
  }

  /** Every fill booked, of every game (settled ones included), in booking order. */
  allFills(): IterableIterator<OwnFill> {
    return this.#fills.values();
  }

  fills(gameID: string, strategyId?: string | null): readonly OwnFill[] {
    return this.#view(gameID, strategyId).fills;
  }

  /** Matched positions (one per fill), optionally of one strategy. */
  positions(gameID: string, strategyId?: string | null): readonly Position[] {
    return this.#view(gameID, strategyId).positions;
  }

  /** Worst-case loss over every score of `positions(gameID, strategyId)` (≤ 0; settled games included). */
  positionsLiability(gameID: string, strategyId?: string | null): number {
    const v = this.#view(gameID, strategyId);
    if (v.liability === null) {
      const g = strategyId === undefined ? this.#games.get(gameID) : undefined;
      // The whole game's fills are `matched`, the same positions in the same order.
      v.liability =
        v.positions.length === 0
          ? 0
          : g
            ? worstCaseLiabilityOfGroups(this.#matched(g), g.recent)
            : worstCaseLiability(v.positions);
    }
    return v.liability;
  }

  #view(gameID: string, strategyId: string | null | undefined): FillView {
    const g = this.#games.get(gameID);
    if (!g) return EMPTY_VIEW;
    const rate = this.#commissionRate();
    const cached = g.views.get(strategyId);
    if (cached && cached.rate === rate) return cached;
    const fills = strategyId === undefined ? g.fills.slice() : g.fills.filter((f) => f.strategyId === strategyId);
    // Frozen: the same arrays go to every caller until the next fill.
    const v: FillView = {
      fills: Object.freeze(fills),
      positions: Object.freeze(fills.map((f) => this.#position(f, rate))),
      rate,
      liability: null,
    };
    g.views.set(strategyId, v);
    return v;
  }

  /** Worst-case loss of the matched bets on a game over every score (≤ 0): what getGameLiability reports. */
  matchedLiability(gameID: string): number {
    return this.#settled.has(gameID) ? 0 : this.positionsLiability(gameID);
  }

  /**
   * Worst case as the exchange checks a place: matched bets plus every live order filled
   * where it loses, plus `extra` (orders about to be sent). ≤ 0.
   */
  projectedLiability(gameID: string, extra: readonly Position[] = []): number {
    const plain = extra.length === 0;
    const g = this.#games.get(gameID);
    if (plain && g && g.projected !== null) return g.projected;
    const value = this.#computeProjected(gameID, extra);
    if (plain && g) {
      g.projected = value;
      g.floor = value;
      g.floorRate = this.#commissionRate();
      if (!this.#settled.has(gameID)) this.#projectedTotal += value;
    }
    return value;
  }

  /**
   * A lower bound of `projectedLiability(gameID)` that costs no worst-case search when the
   * exact figure is not cached: the matched worst case plus each live order's own worst
   * loss (a worst case of a sum is never below the sum of the parts' worst cases).
   */
  projectedLowerBound(gameID: string): number {
    const g = this.#games.get(gameID);
    if (!g) return 0;
    if (g.projected !== null) return g.projected;
    if (g.floorRate === this.#commissionRate()) return g.floor;
    let bound = this.matchedLiability(gameID);
    const rate = this.#commissionRate();
    for (const o of g.live.values()) bound += worstLoss(contingentOf(o, restingOf(o), rate));
    for (const a of g.awaiting.values()) bound += worstLoss(a.risk);
    return bound;
  }

  /** Σ projected worst case over every unsettled game (≤ 0), kept incrementally. */
  totalProjectedLiability(): number {
    for (const [id, g] of this.#games) if (g.projected === null && !this.#settled.has(id)) this.projectedLiability(id);
    return this.#projectedTotal;
  }

  #computeProjected(gameID: string, extra: readonly Position[]): number {
    const g = this.#games.get(gameID);
    if (g === undefined) return worstCaseLiability(extra);
    const base = this.#base(g, gameID);
    if (extra.length === 0) return worstCaseLiabilityOfGroups(base, g.recent);
    const groups = (g.scratch ??= new PnlGroups());
    groups.copyFrom(base);
    groups.addAll(extra);
    return worstCaseLiabilityOfGroups(groups, g.recent);
  }

  /** The game's fills merged, with the current commission rate. */
  #matched(g: GameOwn): PnlGroups {
    const rate = this.#commissionRate();
    if (g.matched === null || g.matchedRate !== rate) {
      g.matched = new PnlGroups();
      g.matchedCount = 0;
      g.matchedRate = rate;
    }
    const groups = g.matched;
    for (; g.matchedCount < g.fills.length; g.matchedCount++) {
      const f = g.fills[g.matchedCount]!;
      groups.addMoney(f.selection, f.amount, f.odds, commissionOf(f, rate), false);
    }
    return groups;
  }

  /** What `#computeProjected` adds its extras to: matched (unless settled), then each live order and awaited fill where it loses. */
  #base(g: GameOwn, gameID: string): PnlGroups {
    const rate = this.#commissionRate();
    if (g.base !== null && g.baseValid && g.baseRate === rate) return g.base;
    let groups: PnlGroups;
    if (this.#settled.has(gameID)) {
      groups = new PnlGroups();
    } else {
      groups = g.base ?? new PnlGroups();
      groups.copyFrom(this.#matched(g));
    }
    for (const o of g.live.values()) if (o.remaining > DUST) groups.add(contingentOf(o, o.remaining, rate));
    for (const a of g.awaiting.values()) groups.add(a.risk);
    g.base = groups;
    g.baseValid = true;
    g.baseRate = rate;
    return groups;
  }

  /** Unsettled games with anything of ours on them. */
  *gameIds(): IterableIterator<string> {
    for (const id of this.#games.keys()) if (!this.#settled.has(id)) yield id;
  }

  /** The game was graded: its bets are money now, not risk. */
  settle(gameID: string): void {
    this.#touch(gameID);
    this.#settled.add(gameID);
    const g = this.#games.get(gameID);
    // Matched bets that won where a resting order loses leave the projection: the
    // figure can fall, so the floor waits for the next exact one.
    if (g) {
      // Graded: what was awaited is money now, whether or not its fill was ever booked.
      for (const [c, a] of g.awaiting) this.#await(c, 0, a.since, a.since);
      g.floorRate = Number.NaN;
      // A settled game's figure is worked out afresh each time: its search sets only hold memory.
      g.base = null;
      g.baseValid = false;
      g.scratch = null;
      g.recent.clear();
    }
  }

  isSettled(gameID: string): boolean {
    return this.#settled.has(gameID);
  }

  /** Whether something of ours on the game can still change: a live order, a fill reported and not booked, or a fill waiting for its grade. */
  holdsOpen(gameID: string): boolean {
    const g = this.#games.get(gameID);
    return (
      g !== undefined && (g.live.size > 0 || g.awaiting.size > 0 || (g.fills.length > 0 && !this.#settled.has(gameID)))
    );
  }

  /**
   * Drop a game's record once nothing of ours on it can change (`holdsOpen` is false). Its
   * fills stay booked (`allFills`, `hasFill`); it leaves `gameIds()`. False when the game
   * still holds something, or has no record.
   */
  forgetGame(gameID: string): boolean {
    if (!this.#games.has(gameID) || this.holdsOpen(gameID)) return false;
    this.#touch(gameID);
    return this.#games.delete(gameID);
  }

  #position(f: OwnFill, rate: number): Position {
    return { selection: f.selection, amount: f.amount, odds: f.odds, commissionRate: commissionOf(f, rate) };
  }

  #game(id: string): GameOwn {
    let g = this.#games.get(id);
    if (!g)
      this.#games.set(
        id,
        (g = {
          live: new Map(),
          fills: [],
          views: new Map(),
          projected: null,
          floor: 0,
          floorRate: this.#commissionRate(),
          matched: null,
          matchedCount: 0,
          matchedRate: 0,
          base: null,
          baseValid: false,
          baseRate: 0,
          recent: new RecentRegions(),
          scratch: null,
          awaiting: new Map(),
        }),
      );
    return g;
  }

  /** `added` more of `o` rests (where it loses it counts in the projected worst case). */
  #deepenFloor(g: GameOwn, o: OwnOrder, added: number): void {
    if (added > 0) g.floor += worstLoss(contingentOf(o, added, this.#commissionRate()));
  }

  /** Something on the game changed: its cached projected worst case leaves the total. */
  #touch(gameID: string): void {
    const g = this.#games.get(gameID);
    if (!g) return;
    g.baseValid = false;
    if (g.projected === null) return;
    if (!this.#settled.has(gameID)) this.#projectedTotal -= g.projected;
    g.projected = null;
  }

  /** Forget terminal orders past their retention, and the oldest beyond the cap (their fills stay). */
  #prune(now: number): void {
    const list = this.#terminal;
    let head = this.#terminalHead;
    while (
      head < list.length &&
      (list.length - head > MAX_TERMINAL_KEPT || list[head]!.at < now - TERMINAL_RETENTION_MS)
    ) {
      const id = list[head++]!.clientId;
      const o = this.#orders.get(id);
      if (!o || isLive(o)) continue;
      // Its fills are still to come and must find it: kept until they do (#await lists it again).
      if (this.#games.get(o.gameID)?.awaiting.has(id)) continue;
      this.#orders.delete(id);
      this.#booked.delete(id);
      if (this.#byReference.get(o.userReference) === id) this.#byReference.delete(o.userReference);
      if (o.orderID && this.#byOrderId.get(o.orderID) === id) this.#byOrderId.delete(o.orderID);
    }
    // Drop the consumed front now and then rather than shifting on every order.
    if (head > 1_024 && head * 2 > list.length) {
      list.splice(0, head);
      head = 0;
    }
    this.#terminalHead = head;
  }
}
