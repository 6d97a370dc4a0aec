import { isLive, isTerminal, DUST } from './own-book.ts';
import { RateLimitedError, RequestAbortedError } from '../exchange/errors.ts';
import { isNotSent, LinesmithError } from '../shared/errors.ts';
import { editLeavesOriginal, type CancelEntry, type EditEntry, type PlaceEntry } from '../exchange/orders/types.ts';
import type { OwnOrder } from '../market-model/types.ts';
import { bookKeyOf } from '../markets/types.ts';
import type { UserFeedMessageEvent } from '../exchange/socket/user-feed-events.ts';
import { decodeReference } from '../exchange/orders/user-reference.ts';
import { fillFromFeed, fillFromPlace } from './fills.ts';
import { errorText, type OrderContext } from './order-context.ts';
import type { GatewayResult } from './order-messages.ts';
import type { OrderReconciliation } from './reconciliation.ts';

/**
 * The order manager's execution events: the gateway's answers to our places, cancels and
 * edits, and the user feed's messages about our orders, each moving the order through the
 * lifecycle table. Whichever of an answer and the feed comes second, the newer state stands
 * and fills are booked once per txID. What needs the reconciliation's rules (an order a lost
 * answer's lookup recovered, one of an earlier run, an unknown outcome, a sweep's answer) is
 * handed to it.
 */
export class ExecutionEvents {
  readonly #ctx: OrderContext;
  readonly #reconciliation: OrderReconciliation;

  constructor(ctx: OrderContext, reconciliation: OrderReconciliation) {
    this.#ctx = ctx;
    this.#reconciliation = reconciliation;
  }

