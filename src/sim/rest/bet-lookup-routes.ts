import { z } from 'zod';
import { isObjectId } from '../../engine/ids.ts';
import type { BetView, GradeVersion, OrderView } from '../../engine/types.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import type { RegisterDeps } from '../register.ts';
import { renderGradedRow, renderMatchedBet } from '../render/bets.ts';
import { renderUnmatchedOrder } from '../render/orders.ts';
import { orderMemory } from './order-memory.ts';
import { optionalQuery, requiredString } from './schemas.ts';
import { userOf } from './user-of.ts';

/**
 * Lookups of the caller's orders and bets (feeds-and-semantics §9; shapes from the
 * exchange's OpenAPI description): by game, by bet id or txID, by wagerRequestID and by
 * userReference. Open orders are listed as getUnmatched lists them, matched bets as
 * getMatchedBets, settled ones as graded rows (latest version). Each endpoint answers bad
 * input with the status its description publishes.
 */
export function registerBetLookupRoutes({ ctx, router }: RegisterDeps): void {
  // Subscribed at start-up, so it has seen every fill by the first lookup.
  orderMemory(ctx);
  router.declare({
    method: 'GET',
    path: '/user/getOrdersForGame',
    auth: 'bearer',
    summary: "The caller's open orders and matched, ungraded bets on one game",
    query: z.object({ gameID: requiredString('gameID') }),
    // The published answer to a missing, malformed or unknown game is 404, not a schema 400.
    before: (req) => (knownGame(ctx, param(req, 'gameID')) ? undefined : respond.error(404, 'Invalid Game ID')),
    handler: (req, { query }) => ordersForGame(ctx, userOf(req), query.gameID),
  });
  router.declare({
    method: 'GET',
    path: '/user/getBetByID',
    auth: 'bearer',
    summary: 'One bet of the caller by bet id or txID (exactly one of them), graded, matched or open',
    query: z.object({ id: optionalQuery('id'), txID: optionalQuery('txID') }),
    handler: (req, { query }) => betById(ctx, userOf(req), query),
  });
  router.declare({
    method: 'GET',
    path: '/user/getBetByWagerRequestID',
    auth: 'bearer',
    summary: 'Every bet of one submitted order, by its wagerRequestID',
    query: z.object({ wagerRequestID: requiredString('wagerRequestID') }),
    handler: (req, { query }) => betsByWagerRequest(ctx, userOf(req), query.wagerRequestID),
  });
  router.declare({
    method: 'GET',
    path: '/user/getBetByUserReference',
    auth: 'bearer',
    summary: 'The open orders, matched and graded bets of one userReference on one game',
    query: z.object({ userReference: requiredString('userReference'), gameID: requiredString('gameID') }),
    // The published answer to a missing reference or a bad game id is 408, not a schema 400.
    before: (req) => {
      const gameID = param(req, 'gameID');
      const ok = param(req, 'userReference') !== undefined && gameID !== undefined && isObjectId(gameID);
      return ok ? undefined : respond.error(408, 'Invalid User Reference or Game ID');
    },
    handler: (req, { query }) => betsByUserReference(ctx, userOf(req), query.userReference, query.gameID),
  });
}

const param = (req: SimRequest, name: string): string | undefined => req.query.get(name) || undefined;

const knownGame = (ctx: SimContext, gameID: string | undefined): boolean =>
  gameID !== undefined && isObjectId(gameID) && ctx.engine.game(gameID) !== undefined;

function matched(ctx: SimContext, bet: BetView) {
  const game = ctx.engine.game(bet.gameID);
  return game
    ? renderMatchedBet(game, bet, orderMemory(ctx).stakes.get(bet.orderID) ?? ctx.engine.order(bet.orderID)?.bet)
    : undefined;
}

/** A graded bet as the graded endpoints render it, takenRatio included. */
function graded(ctx: SimContext, bet: BetView, grade: GradeVersion) {
  return renderGradedRow(ctx.engine.game(bet.gameID), bet, grade, orderMemory(ctx).takenRatios.get(bet.orderID));
}

/** The three buckets of a lookup: open orders, matched (ungraded) bets, graded bets. */
function buckets(ctx: SimContext, orders: readonly OrderView[], bets: readonly BetView[]) {
  return {
    unmatched: orders.map((o) => renderUnmatchedOrder(ctx.engine, o)),
    matched: bets.filter((b) => b.grade === null).flatMap((b) => matched(ctx, b) ?? []),
    graded: bets.flatMap((b) => (b.grade === null ? [] : [graded(ctx, b, b.grade)])),
  };
}

// The caller's open orders and matched, ungraded bets on one game; 404 for a bad or unknown game.
function ordersForGame(ctx: SimContext, u: SimUser, gameID: string): SimResponse {
  const orders = ctx.engine.openOrders(u.id).filter((o) => o.gameID === gameID);
  const bets = ctx.engine.bets(u.id).filter((b) => b.gameID === gameID);
  const { unmatched, matched: matchedBets } = buckets(ctx, orders, bets);
  return respond.data({ unmatched, matched: matchedBets });
}

/**
 * One bet of the caller by `id` (a bet id, or an open order's id) or by `txID` (a fill's
 * txID, or an open order's wagerRequestID), in its current form: graded, matched or open.
 * 400 for a malformed or unknown id, and when neither or both are given.
 */
function betById(
  ctx: SimContext,
  u: SimUser,
  { id, txID }: { id?: string | undefined; txID?: string | undefined },
): SimResponse {
  if ((id === undefined) === (txID === undefined)) return respond.error(400, 'exactly one of id or txID is required');
  const key = (id ?? txID)!;
  if (!isObjectId(key))
    return respond.error(400, `invalid ${id !== undefined ? 'id' : 'txID'}: expected a 24-character hex id`);
  const bet = ctx.engine.bets(u.id).find((b) => (id !== undefined ? b.id === id : b.txID === txID));
  if (bet) {
    const body = bet.grade !== null ? graded(ctx, bet, bet.grade) : matched(ctx, bet);
    if (body) return respond.data({ bet: body });
  }
  const order = ctx.engine.openOrders(u.id).find((o) => (id !== undefined ? o.id === id : o.wagerRequestID === txID));
  if (order) return respond.data({ bet: renderUnmatchedOrder(ctx.engine, order) });
  return respond.error(400, `invalid ${id !== undefined ? 'id' : 'txID'}: no such bet`);
}

// Every bet of one submitted order; `unmatched` is always empty here (the description says so).
function betsByWagerRequest(ctx: SimContext, u: SimUser, wagerRequestID: string): SimResponse {
  if (!isObjectId(wagerRequestID)) return respond.error(400, 'Invalid Wager Request ID');
  const bets = ctx.engine.bets(u.id).filter((b) => b.wagerRequestID === wagerRequestID);
  return respond.data(buckets(ctx, [], bets));
}

// Everything of one userReference on one game; 408 for a missing reference or a bad game id (as published).
function betsByUserReference(ctx: SimContext, u: SimUser, userReference: string, gameID: string): SimResponse {
  const orders = ctx.engine.openOrders(u.id).filter((o) => o.gameID === gameID && o.userReference === userReference);
  const bets = ctx.engine.bets(u.id).filter((b) => b.gameID === gameID && b.userReference === userReference);
  return respond.data(buckets(ctx, orders, bets));
}
