import { z } from 'zod';
import type { MatchingEngine } from '../../engine/engine.ts';
import { cancelEntryOf, placeEntryOf } from '../../exchange/orders/normalise.ts';
import type { EditEntry } from '../../exchange/orders/types.ts';
import { editedEntryOf } from '../../exchange/rest/edit-entry.ts';
import { gatewayEditOf } from '../../exchange/rest/gateway-capabilities.ts';
import { GradedRow } from '../../exchange/schemas/bets.ts';
import { EditOrderResult } from '../../exchange/schemas/edit.ts';
import { WireCancelResult, WirePlaceEntry } from '../../exchange/schemas/orders.ts';
import { UserFeedMessage } from '../../exchange/schemas/user-feed.ts';
import { classifyMessage } from '../../exchange/socket/user-feed-events.ts';
import { userFeedMessage } from '../../sim/feeds/user-feed-messages.ts';
import { renderGradedRow } from '../../sim/render/bets.ts';
import { renderRestCancel } from '../../sim/ops/cancel.ts';
import { renderEditResult } from '../../sim/ops/edit.ts';
import { renderPlaceOutcome } from '../../sim/ops/place.ts';
import type { VenueAnswers } from './answers.ts';

const checkFeedMessage = z.compile(UserFeedMessage);
const checkPlace = z.compile(WirePlaceEntry);
const checkCancel = z.compile(WireCancelResult);
const checkEdit = z.compile(EditOrderResult);
const checkGraded = z.compile(GradedRow);

/**
 * The answers as the exchange sends them: each outcome rendered as the simulator's routes
 * and user-feed socket render it, read back through the exchange client's schemas and
 * normalised and classified as the client does, so the runtime reads exactly what it would
 * read from the exchange. The contract test's reference for the typed build.
 */
export function wireAnswers(engine: MatchingEngine): VenueAnswers {
  return {
    place: (outcome, userReference) =>
      placeEntryOf(checkPlace.parse(renderPlaceOutcome(outcome, 'rest')), userReference),
    cancel: (outcome, requestedId) =>
      cancelEntryOf(checkCancel.parse(renderRestCancel({ engine }, outcome)), requestedId),
    edit: (orderID, outcome): EditEntry =>
      outcome.status === 'error'
        ? gatewayEditOf({
            status: 'refused',
            orderID,
            httpStatus: 400,
            reason: outcome.error,
            errorType: outcome.errorType,
          })
        : gatewayEditOf(editedEntryOf(orderID, checkEdit.parse(renderEditResult({ engine }, outcome)))),
    feed: (item, game, now, messageID) =>
      classifyMessage(checkFeedMessage.parse(userFeedMessage(item, game, now, messageID)), 'live'),
    graded: (game, bet, grade) => checkGraded.parse(renderGradedRow(game, bet, grade)),
    // Renders each answer afresh: nothing is kept per game.
    forgetGame: () => undefined,
  };
}
