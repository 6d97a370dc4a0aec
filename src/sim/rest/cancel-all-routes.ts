import { z } from 'zod';
import { OBJECT_ID } from '../../engine/ids.ts';
import { respond } from '../http/types.ts';
import { renderRestCancel } from '../ops/cancel.ts';
import type { RegisterDeps } from '../register.ts';
import { gamesOfLeague } from './exchange-routes.ts';
import { body, requiredString } from './schemas.ts';
import { userOf } from './user-of.ts';

const gameID = z
  .string({
    error: (iss) => (iss.input === undefined || iss.input === null ? 'gameID is required' : 'gameID must be a string'),
  })
  .regex(OBJECT_ID, { error: 'gameID must be a 24-character hexadecimal id' });

/** The market types cancelAllOrdersForGame may be narrowed to (1x2 is not among them). */
const CANCELLABLE_TYPES = ['moneyline', 'spread', 'total'] as const;

const cancelForGameBody = body({
  gameID: gameID,
  type: z.enum(CANCELLABLE_TYPES, { error: `type must be one of ${CANCELLABLE_TYPES.join(', ')}` }).optional(),
});

function cancelByReferenceBody(maxBatch: number) {
  return body({
    gameID: gameID,
    userReferences: z
      .array(z.string({ error: 'must be a string' }), {
        error: (iss) =>
          iss.input === undefined || iss.input === null
            ? 'userReferences is required'
            : 'userReferences must be an array of strings',
      })
      .max(maxBatch, { error: `userReferences must hold at most ${maxBatch} references` }),
  });
}

const cancelForLeagueBody = body({ league: requiredString('league') });

/**
 * Cancels by scope (feeds-and-semantics §9): every open order of the caller, of one game
 * (optionally one market type), of one league, or of one game by userReference. Results
 * are cancel results (exchange-api §2.5), oldest order first.
 */
export function registerCancelAllRoutes({ ctx, router }: RegisterDeps): void {
  const byReferenceSchema = cancelByReferenceBody(ctx.settings.maxBatch);

  // No body needed; any body is ignored (the published body is an optional empty object).
  router.declare({
    method: 'POST',
    path: '/session/cancelAllOrders',
    auth: 'bearer',
    summary: 'Cancel every open order of the caller; one cancel result per order',
    handler: (req) => respond.data(ctx.engine.cancelAll(userOf(req).id).map((o) => renderRestCancel(ctx, o))),
  });

  router.declare({
    method: 'POST',
    path: '/session/cancelAllOrdersForGame',
    auth: 'bearer',
    summary: "Cancel the caller's open orders on one game, optionally of one market type",
    body: cancelForGameBody,
    handler: (req, { body }) => {
      const filter = { gameID: body.gameID, ...(body.type !== undefined ? { type: body.type } : {}) };
      return respond.data(ctx.engine.cancelAll(userOf(req).id, filter).map((o) => renderRestCancel(ctx, o)));
    },
  });

  router.declare({
    method: 'POST',
    path: '/session/cancelByReference',
    auth: 'bearer',
    summary: "Cancel the caller's open orders on one game that carry one of the given userReferences",
    body: byReferenceSchema,
    handler: (req, { body }) => {
      const user = userOf(req);
      const wanted = new Set(body.userReferences);
      const ids = ctx.engine
        .openOrders(user.id)
        .filter((o) => o.gameID === body.gameID && o.userReference !== null && wanted.has(o.userReference))
        .map((o) => o.id);
      return respond.data(ctx.engine.cancelMany(user.id, ids).map((o) => renderRestCancel(ctx, o)));
    },
  });

  // The exchange acknowledges at once and cancels in the background; here the cancels are
  // done before the acknowledgement, which a client cannot tell from a fast background.
  router.declare({
    method: 'POST',
    path: '/session/cancelAllForLeague',
    auth: 'bearer',
    summary: "Cancel the caller's open orders on every game of one league (case-insensitive)",
    body: cancelForLeagueBody,
    response: z.object({ data: z.object({ ordersReceived: z.literal(true) }) }),
    handler: (req, { body }) => {
      const games = gamesOfLeague(ctx, body.league);
      if (games.length === 0 && !ctx.engine.games().some((g) => g.league.toLowerCase() === body.league.toLowerCase())) {
        return respond.error(400, `unknown league: ${body.league.slice(0, 40)}`);
      }
      const user = userOf(req);
      for (const g of games) ctx.engine.cancelAll(user.id, { gameID: g.id });
      return respond.data({ ordersReceived: true });
    },
  });
}
