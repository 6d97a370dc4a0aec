import type { GameState, OwnOrder } from '../market-model/types.ts';
import type { CancelEntry, MatchedBet, UnmatchedOrder } from '../exchange/orders/types.ts';
import { decodeReference } from '../exchange/orders/user-reference.ts';
import { bookKeyOf } from '../markets/types.ts';
import { selectionFromWire } from '../markets/wire-selection.ts';
import { fillFromBet } from './fills.ts';
import { errorText, type OrderContext } from './order-context.ts';
import { DUST } from './own-book.ts';
import type { TotalSide } from './total-sides.ts';

/**
 * How long an order whose place outcome is unknown may still first appear at the exchange,
 * counted from when it became unknown (after its request was sent: the gateway may hold a
 * batch behind the request budget or an earlier batch, so the send time is not known
 * here). A matching order on a live game waits its league's delay before it executes, up
 * to 10 s (exchange-api §4.5 rule 7, §8), and a request may run 15 s server-side before it
 * is aborted (§7.1 item 4, §8): 25 s, plus 5 s for transit and clock skew. Until then a REST
 * view that does not list the order proves nothing, and it stays unknown and counted.
 */
export const PLACE_OUTCOME_GRACE_MS = 30_000;

/** An order whose place was never answered: no order id, nothing known of it at the exchange. */
function placeOutcomeUnknown(o: OwnOrder): boolean {
  return o.status === 'unknown' && o.orderID === null;
}

/** The wire fields of an order the user feed reports, as far as adopting it needs them. */
export interface FeedOrder {
  readonly orderID: string;
  readonly odds: number;
  readonly type: string;
  readonly side: string;
  readonly number?: number | null;
  readonly market?: string | null;
  readonly offered: number;
  readonly remaining: number;
  readonly filled: number;
}

/** How a reconciliation treats what it finds (see OrderReconciliation.reconcile). */
export interface ReconcileOptions {
  readonly cancelForeign: boolean;
  readonly gameLookup: (id: string) => boolean;
  readonly asOf?: number;
  /** The own side of each total to adopt, looked up (`totalSidesOf`): the listing does not say it. A total without one is not adopted. */
  readonly totalSides?: ReadonlyMap<string, TotalSide>;
}

/** What a reconciliation did: orders adopted, live orders closed as missing, foreign orders found. */
export interface ReconcileSummary {
  readonly adopted: number;
  readonly closed: number;
  readonly foreign: number;
}

/**
 * The order manager's reconciliation with what the exchange says outside an answer: the
 * REST view of open orders and matched bets (orders of an earlier run adopted, live orders
 * it no longer lists closed, foreign ones reported or cancelled), orders of an earlier run
 * adopted from the user feed, orders a lost answer's lookup recovered, orders whose outcome
 * is unknown (marked, counted, and kept so until evidence resolves them), and the cancels of
 * every order of the account or a game (sweeps) with their answers.
 */
export class OrderReconciliation {
  readonly #ctx: OrderContext;

  constructor(ctx: OrderContext) {
    this.#ctx = ctx;
  }

  /** Whether reconcile would adopt this open order (so a total's side is worth looking up for it). */
  adopts(u: UnmatchedOrder): boolean {
    return this.#mine(u) === undefined && this.#adoptable(u) !== null;
  }

