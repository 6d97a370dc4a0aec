import { z } from 'zod';
import { OBJECT_ID } from '../../engine/ids.ts';
import { respond } from '../http/types.ts';
import { renderRestCancel } from '../ops/cancel.ts';
import type { RegisterDeps } from '../register.ts';
import { gamesOfLeague } from './exchange-routes.ts';
import { body, parseBody, requiredString } from './schemas.ts';
import { userOf } from './user-of.ts';

const gameId = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'gameID is required' : 'gameID must be a string') })
  .regex(OBJECT_ID, { error: 'gameID must be a 24-character hexadecimal id' });

/** The market types cancelAllOrdersForGame may be narrowed to (1x2 is not among them). */
const CANCELLABLE_TYPES = ['moneyline', 'spread', 'total'] as const;

const cancelForGameBody = body({
  gameID: gameId,
  type: z.enum(CANCELLABLE_TYPES, { error: `type must be one of ${CANCELLABLE_TYPES.join(', ')}` }).optional(),
});

function cancelByReferenceBody(maxBatch: number) {
  return body({
    gameID: gameId,
    userReferences: z
      .array(z.string({ error: 'must be a string' }), {
        error: (iss) => (iss.input === undefined || iss.input === null ? 'userReferences is required' : 'userReferences must be an array of strings'),
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

  // No body needed; any body is ignored.
  router.add('POST', '/session/cancelAllOrders', 'bearer', (req) => {
    const outcomes = ctx.engine.cancelAll(userOf(req).id);
    return respond.data(outcomes.map((o) => renderRestCancel(ctx, o)));
  });

  router.add('POST', '/session/cancelAllOrdersForGame', 'bearer', (req) => {
    const b = parseBody(cancelForGameBody, req.body);
    if (!b.ok) return b.response;
    const filter = { gameId: b.value.gameID, ...(b.value.type !== undefined ? { type: b.value.type } : {}) };
    const outcomes = ctx.engine.cancelAll(userOf(req).id, filter);
    return respond.data(outcomes.map((o) => renderRestCancel(ctx, o)));
  });

  router.add('POST', '/session/cancelByReference', 'bearer', (req) => {
    const b = parseBody(byReferenceSchema, req.body);
    if (!b.ok) return b.response;
    const user = userOf(req);
    const wanted = new Set(b.value.userReferences);
    const ids = ctx.engine
      .openOrders(user.id)
      .filter((o) => o.gameId === b.value.gameID && o.userReference !== null && wanted.has(o.userReference))
      .map((o) => o.id);
    return respond.data(ctx.engine.cancelMany(user.id, ids).map((o) => renderRestCancel(ctx, o)));
  });

  // The exchange acknowledges at once and cancels in the background; here the cancels are
  // done before the acknowledgement, which a client cannot tell from a fast background.
  router.add('POST', '/session/cancelAllForLeague', 'bearer', (req) => {
    const b = parseBody(cancelForLeagueBody, req.body);
    if (!b.ok) return b.response;
    const games = gamesOfLeague(ctx, b.value.league);
    if (games.length === 0 && !ctx.engine.games().some((g) => g.league.toLowerCase() === b.value.league.toLowerCase())) {
      return respond.error(400, `unknown league: ${b.value.league.slice(0, 40)}`);
    }
    const user = userOf(req);
    for (const g of games) ctx.engine.cancelAll(user.id, { gameId: g.id });
    return respond.data({ ordersReceived: true });
  });
}
