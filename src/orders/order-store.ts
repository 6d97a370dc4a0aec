import type { OwnOrder, OwnOrderIDs, OwnOrderStatus } from '../market-model/types.ts';
import { DuplicateOrderError, UnknownOrderError } from './errors.ts';
import {
  closesByAbsence,
  IllegalTransitionError,
  lifecycleStateOf,
  transitionOf,
  type OrderAmounts,
  type OrderEvent,
} from './lifecycle.ts';
import type { TransitionReason } from './transition-reason.ts';

/** Risk below this is nothing left (the engine's dust). */
export const DUST = 1e-9;

/** cancelled, filled, expired or rejected: the order is done (compared, not looked up: asked on every order move). */
export function isTerminal(status: OwnOrderStatus): boolean {
  return status === 'cancelled' || status === 'filled' || status === 'expired' || status === 'rejected';
}

/** Whether an order may still rest or fill: counted in projected liability. */
export function isLive(o: OwnOrder): boolean {
  return !isTerminal(o.status);
}

/** What of an order counts in the projected worst case: its remaining risk while it is live. */
export function restingOf(o: OwnOrder): number {
  return isLive(o) && o.remaining > DUST ? o.remaining : 0;
}

/**
 * How long a terminal order is kept for late messages about it: a fill or listing that
 * raced its cancel, or a REST view of the account taken before it ended (which must not
 * adopt it again). Those come within seconds; a bot running for days must not keep every
 * order it ever placed.
 */
export const TERMINAL_RETENTION_MS = 15 * 60_000;
/** And never more than this many, whatever their age. */
export const MAX_TERMINAL_KEPT = 20_000;

export type TransitionListener = (order: OwnOrder, from: OwnOrderStatus | null, reason: TransitionReason) => void;

/** What the order store tells, and asks, the parts that work from its orders. */
export interface OrderStoreHooks {
  /**
   * An order was added (`before` null) or its record replaced. Told before `onTransition`,
   * so a listener that reads what the orders make (the liability) already sees the change.
   */
  readonly onChange: (before: OwnOrder | null, after: OwnOrder) => void;
  readonly onTransition?: TransitionListener;
  readonly onIllegalTransition?: (e: IllegalTransitionError) => void;
  /** Whether a finished order past its retention must still be kept: fills reported for it are still to come. */
  readonly stillNeeded?: (order: OwnOrder) => boolean;
  /** A finished order left the store (its retention is over). */
  readonly onForget?: (order: OwnOrder) => void;
}

const NO_ORDERS: ReadonlyMap<string, OwnOrder> = new Map();

/**
 * A game's live orders by client id, in the order they were added, with the version of
 * what they are now: a number the store gives no other state of any game's live orders.
 */
class LiveOrders extends Map<string, OwnOrder> {
  /**
   * Lists of them made at `listedAt` (a version): see `liveListOf`. All of them, and those of
   * the first strategy asked for, in fields: a game's lists are made again after every move
   * of its orders, and most games are quoted by one strategy. Other strategies' in `more`.
   */
  listedAt = -1;
  all: readonly OwnOrder[] | null = null;
  oneId: string | null = null;
  one: readonly OwnOrder[] | null = null;
  more: Map<string | null, readonly OwnOrder[]> | null = null;

  constructor(public version: number) {
    super();
  }
}

const NO_LIST: readonly OwnOrder[] = Object.freeze([]);

/**
 * Every order we placed or adopted, by client id, exchange order id and userReference;
 * the live ones per game in the order they were added; their moves by the lifecycle table
 * (`lifecycle.ts`); and finished orders kept a while for late words about them. Records are
 * immutable objects replaced on every change, so snapshots handed out stay valid.
 */
export class OrderStore {
  readonly #orders = new Map<string, OwnOrder>();
  readonly #byOrderID = new Map<string, string>();
  readonly #byReference = new Map<string, string>();
  /**
   * Per game, how many keys of #byOrderID may name an order of it: never fewer than there
   * are (a key that moves to an order of another game stays counted for the first), so a
   * game without an entry has no order id in #byOrderID (see `ownOrderIDs`).
   */
  readonly #idsPerGame = new Map<string, number>();
  /**
   * Per game, its live orders by client id in the order they were added (terminal ones
   * leave at once): the current record of each, so reading them needs no lookup in #orders.
   * Games come and go with `openGame` / `forgetGame`, so they iterate in the order the
   * owner of the games saw them.
   */
  readonly #live = new Map<string, LiveOrders>();
  /** The last version given to a game's live orders (see `liveVersionOf`). */
  #versions = 0;
  /**
   * Terminal orders in the order they ended (client ids), and when (at the same index), for
   * pruning; those before #terminalHead are gone. Two lists rather than an object per order:
   * every order ends once, and the times stay unboxed numbers.
   */
  readonly #terminal: string[] = [];
  readonly #terminalAt: number[] = [];
  #terminalHead = 0;
  readonly #hooks: OrderStoreHooks;
  readonly #onTransition: TransitionListener;
  readonly #onIllegal: (e: IllegalTransitionError) => void;