  /** The book's order this open order is (by reference, else by id). */
  #mine(u: UnmatchedOrder): OwnOrder | undefined {
    const own = this.#ctx.own;
    return (u.userReference ? own.byReference(u.userReference) : undefined) ?? own.byOrderID(u.id);
  }

  /** An open order unknown to the book that is ours by its reference, on a game the model holds: what reconcile adopts, if it can read it. */
  #adoptable(
    u: UnmatchedOrder,
  ): { readonly decoded: { strategyId: string; clientId: string }; readonly game: GameState } | null {
    const decoded = decodeReference(u.userReference);
    const game = u.game ? this.#ctx.market.game(u.game.id) : undefined;
    return decoded && game ? { decoded, game } : null;
  }

  /**
   * Align our state with the exchange's open orders and matched bets (start-up, after a
   * cache_expired gap, and to resolve unknown outcomes): orders of ours found resting are
   * adopted or confirmed (also one closed earlier for missing from a view); live orders not
   * found are closed (filled if a bet of theirs exists, else cancelled) as missing, except an
   * unknown place inside PLACE_OUTCOME_GRACE_MS; fills are booked once. Orders of other origins are cancelled
   * when `cancelForeign`, else left alone and reported. `asOf`: when the snapshot was
   * requested; an order that changed since is newer than the snapshot (placed while it was
   * read, say) and is not closed for missing from it.
   */
  reconcile(
    unmatched: readonly UnmatchedOrder[],
    bets: readonly MatchedBet[],
    options: ReconcileOptions,
  ): ReconcileSummary {
    const { own, market, stats } = this.#ctx;
    const now = this.#ctx.clock.now();
    let adopted = 0;
    let closed = 0;
    const foreign: string[] = [];
    const unreadable: string[] = [];
    const seen = new Set<string>();
    for (const u of unmatched) {
      const mine = this.#mine(u);
      if (mine) {
        seen.add(mine.clientId);
        if (mine.status === 'pending-cancel') continue;
        own.apply(
          mine.clientId,
          {
            kind: u.filled > DUST ? 'rests-partly-filled' : 'rests',
            amounts: { orderID: u.id, remaining: u.remaining, filled: u.filled },
          },
          now,
          'reconciled: resting',
        );
        // First seen by its order id (an unknown place, or one closed as missing): the book model lists it as ours.
        if (mine.orderID !== u.id) market.remarkMine(mine.gameID, u.id, now, bookKeyOf(mine.selection));
        continue;
      }
      const ours = this.#adoptable(u);
      if (ours === null) {
        foreign.push(u.id);
        continue;
      }
      const { decoded, game } = ours;
      const selection = selectionFromWire(game.participants, wireOfUnmatched(u, options.totalSides));
      if (selection) {
        own.add(
          {
            clientId: decoded.clientId,
            userReference: u.userReference!,
            orderID: u.id,
            strategyId: decoded.strategyId,
            intentKey: null,
            gameID: game.id,
            selection,
            odds: u.odds,
            bet: u.bet,
            filled: u.filled,
            remaining: u.remaining,
            status: 'resting',
            isPostArb: false,
            createdAt: now,
            updatedAt: now,
          },
          'adopted at reconciliation (placed by an earlier run)',
        );
        // Open at the exchange: not to be closed as missing below.
        seen.add(decoded.clientId);
        adopted++;
        continue;
      }
      // Ours by its reference, on a game we follow, but not readable (a total whose side could
      // not be looked up): it cannot be counted, so it is cancelled, whatever cancelForeign says.
      unreadable.push(u.id);
    }
    const betRefs = new Set<string>();
    for (const b of bets) {
      if (b.userReference) betRefs.add(b.userReference);
      if (!b.game || !options.gameLookup(b.game.id)) continue;
      const game = market.game(b.game.id);
      if (!game || own.hasFill(b.txID)) continue;
      const owner = b.userReference ? own.byReference(b.userReference) : undefined;
      const f = fillFromBet(
        b,
        game.participants,
        this.#ctx.commissionRate(),
        owner?.strategyId ?? decodeReference(b.userReference)?.strategyId ?? null,
        now,
      );
      if (f) own.addFill(f, owner?.clientId);
    }
    const asOf = options.asOf ?? now;
    for (const o of own.liveOrders()) {
      if (seen.has(o.clientId) || o.status === 'pending-place' || o.status === 'pending-cancel') continue;
      if (options.asOf !== undefined && o.updatedAt >= options.asOf) continue;
      // Not listed yet is not "not placed": it may sit in a live delay or a slow request.
      if (placeOutcomeUnknown(o) && asOf - o.updatedAt < PLACE_OUTCOME_GRACE_MS) continue;
      const filled = betRefs.has(o.userReference);
      const unasked = !filled && (o.status === 'resting' || o.status === 'partly-filled');
      // Closed by absence, which later evidence of the order may overturn.
      own.apply(
        o.clientId,
        { kind: filled ? 'missing-with-bets' : 'missing', amounts: { remaining: 0 } },
        now,
        filled ? 'reconciled: not open, has bets' : 'reconciled: not open',
      );
      if (unasked) this.#ctx.notify({ kind: 'exchange-cancelled', order: o, asked: false, via: 'reconciliation' });
      closed++;
    }
    if (unreadable.length > 0) {
      this.#ctx.logger.warn(
        { orderIDs: unreadable },
        'open orders of ours whose side could not be read: cancelling them, as they cannot be counted',
      );
      this.#sendForeignCancels(unreadable);
      stats.unreadableCancelled += unreadable.length;
    }
    if (foreign.length > 0) {
      this.#ctx.logger.warn(
        { count: foreign.length, cancel: options.cancelForeign },
        'open orders on the account that linesmith did not place',
      );
      if (options.cancelForeign) this.#sendForeignCancels(foreign);
    }
    stats.adopted += adopted;
    stats.reconcileClosed += closed;
    stats.foreignFound += foreign.length;
    if (options.cancelForeign) stats.foreignCancelled += foreign.length;
    return { adopted, closed, foreign: foreign.length };
  }

  /**
   * An order of ours by its reference that the user feed reports and the book does not hold
   * (placed by an earlier run), adopted as resting; undefined when its game or its selection
   * cannot be read.
   */
  adoptFromFeed(order: FeedOrder, gameID: string, ref: string, now: number): OwnOrder | undefined {
    const game = this.#ctx.market.game(gameID);
    const decoded = decodeReference(ref);
    if (!game || !decoded) return undefined;
    const selection = selectionFromWire(game.participants, {
      type: order.type,
      side: order.side,
      number: order.number ?? null,
      market: order.market ?? null,
    });
    if (!selection) return undefined;
    this.#ctx.stats.adopted++;
    return this.#ctx.own.add(
      {
        clientId: decoded.clientId,
        userReference: ref,
        orderID: order.orderID,
        strategyId: decoded.strategyId,
        intentKey: null,
        gameID,
        selection,
        odds: order.odds,
        bet: order.offered,
        filled: 0,
        remaining: order.remaining,
        status: 'resting',
        isPostArb: false,
        createdAt: now,
        updatedAt: now,
      },
      'adopted from the user feed (placed by an earlier run)',
    );
  }

  /** A place whose answer was lost, found by its userReference: its bets booked, the order resting or filled. */
  applyRecovered(o: OwnOrder, resting: UnmatchedOrder | null, bets: readonly MatchedBet[], now: number): void {
    const { own, market } = this.#ctx;
    const game = market.game(o.gameID);
    if (game)
      for (const b of bets) {
        const f = fillFromBet(b, game.participants, this.#ctx.commissionRate(), o.strategyId, now, o.isPostArb);
        if (f) own.addFill(f, o.clientId);
      }
    if (resting) {
      own.apply(
        o.clientId,
        {
          kind: resting.filled > DUST ? 'rests-partly-filled' : 'rests',
          amounts: { orderID: resting.id, remaining: resting.remaining, filled: resting.filled },
        },
        now,
        'recovered by userReference: resting',
      );
      market.remarkMine(o.gameID, resting.id, now, bookKeyOf(o.selection));
    } else {
      own.apply(o.clientId, { kind: 'filled', amounts: { remaining: 0 } }, now, 'recovered by userReference: filled');
    }
  }

  /** The order's outcome is not known: counted where it loses until the user feed or a REST view resolves it. */
  markUnknown(o: OwnOrder, why: string, now: number): void {
    this.#ctx.stats.unknown++;
    const next = this.#ctx.own.apply(o.clientId, { kind: 'outcome-unknown' }, now, why);
    this.#ctx.notify({ kind: 'unknown-outcome', order: next, error: why });
  }

  /**
   * Cancel every open order of the account (no game given) or of one game in one request,
   * when the venue can: the kill switch, shutdown and a game's halt. It also reaches orders
   * whose place or edit is still unanswered, and orders linesmith did not place. False when
   * the venue cannot, or nothing of ours is live there (the caller cancels by id, if anything).
   */
  sweep(orders: readonly OwnOrder[], reason: string, gameID: string | undefined): boolean {
    const { gateway: gw, own, stats } = this.#ctx;
    const send =
      gameID === undefined
        ? gw.cancelAllOfAccount === undefined
          ? undefined
          : () => gw.cancelAllOfAccount!()
        : gw.cancelAllOfGame === undefined
          ? undefined
          : () => gw.cancelAllOfGame!(gameID);
    // Nothing of ours there (a game we never quoted closing, say): nothing to send.
    if (send === undefined || (gameID === undefined ? own.liveCount() : own.liveCountOf(gameID)) === 0) return false;
    const now = this.#ctx.clock.now();
    const clientIds = orders.map(
      (o) =>
        own.apply(
          o.clientId,
          { kind: 'cancel-sent' },
          now,
          `cancel all${gameID === undefined ? '' : ' of the game'}: ${reason}`,
        ).clientId,
    );
    stats.cancelRequests++;
    stats.sweepRequests++;
    stats.cancelsSent += clientIds.length;
    send().then(
      (entries) => this.#ctx.deliver({ kind: 'swept', clientIds, entries }),
      (error: unknown) => this.#ctx.deliver({ kind: 'cancel-failed', clientIds, error }),
    );
    return true;
  }

  /**
   * The answer of a cancel of every order of the account (or game): each result is matched to
   * our order by reference, else id (an order whose place or edit is still unanswered too), and
   * handed to `confirm`, which books it as any cancel's answer. An order of ours it was sent for
   * and that it does not list was not open when it ran (filled, cancelled or expired): unknown
   * until the user feed or a REST view says which.
   */
  onSwept(
    clientIds: readonly string[],
    entries: readonly CancelEntry[],
    now: number,
    confirm: (clientId: string, entry: CancelEntry) => void,
  ): void {
    const own = this.#ctx.own;
    const answered = new Set<string>();
    let foreign = 0;
    for (const e of entries) {
      if (!e.ok) continue;
      const mine = (e.userReference ? own.byReference(e.userReference) : undefined) ?? own.byOrderID(e.orderID);
      if (!mine) {
        foreign++;
        continue;
      }
      answered.add(mine.clientId);
      confirm(mine.clientId, e);
    }
    for (const id of clientIds) {
      const o = own.order(id);
      if (o && !answered.has(id) && o.status === 'pending-cancel')
        this.markUnknown(o, 'not among the cancelled: it was not open', now);
    }
    if (foreign > 0)
      this.#ctx.logger.warn({ count: foreign }, 'cancelled with ours: open orders linesmith did not place');
  }

  #sendForeignCancels(orderIDs: readonly string[]): void {
    this.#ctx.stats.cancelRequests++;
    this.#ctx.gateway.cancel(orderIDs).then(
      (entries) =>
        this.#ctx.logger.info(
          { cancelled: entries.filter((e) => e.ok).length, of: orderIDs.length },
          'cancelled orders linesmith did not place',
        ),
      (error: unknown) => this.#ctx.logger.error({ error: errorText(error) }, 'could not cancel foreign orders'),
    );
  }
}

/** How an order of getUnmatched is placed; a total's side only from `totalSides` (see totalSidesOf), '' (unreadable) without it. */
export function wireOfUnmatched(
  u: UnmatchedOrder,
  totalSides: ReadonlyMap<string, TotalSide> | undefined,
): { type: string; side: string; number: number | null; market: string | null } {
  switch (u.type) {
    case 'total':
      return { type: u.type, side: totalSides?.get(u.id) ?? '', number: u.total ?? null, market: null };
    case 'spread':
      return { type: u.type, side: u.participantID ?? '', number: u.spread ?? null, market: null };
    case 'moneyline1x2':
      return { type: u.type, side: u.side ?? '', number: null, market: u.market ?? null };
    default:
      return { type: u.type, side: u.participantID ?? '', number: null, market: null };
  }
}
