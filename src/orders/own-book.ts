import type { Position } from '../money/position.ts';
import type { OwnFill, OwnOrder, OwnOrderIDs, OwnOrderStatus } from '../market-model/types.ts';
import { FillLedger, type FillTotals } from './fill-ledger.ts';
import { LiabilityCache } from './liability-cache.ts';
import type { IllegalTransitionError, OrderAmounts, OrderEvent } from './lifecycle.ts';
import { isLive, OrderStore, type TransitionListener } from './order-store.ts';
import type { TransitionReason } from './transition-reason.ts';

export {
  DUST,
  isLive,
  isTerminal,
  MAX_TERMINAL_KEPT,
  TERMINAL_RETENTION_MS,
  type TransitionListener,
} from './order-store.ts';

/**
 * Our own side of the book model: every order we placed or adopted, with its state, and
 * every fill (deduplicated by txID) with the positions and exact worst-case liability they
 * make, per game. It composes three parts and keeps them in step:
 *
 * - the order store (`order-store.ts`): orders by client id, order id and userReference, the
 *   live ones per game, their lifecycle moves, finished orders kept a while;
 * - the fill ledger (`fill-ledger.ts`): fills, their positions per strategy, awaited fills;
 * - the liability cache (`liability-cache.ts`): matched and projected worst case per game,
 *   their total, the floors, invalidated by every change the other two make.
 *
 * The games are this book's: a game is opened in every part at once and forgotten from
 * every part at once, so each part iterates games in the same order (the total liability
 * sums in that order). Only the runtime's event loop calls the mutating methods.
 */
export class OwnBook {
  /** Games with anything of ours on them, in the order they came (settled ones until forgotten). */
  readonly #games = new Set<string>();
  /** `gameIDs()` as a list, kept until a game is opened, settled or forgotten; null when it must be listed again. */
  #unsettled: string[] | null = null;
  readonly #orders: OrderStore;
  readonly #fills: FillLedger;
  readonly #liability: LiabilityCache;

  /** Lifecycle events applied that the table refuses (`illegal`) or absorbs as a late word on a closed order (`late`). */
  readonly lifecycle: { illegal: number; late: number };