  /** Lifecycle events applied that the table refuses (`illegal`) or absorbs as a late word on a closed order (`late`). */
  readonly lifecycle = { illegal: 0, late: 0 };

  constructor(hooks: OrderStoreHooks) {
    this.#hooks = hooks;
    this.#onTransition = hooks.onTransition ?? (() => {});
    this.#onIllegal = hooks.onIllegalTransition ?? (() => {});
  }

  order(clientId: string): OwnOrder | undefined {
    return this.#orders.get(clientId);
  }

  /** The client id of the order the exchange knows as `orderID`. */
  clientIdOf(orderID: string): string | undefined {
    return this.#byOrderID.get(orderID);
  }

  byOrderID(orderID: string): OwnOrder | undefined {
    const c = this.#byOrderID.get(orderID);
    return c === undefined ? undefined : this.#orders.get(c);
  }

  byReference(userReference: string): OwnOrder | undefined {
    const c = this.#byReference.get(userReference);
    return c === undefined ? undefined : this.#orders.get(c);
  }

  isOurOrderID(orderID: string): boolean {
    return this.#byOrderID.has(orderID);
  }

  /**
   * isOurOrderID as one function over the id map (never replaced), for a caller that asks
   * for every order of every side it reads: no call through the store on each.
   */
  orderIDTest(): (orderID: string) => boolean {
    const ids = this.#byOrderID;
    return (orderID) => ids.has(orderID);
  }

  /**
   * isOurOrderID game by game: for a game no order id of ours names an order of, no test at
   * all (a reader of its sides skips the lookup of every order); otherwise the same answer
   * as isOurOrderID, finished orders still known included (a side may list them until the
   * exchange drops them).
   */
  ownOrderIDs(): OwnOrderIDs {
    const counts = this.#idsPerGame;
    const test = this.orderIDTest();
    return { ofGame: (gameID) => (counts.has(gameID) ? test : null) };
  }

  /** `orderID` names the order `clientId` of `gameID` now. */
  #setOrderID(orderID: string, clientId: string, gameID: string): void {
    const was = this.#byOrderID.get(orderID);
    this.#byOrderID.set(orderID, clientId);
    if (was === clientId || (was !== undefined && this.#orders.get(was)?.gameID === gameID)) return;
    this.#idsPerGame.set(gameID, (this.#idsPerGame.get(gameID) ?? 0) + 1);
  }

  /** `orderID` names no order any more; it named the order of `gameID`. */
  #deleteOrderID(orderID: string, gameID: string): void {
    this.#byOrderID.delete(orderID);
    const n = this.#idsPerGame.get(gameID) ?? 0;
    if (n > 1) this.#idsPerGame.set(gameID, n - 1);
    else this.#idsPerGame.delete(gameID);
  }

  allOrders(): IterableIterator<OwnOrder> {
    return this.#orders.values();
  }

