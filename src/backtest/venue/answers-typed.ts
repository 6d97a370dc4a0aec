import type { MatchingEngine } from '../../engine/engine.ts';
import type { OrderView } from '../../engine/types.ts';
import type { CancelEntry, CancelledOrder, EditEntry, PlaceEntry } from '../../exchange/orders/types.ts';
import { gatewayEditOf } from '../../exchange/rest/gateway-capabilities.ts';
import { classifyMessage } from '../../exchange/socket/user-feed-events.ts';
import { userFeedMessage } from '../../sim/feeds/user-feed-messages.ts';
import { describeOrder } from '../../sim/ops/describe.ts';
import type { VenueAnswers } from './answers.ts';

/**
 * The answers built straight from the engine replica's outcomes, with no wire payload
 * rendered and parsed back: each value is the one the wire build (answers-wire.ts) reads,
 * field for field, which the wire-versus-typed contract test holds them to. The engine's
 * place results already have the wire's fields (a fill's and a resting order's), so they
 * pass as they are; a cancel's amounts are those of the order at the moment it closed.
 */
export function typedAnswers(engine: MatchingEngine): VenueAnswers {
  const cancelled = (o: OrderView): CancelledOrder => {
    const open = o.status === 'open';
    const game = engine.game(o.gameID);
    return {
      ok: true,
      orderID: o.id,
      odds: o.odds,
      filled: o.filled,
      offered: open ? o.bet : 0,
      remaining: open ? o.remaining : o.bet - o.filled,
      gameID: o.gameID,
      userReference: o.userReference,
      // A plain field: an object literal with a getter is built through V8's slow path, which
      // cost several times the spelling it put off.
      description: describeOrder(game, o),
    };
  };
  return {
    place: (outcome, userReference): PlaceEntry =>
      outcome.status === 'error'
        ? { status: 'rejected', userReference, errorType: outcome.errorType, error: outcome.error }
        : { status: 'accepted', userReference, matched: [...outcome.matched], resting: outcome.unmatched },
    cancel: (outcome, requestedId): CancelEntry => {
      if (outcome.success) return cancelled(outcome.order);
      return { ok: false, orderID: outcome.order?.id ?? requestedId, reason: outcome.reason };
    },
    edit: (orderID, outcome): EditEntry => {
      if (outcome.status === 'error')
        return gatewayEditOf({
          status: 'refused',
          orderID,
          httpStatus: 400,
          reason: outcome.error,
          errorType: outcome.errorType,
        });
      // The original as withdrawn: an order still open is reported as the cancel of its old terms.
      const original = outcome.edit.original;
      return {
        status: 'accepted',
        original: cancelled(original.status === 'open' ? { ...original, status: 'cancelled' } : original),
        matched: [...outcome.matched],
        resting: outcome.unmatched,
      };
    },
    feed: (item, game, now, messageID) => classifyMessage(userFeedMessage(item, game, now, messageID), 'live'),
  };
}