  constructor(options: {
    commissionRate: () => number;
    onTransition?: TransitionListener;
    onIllegalTransition?: (e: IllegalTransitionError) => void;
  }) {
    this.#orders = new OrderStore({
      onChange: (before, after) => {
        // A new order opens its game (an adopted finished one too); a reopened order's game may
        // have been forgotten meanwhile, and holds a live order again.
        if (before === null || (!isLive(before) && isLive(after))) this.#open(after.gameID);
        this.#liability.orderChanged(before, after);
      },
      onTransition: options.onTransition ?? (() => {}),
      onIllegalTransition: options.onIllegalTransition ?? (() => {}),
      // Its fills are still to come and must find it.
      stillNeeded: (o) => this.#fills.awaited(o.gameID, o.clientId) !== undefined,
      onForget: (o) => this.#fills.forgetOrder(o.clientId),
    });
    this.#fills = new FillLedger({ commissionRate: options.commissionRate });
    const orders = this.#orders;
    const fills = this.#fills;
    this.#liability = new LiabilityCache({
      commissionRate: options.commissionRate,
      sources: {
        live: (gameID) => orders.liveIn(gameID),
        fills: (gameID) => fills.gameFills(gameID),
        awaited: (gameID) => fills.awaitedIn(gameID),
      },
    });
    this.lifecycle = this.#orders.lifecycle;
  }

  // ---- orders ----

  order(clientId: string): OwnOrder | undefined {
    return this.#orders.order(clientId);
  }

  byOrderID(orderID: string): OwnOrder | undefined {
    return this.#orders.byOrderID(orderID);
  }

  byReference(userReference: string): OwnOrder | undefined {
    return this.#orders.byReference(userReference);
  }

  isOurOrderID(orderID: string): boolean {
    return this.#orders.isOurOrderID(orderID);
  }

  /** isOurOrderID as one function, for asking about every order of a side (see OrderStore.orderIDTest). */
  orderIDTest(): (orderID: string) => boolean {
    return this.#orders.orderIDTest();
  }

  /** isOurOrderID game by game, for the book model (see OrderStore.ownOrderIDs). */
  ownOrderIDs(): OwnOrderIDs {
    return this.#orders.ownOrderIDs();
  }

  /**
   * Orders that may still rest or fill, optionally of one game and one strategy. Of one game,
   * the list is made once per version of the game's live orders and shared, frozen, by every
   * caller until they change: strategies, their memos and the order manager ask for it far
   * more often than the orders move. Of every game, a new list each time.
   */
  liveOrders(): OwnOrder[];
  liveOrders(gameID: string | undefined, strategyId?: string | null): readonly OwnOrder[];
  liveOrders(gameID?: string, strategyId?: string | null): readonly OwnOrder[] {
    return gameID === undefined
      ? this.#orders.liveOrders(undefined, strategyId)
      : this.#orders.liveListOf(gameID, strategyId);
  }

  /** Whether any order that may still rest or fill has the status. */
  hasLiveWithStatus(status: OwnOrderStatus): boolean {
    return this.#orders.hasLiveWithStatus(status);
  }

  /** A number that changes whenever the game's live orders do, never repeated (see OrderStore.liveVersionOf). */
  liveVersionOf(gameID: string): number {
    return this.#orders.liveVersionOf(gameID);
  }

  /** How many of the game's orders may still rest or fill. */
  liveCountOf(gameID: string): number {
    return this.#orders.liveCountOf(gameID);
  }

  liveCount(): number {
    return this.#orders.liveCount();
  }

  allOrders(): IterableIterator<OwnOrder> {
    return this.#orders.allOrders();
  }

  /** A new order: pending-place until the exchange answers, or adopted at start-up with its state. */
  add(order: OwnOrder, reason: TransitionReason): OwnOrder {
    return this.#orders.add(order, reason);
  }

  /** Move an order by the lifecycle table: see `OrderStore.apply`. */
  apply(clientId: string, event: OrderEvent, now: number, reason: string): OwnOrder {
    return this.#orders.apply(clientId, event, now, reason);
  }

  /** Correct what the exchange says of an order (its id, its amounts) without moving its status. */
  amend(clientId: string, amounts: OrderAmounts, now: number, reason: string): OwnOrder {
    return this.#orders.amend(clientId, amounts, now, reason);
  }

  // ---- fills ----

  hasFill(txID: string): boolean {
    return this.#fills.hasFill(txID);
  }

  /**
   * Record a fill once; false when its txID was already booked. It counts towards the order
   * `owner` (a client id; by default the order with the fill's orderID; null for none: a taker
   * fill's orderID names the resting order it hit, never the taker's own), and what of that
   * order's awaited fill it covers stops counting as contingent.
   */
  addFill(fill: OwnFill, owner?: string | null): boolean {
    if (this.#fills.hasFill(fill.txID)) return false;
    const c = owner === null ? undefined : (owner ?? this.#orders.clientIdOf(fill.orderID));
    this.#open(fill.gameID);
    this.#fills.book(fill, c);
    this.#liability.fillBooked(fill);
    if (c === undefined) return true;
    const o = this.#orders.order(c);
    const awaited = o && this.#fills.awaited(o.gameID, c);
    if (o && awaited) this.#await(o, awaited.amount - fill.amount, awaited.since, fill.at);
    return true;
  }

  /**
   * The exchange says `filled` of the order matched (a cancel answer): what the fills booked
   * for it do not cover yet counts where it loses until they are booked (the user feed's
   * fill can come after the answer, or never, and then a REST reconciliation books it).
   */
  awaitFills(clientId: string, filled: number, now: number): void {
    const o = this.#orders.order(clientId);
    if (!o || this.#liability.isSettled(o.gameID)) return;
    const prior = this.#fills.awaited(o.gameID, clientId);
    this.#await(o, filled - this.#fills.bookedFor(clientId), prior?.since ?? now, now);
  }

  /** The order's risk matched and not yet booked (0 when none). */
  awaitedFill(clientId: string): number {
    const o = this.#orders.order(clientId);
    return (o && this.#fills.awaited(o.gameID, clientId)?.amount) ?? 0;
  }

  /** When the oldest awaited fill still unbooked was reported; undefined when none is. */
  oldestAwaitedFill(): number | undefined {
    return this.#fills.oldestAwaited();
  }

  /** Set the order's awaited fill to `amount`, or end it once the booked fills cover it within tolerance. */
  #await(o: OwnOrder, amount: number, since: number, now: number): void {
    this.#open(o.gameID);
    const prior = this.#fills.awaited(o.gameID, o.clientId)?.amount ?? 0;
    const outcome = this.#fills.await(o, amount, since);
    if (outcome === 'unchanged') return;
    // Kept past its retention while it waited (see `stillNeeded`): it may go now.
    if (outcome === 'ended' && !isLive(o)) this.#orders.retainFrom(o.clientId, now);
    this.#liability.awaitedChanged(o, outcome === 'set' ? amount - prior : 0);
  }

  /** Fills booked since start as maker (`offer`) and taker (`wager`), settled games included: only ever grows. */
  fillTotals(): FillTotals {
    return this.#fills.totals();
  }

  /** Every fill booked, of every game (settled ones included), in booking order. */
  allFills(): IterableIterator<OwnFill> {
    return this.#fills.allFills();
  }

  fills(gameID: string, strategyId?: string | null): readonly OwnFill[] {
    return this.#fills.fills(gameID, strategyId);
  }

  /** Matched positions (one per fill), optionally of one strategy. */
  positions(gameID: string, strategyId?: string | null): readonly Position[] {
    return this.#fills.positions(gameID, strategyId);
  }

  /** Worst-case loss over every score of `positions(gameID, strategyId)` (≤ 0; settled games included). */
  positionsLiability(gameID: string, strategyId?: string | null): number {
    return strategyId === undefined
      ? this.#liability.matchedWorstCase(gameID)
      : this.#fills.positionsLiability(gameID, strategyId);
  }

  // ---- liability ----

  /** Worst-case loss of the matched bets on a game over every score (≤ 0): what getGameLiability reports. */
  matchedLiability(gameID: string): number {
    return this.#liability.matchedLiability(gameID);
  }

  /**
   * Worst case as the exchange checks a place: matched bets plus every live order filled
   * where it loses, plus `extra` (orders about to be sent). ≤ 0.
   */
  projectedLiability(gameID: string, extra: readonly Position[] = []): number {
    return this.#liability.projectedLiability(gameID, extra);
  }

  /** A lower bound of `projectedLiability(gameID)` that costs no worst-case search: see `LiabilityCache`. */
  projectedLowerBound(gameID: string): number {
    return this.#liability.projectedLowerBound(gameID);
  }

  /** Σ projected worst case over every unsettled game (≤ 0), kept incrementally. */
  totalProjectedLiability(): number {
    return this.#liability.totalProjectedLiability();
  }

  // ---- games ----

  /** Unsettled games with anything of ours on them. */
  *gameIDs(): IterableIterator<string> {
    for (const id of this.#games) if (!this.#liability.isSettled(id)) yield id;
  }

  /**
   * `gameIDs()` as a list, in the same order: for readers that walk the games on every
   * order (the risk gate). Shared and kept until the games change: read it, never write it.
   */
  unsettledGameIDs(): readonly string[] {
    if (this.#unsettled === null) {
      const list: string[] = [];
      for (const id of this.#games) if (!this.#liability.isSettled(id)) list.push(id);
      this.#unsettled = list;
    }
    return this.#unsettled;
  }

  /** The game was graded: its bets are money now, not risk. */
  settle(gameID: string): void {
    this.#unsettled = null;
    this.#liability.settle(gameID);
    // Graded: what was awaited is money now, whether or not its fill was ever booked.
    for (const [c, a] of this.#fills.awaitedIn(gameID)) this.#await(this.#orders.order(c)!, 0, a.since, a.since);
  }

  isSettled(gameID: string): boolean {
    return this.#liability.isSettled(gameID);
  }

  /** Whether something of ours on the game can still change: a live order, a fill reported and not booked, or a fill waiting for its grade. */
  holdsOpen(gameID: string): boolean {
    return (
      this.#games.has(gameID) &&
      (this.#orders.liveCountOf(gameID) > 0 ||
        this.#fills.awaitedIn(gameID).size > 0 ||
        (this.#fills.gameFills(gameID).length > 0 && !this.#liability.isSettled(gameID)))
    );
  }

  /**
   * Drop a game's record once nothing of ours on it can change (`holdsOpen` is false). Its
   * fills stay booked (`allFills`, `hasFill`); it leaves `gameIDs()`. False when the game
   * still holds something, or has no record.
   */
  forgetGame(gameID: string): boolean {
    if (!this.#games.has(gameID) || this.holdsOpen(gameID)) return false;
    this.#liability.forgetGame(gameID);
    this.#fills.forgetGame(gameID);
    this.#orders.forgetGame(gameID);
    this.#unsettled = null;
    return this.#games.delete(gameID);
  }

  /** Open the game in every part, in the same order. */
  #open(gameID: string): void {
    if (this.#games.has(gameID)) return;
    this.#games.add(gameID);
    this.#unsettled = null;
    this.#orders.openGame(gameID);
    this.#fills.openGame(gameID);
    this.#liability.openGame(gameID);
  }
}