  onResult(r: GatewayResult): void {
    const own = this.#ctx.own;
    const now = this.#ctx.clock.now();
    switch (r.kind) {
      case 'placed':
        r.clientIds.forEach((id, i) => this.#onPlaceEntry(id, r.entries[i], now));
        return;
      case 'place-failed': {
        // Errors that know the request never left say so (NotSent): not placed, for sure.
        const notSent = isNotSent(r.error);
        for (const id of r.clientIds) {
          const o = own.order(id);
          if (!o) continue;
          if (notSent) {
            own.apply(id, { kind: 'refused', amounts: { remaining: 0 } }, now, `not sent: ${errorText(r.error)}`);
          } else {
            this.#reconciliation.markUnknown(o, `place outcome unknown: ${errorText(r.error)}`, now);
          }
        }
        return;
      }
      case 'cancelled':
        r.clientIds.forEach((id, i) => this.#onCancelEntry(id, r.entries[i], now));
        return;
      case 'cancel-failed':
        for (const id of r.clientIds) {
          const o = own.order(id);
          if (o && o.status === 'pending-cancel')
            this.#reconciliation.markUnknown(o, `cancel outcome unknown: ${errorText(r.error)}`, now);
        }
        return;
      case 'swept':
        this.#reconciliation.onSwept(r.clientIds, r.entries, now, (id, e) => this.#onCancelEntry(id, e, now));
        return;
      case 'edited':
        this.#onEditEntry(r.replaced, r.clientId, r.entry, now);
        return;
      case 'edit-failed': {
        // As for a place: an error that knows its request never left says so, and nothing changed.
        if (isNotSent(r.error)) {
          const old = own.order(r.replaced);
          if (old && old.status === 'pending-cancel') this.#restore(old, `edit not sent: ${errorText(r.error)}`, now);
          if (own.order(r.clientId))
            own.apply(
              r.clientId,
              { kind: 'refused', amounts: { remaining: 0 } },
              now,
              `not sent: ${errorText(r.error)}`,
            );
          return;
        }
        const error =
          r.error instanceof LinesmithError ? r.error : new LinesmithError(errorText(r.error), { cause: r.error });
        this.#onEditEntry(r.replaced, r.clientId, { status: 'unknown', error }, now);
        return;
      }
      case 'heartbeat-failed':
        this.#ctx.logger.error({ error: errorText(r.error) }, 'heartbeat failed: the exchange may cancel our orders');
        return;
      case 'heartbeat-accepted':
        return;
    }
  }

  #onPlaceEntry(clientId: string, e: PlaceEntry | undefined, now: number): void {
    const { own, market, stats, cooldowns } = this.#ctx;
    const o = own.order(clientId);
    if (!o) return;
    if (!e) {
      this.#reconciliation.markUnknown(o, 'place answer had no entry for this order', now);
      return;
    }
    switch (e.status) {
      case 'accepted': {
        for (const f of e.matched)
          own.addFill(fillFromPlace(f, o.gameID, o.selection, o.strategyId, o.isPostArb, now), clientId);
        const matchedRisk = e.matched.reduce((s, f) => s + f.amount, 0);
        if (o.status !== 'pending-place' && o.status !== 'unknown' && !o.closedByAbsence) {
          // The user feed got here first: the order is already resting, being cancelled or
          // done, and the feed's state is newer than this answer's. Only what the feed
          // could not say yet is taken from the answer.
          const orderID = e.resting?.orderID;
          if (orderID && !o.orderID) own.amend(clientId, { orderID }, now, 'place accepted (after the user feed)');
          return;
        }
        if (e.resting) {
          const remaining = e.resting.offered;
          own.apply(
            clientId,
            {
              kind: matchedRisk > DUST ? 'rests-partly-filled' : 'rests',
              amounts: { orderID: e.resting.orderID, remaining, filled: Math.max(0, o.bet - remaining) },
            },
            now,
            'place accepted',
          );
          market.remarkMine(o.gameID, e.resting.orderID, now, bookKeyOf(o.selection));
        } else {
          own.apply(
            clientId,
            { kind: matchedRisk > DUST ? 'filled' : 'cancelled', amounts: { remaining: 0, filled: matchedRisk } },
            now,
            matchedRisk > DUST ? 'place filled at once' : 'nothing rested',
          );
        }
        return;
      }
      case 'rejected':
        stats.exchangeRejected++;
        cooldowns.cool(o.strategyId ?? '', o.gameID, o.intentKey ?? '', now);
        this.#ctx.notify({
          kind: 'exchange-rejected',
          order: own.apply(clientId, { kind: 'refused', amounts: { remaining: 0 } }, now, `${e.errorType}: ${e.error}`),
          errorType: e.errorType,
          error: e.error,
        });
        return;
      case 'failed':
        // Never sent (a 429, a budget that held it too long, a kill's withdrawal): nothing was
        // said of the order itself, so its key is decided again at once (the runtime looks at
        // the game on every answer), not after a cooldown nothing would end.
        if (!(e.error instanceof RateLimitedError || e.error instanceof RequestAbortedError))
          cooldowns.cool(o.strategyId ?? '', o.gameID, o.intentKey ?? '', now);
        own.apply(
          clientId,
          { kind: 'refused', amounts: { remaining: 0 } },
          now,
          `request refused: ${errorText(e.error)}`,
        );
        return;
      case 'absent':
        // No trace yet is not "not placed": a live delay and the exchange's request limit can
        // keep an order out of every listing for up to PLACE_OUTCOME_GRACE_MS. It stays
        // unknown, counted where it loses, until a listing or message shows it, or the grace
        // passes with none (reconcile closes it then).
        this.#reconciliation.markUnknown(o, `answer lost, no trace found yet: ${e.reason}`, now);
        return;
      case 'recovered':
        this.#reconciliation.applyRecovered(o, e.resting, e.bets, now);
        return;
      case 'unknown':
        this.#reconciliation.markUnknown(o, `place outcome unknown: ${errorText(e.error)}`, now);
        return;
    }
  }

  #onCancelEntry(clientId: string, e: CancelEntry | undefined, now: number, reason = 'cancel confirmed'): void {
    const own = this.#ctx.own;
    const o = own.order(clientId);
    if (!o || !e) return;
    if (e.ok) {
      own.apply(clientId, { kind: 'cancelled', amounts: { remaining: 0, filled: e.filled } }, now, reason);
      // The answer can beat the user feed's fills of the order: what it says matched and no
      // booked fill covers yet still counts where it loses, until those fills are booked
      // (from the feed, or from REST's matched bets at a reconciliation).
      own.awaitFills(clientId, e.filled, now);
    } else if (e.outcomeUnknown) {
      this.#reconciliation.markUnknown(o, `cancel outcome unknown: ${e.reason}`, now);
    } else if (o.status === 'pending-cancel') {
      // Refused: already filled, cancelled or expired. The user feed or a reconciliation says which.
      this.#reconciliation.markUnknown(o, `cancel refused: ${e.reason}`, now);
    }
  }

  /**
   * An edit's answer, for both records: the edited order (`replaced`) and its new terms
   * (`clientId`). Either may have moved on already (the user feed can report the edit, or a
   * fill, before the answer): what the feed set stands, as for a place or a cancel.
   */
  #onEditEntry(replaced: string, clientId: string, e: EditEntry, now: number): void {
    const old = this.#ctx.own.order(replaced);
    const next = this.#ctx.own.order(clientId);
    switch (e.status) {
      case 'accepted':
        // The original is gone either way: amended (its id now the new record's) or cancelled and replaced.
        if (old) this.#onCancelEntry(replaced, e.original, now, 'edited: replaced by its new terms');
        if (next)
          this.#onPlaceEntry(
            clientId,
            { status: 'accepted', userReference: next.userReference, matched: e.matched, resting: e.resting },
            now,
          );
        return;
      case 'rejected':
        if (old && old.status === 'pending-cancel') {
          if (editLeavesOriginal(e.errorType))
            this.#restore(old, `edit refused (${e.errorType}): the order rests as it was`, now);
          else this.#reconciliation.markUnknown(old, `edit refused: ${e.errorType}: ${e.error}`, now);
        }
        if (next)
          this.#onPlaceEntry(
            clientId,
            { status: 'rejected', userReference: next.userReference, errorType: e.errorType, error: e.error },
            now,
          );
        return;
      case 'failed':
        if (old && old.status === 'pending-cancel') this.#restore(old, `edit not sent: ${errorText(e.error)}`, now);
        if (next)
          this.#onPlaceEntry(clientId, { status: 'failed', userReference: next.userReference, error: e.error }, now);
        return;
      case 'unknown':
        if (old && old.status === 'pending-cancel')
          this.#reconciliation.markUnknown(old, `edit outcome unknown: ${errorText(e.error)}`, now);
        if (next && next.status === 'pending-place')
          this.#reconciliation.markUnknown(next, `edit outcome unknown: ${errorText(e.error)}`, now);
        return;
    }
  }

  /** An order whose edit did not run rests on as the user feed last left it. */
  #restore(o: OwnOrder, why: string, now: number): void {
    this.#ctx.own.apply(o.clientId, { kind: o.filled > DUST ? 'rests-partly-filled' : 'rests' }, now, why);
  }

  /** One user-feed message, in order; fills are booked once per txID whoever reports them first. */
  onUserFeed(e: UserFeedMessageEvent): void {
    const { own, market } = this.#ctx;
    const now = this.#ctx.clock.now();
    const gameID = e.message.gameID ?? null;
    const order = e.type === 'orderPlaced' || e.type === 'orderCancelled' || e.type === 'makerFill' ? e.order : null;
    const fill = e.type === 'takerFill' || e.type === 'makerFill' ? e.fill : null;
    const ref = order?.userReference ?? fill?.userReference ?? null;
    const orderID = order?.orderID ?? (e.type === 'takerFill' ? null : (fill?.orderID ?? null));
    let mine = (ref ? own.byReference(ref) : undefined) ?? (orderID ? own.byOrderID(orderID) : undefined);
    if (!mine && order && gameID && decodeReference(ref))
      mine = this.#reconciliation.adoptFromFeed(order, gameID, ref!, now);
    // An order amended in place keeps its id under its new record: a message under the old
    // reference that names that id (a venue that keeps the reference through an edit) is the new record's.
    if (mine && orderID && isTerminal(mine.status) && !mine.closedByAbsence) {
      const current = own.byOrderID(orderID);
      if (current !== undefined && current !== mine && isLive(current)) mine = current;
    }

    if (fill && gameID) {
      const game = market.game(gameID);
      if (game) {
        const f = fillFromFeed(
          fill,
          gameID,
          game.participants,
          e.type === 'makerFill' ? 'offer' : 'wager',
          mine?.strategyId ?? null,
          now,
        );
        // A taker fill's orderID is the order it hit: ours only by its reference.
        if (f) own.addFill(f, mine?.clientId ?? (e.type === 'takerFill' ? null : undefined));
      } else {
        this.#ctx.logger.warn(
          { gameID, txID: fill.txID },
          'fill on a game the model does not know: booked at the next reconciliation',
        );
      }
    }
    if (!mine || !order) return;
    switch (e.type) {
      case 'orderPlaced':
        // Also an order closed only because a REST view did not list it yet: it rests after all.
        if (mine.status === 'pending-place' || mine.status === 'unknown' || mine.closedByAbsence) {
          own.apply(
            mine.clientId,
            { kind: 'rests', amounts: { orderID: order.orderID, remaining: order.remaining } },
            now,
            mine.closedByAbsence ? 'user feed: placed (after it was closed as missing)' : 'user feed: placed',
          );
          market.remarkMine(mine.gameID, order.orderID, now, bookKeyOf(mine.selection));
        } else if (!mine.orderID) {
          own.amend(mine.clientId, { orderID: order.orderID }, now, 'user feed: order id');
        }
        return;
      case 'makerFill': {
        const remaining = order.remaining;
        // A fill that leaves some resting keeps a cancel already asked for (the lifecycle table says so).
        own.apply(
          mine.clientId,
          {
            kind: remaining > DUST ? 'partly-filled' : 'filled',
            amounts: { orderID: order.orderID, remaining, filled: Math.max(0, order.offered - remaining) },
          },
          now,
          remaining > DUST ? 'user feed: partly filled' : 'user feed: filled',
        );
        return;
      }
      case 'orderCancelled': {
        const was = mine.status;
        own.apply(
          mine.clientId,
          { kind: 'cancelled', amounts: { orderID: order.orderID, remaining: 0 } },
          now,
          'user feed: cancelled',
        );
        if (was === 'resting' || was === 'partly-filled' || was === 'pending-cancel' || was === 'unknown') {
          this.#ctx.notify({
            kind: 'exchange-cancelled',
            order: mine,
            asked: was === 'pending-cancel' || was === 'unknown',
            via: 'user feed',
          });
        }
        return;
      }
    }
  }
}