  /** Start keeping the game's live orders (idempotent): games iterate in the order they were opened. */
  openGame(gameID: string): void {
    if (!this.#live.has(gameID)) this.#live.set(gameID, new LiveOrders(++this.#versions));
  }

  /**
   * A number that changes whenever the game's live orders do (one added, replaced by its
   * next record, or gone), and is never given to another state of them, of any game: equal
   * numbers mean the same orders, the same records. -1 while the game keeps none (no order
   * of it is live then).
   */
  liveVersionOf(gameID: string): number {
    return this.#live.get(gameID)?.version ?? -1;
  }

  /** Stop keeping a game with no live order left. */
  forgetGame(gameID: string): void {
    this.#live.delete(gameID);
  }

  /** Orders that may still rest or fill, optionally of one game and one strategy. */
  liveOrders(gameID?: string, strategyId?: string | null): OwnOrder[] {
    const out: OwnOrder[] = [];
    if (gameID === undefined) {
      for (const live of this.#live.values()) liveOf(live, strategyId, out);
    } else {
      const live = this.#live.get(gameID);
      if (live !== undefined) liveOf(live, strategyId, out);
    }
    return out;
  }

  /**
   * `liveOrders(gameID, strategyId)` made once per version of the game's live orders (see
   * `liveVersionOf`) and shared, frozen, until they change: for readers that ask far more
   * often than the orders move. Reading it changes nothing the store holds.
   */
  liveListOf(gameID: string, strategyId?: string | null): readonly OwnOrder[] {
    const live = this.#live.get(gameID);
    if (live === undefined) return NO_LIST;
    if (live.listedAt !== live.version) {
      live.all = null;
      live.one = null;
      if (live.more !== null && live.more.size > 0) live.more.clear();
      live.listedAt = live.version;
    }
    if (strategyId === undefined) return (live.all ??= listOf(live, undefined));
    if (live.one === null) {
      live.oneId = strategyId;
      return (live.one = listOf(live, strategyId));
    }
    if (live.oneId === strategyId) return live.one;
    const more = (live.more ??= new Map());
    let list = more.get(strategyId);
    if (list === undefined) more.set(strategyId, (list = listOf(live, strategyId)));
    return list;
  }

  /** Whether any live order has the status, without listing them (a check made on every tick). */
  hasLiveWithStatus(status: OwnOrderStatus): boolean {
    for (const live of this.#live.values()) for (const o of live.values()) if (o.status === status) return true;
    return false;
  }

  /** The game's live orders as kept (no copy): for readers that only iterate them. */
  liveIn(gameID: string): Iterable<OwnOrder> {
    return (this.#live.get(gameID) ?? NO_ORDERS).values();
  }

  /** How many of the game's orders may still rest or fill. */
  liveCountOf(gameID: string): number {
    return this.#live.get(gameID)?.size ?? 0;
  }

  liveCount(): number {
    let n = 0;
    for (const live of this.#live.values()) n += live.size;
    return n;
  }

  /** A new order: pending-place until the exchange answers, or adopted at start-up with its state. */
  add(order: OwnOrder, reason: TransitionReason): OwnOrder {
    if (this.#orders.has(order.clientId)) throw new DuplicateOrderError(order.clientId);
    this.#orders.set(order.clientId, order);
    this.#byReference.set(order.userReference, order.clientId);
    if (order.orderID) this.#setOrderID(order.orderID, order.clientId, order.gameID);
    this.#hooks.onChange(null, order);
    if (isLive(order)) this.#setLive(order);
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
      return this.#write(cur, amounts, undefined, false, now, reason);
    }
    return this.#write(cur, amounts, cell, closesByAbsence(event.kind), now, reason);
  }

  /** Correct what the exchange says of an order (its id, its amounts) without moving its status. */
  amend(clientId: string, amounts: OrderAmounts, now: number, reason: string): OwnOrder {
    const cur = this.#orders.get(clientId);
    if (!cur) throw new UnknownOrderError(clientId);
    return this.#write(cur, amounts, undefined, false, now, reason);
  }

  /** A finished order kept past its retention (see `stillNeeded`) that may go now: its retention starts again. */
  retainFrom(clientId: string, now: number): void {
    this.#ended(clientId, now);
  }

  /** The order `clientId` is finished as of `now`: it is pruned once its retention is over. */
  #ended(clientId: string, now: number): void {
    this.#terminal.push(clientId);
    this.#terminalAt.push(now);
  }

  /**
   * The order's next record: `cur` with the amounts given (each one present in `amounts`,
   * as a spread would take it), the status, `closedByAbsence` when `closed`, and the time.
   * Setting a status clears `closedByAbsence` unless `closed` sets it again.
   */
  #write(
    cur: OwnOrder,
    amounts: OrderAmounts | undefined,
    status: OwnOrderStatus | undefined,
    closed: boolean,
    now: number,
    reason: string,
  ): OwnOrder {
    const clientId = cur.clientId;
    let orderID = cur.orderID;
    let filled = cur.filled;
    let remaining = cur.remaining;
    if (amounts !== undefined) {
      if ('orderID' in amounts) orderID = amounts.orderID as string | null;
      if ('filled' in amounts) filled = amounts.filled as number;
      if ('remaining' in amounts) remaining = amounts.remaining as number;
    }
    const absence = closed || (status === undefined && cur.closedByAbsence === true);
    const next = recordOf(cur, orderID, filled, remaining, status ?? cur.status, absence, now);
    this.#orders.set(clientId, next);
    if (next.orderID && next.orderID !== cur.orderID) this.#setOrderID(next.orderID, clientId, next.gameID);
    this.#hooks.onChange(cur, next);
    if (isLive(cur) && !isLive(next)) {
      const live = this.#live.get(next.gameID);
      if (live !== undefined && live.delete(clientId)) live.version = ++this.#versions;
      this.#ended(clientId, now);
      this.#prune(now);
    } else if (isLive(next)) {
      // A reopened order's game may have been forgotten meanwhile: it has a live order again.
      this.#setLive(next);
    }
    if (next.status !== cur.status) this.#onTransition(next, cur.status, reason);
    return next;
  }

  /** `order` is live: its record goes in its game's live orders (listed last when new), a new version of them. */
  #setLive(order: OwnOrder): void {
    let live = this.#live.get(order.gameID);
    if (live === undefined) this.#live.set(order.gameID, (live = new LiveOrders(0)));
    live.set(order.clientId, order);
    live.version = ++this.#versions;
  }

  /** Forget terminal orders past their retention, and the oldest beyond the cap (their fills stay). */
  #prune(now: number): void {
    const list = this.#terminal;
    const at = this.#terminalAt;
    let head = this.#terminalHead;
    while (head < list.length && (list.length - head > MAX_TERMINAL_KEPT || at[head]! < now - TERMINAL_RETENTION_MS)) {
      const id = list[head++]!;
      const o = this.#orders.get(id);
      if (!o || isLive(o)) continue;
      // Its fills are still to come and must find it: kept until they do (`retainFrom` lists it again).
      if (this.#hooks.stillNeeded?.(o) === true) continue;
      this.#orders.delete(id);
      if (this.#byReference.get(o.userReference) === id) this.#byReference.delete(o.userReference);
      if (o.orderID && this.#byOrderID.get(o.orderID) === id) this.#deleteOrderID(o.orderID, o.gameID);
      this.#hooks.onForget?.(o);
    }
    // Drop the consumed front now and then rather than shifting on every order.
    if (head > 1_024 && head * 2 > list.length) {
      list.splice(0, head);
      at.splice(0, head);
      head = 0;
    }
    this.#terminalHead = head;
  }
}

/**
 * `cur` with the fields that move set, as one literal per shape: the fields in the order
 * every maker of a record lays them out (`mayTake` only when `cur` has it, `closedByAbsence`
 * last and only when set). A copy by `Object.assign` or a spread walks the fields one by
 * one, and the store writes a record on every order move; an order closed by absence is
 * rare, so that one shape is the common record spread once more.
 */
function recordOf(
  cur: OwnOrder,
  orderID: string | null,
  filled: number,
  remaining: number,
  status: OwnOrderStatus,
  closedByAbsence: boolean,
  updatedAt: number,
): OwnOrder {
  const mayTake = cur.mayTake;
  const r: OwnOrder =
    mayTake === undefined
      ? {
          clientId: cur.clientId,
          userReference: cur.userReference,
          orderID,
          strategyId: cur.strategyId,
          intentKey: cur.intentKey,
          gameID: cur.gameID,
          selection: cur.selection,
          odds: cur.odds,
          bet: cur.bet,
          filled,
          remaining,
          status,
          isPostArb: cur.isPostArb,
          createdAt: cur.createdAt,
          updatedAt,
        }
      : {
          clientId: cur.clientId,
          userReference: cur.userReference,
          orderID,
          strategyId: cur.strategyId,
          intentKey: cur.intentKey,
          gameID: cur.gameID,
          selection: cur.selection,
          odds: cur.odds,
          bet: cur.bet,
          filled,
          remaining,
          status,
          isPostArb: cur.isPostArb,
          mayTake,
          createdAt: cur.createdAt,
          updatedAt,
        };
  return closedByAbsence ? { ...r, closedByAbsence } : r;
}

function liveOf(live: ReadonlyMap<string, OwnOrder>, strategyId: string | null | undefined, out: OwnOrder[]): void {
  for (const o of live.values()) if (strategyId === undefined || o.strategyId === strategyId) out.push(o);
}

/** The live orders of `strategyId` (undefined: all), as a list shared, frozen, by every reader. */
function listOf(live: ReadonlyMap<string, OwnOrder>, strategyId: string | null | undefined): readonly OwnOrder[] {
  const out: OwnOrder[] = [];
  liveOf(live, strategyId, out);
  return Object.freeze(out);
}
