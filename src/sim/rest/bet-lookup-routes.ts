import { isObjectId } from '../../engine/ids.ts';
import type { BetView, OrderView } from '../../engine/types.ts';
import type { SimContext } from '../context.ts';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import type { RegisterDeps } from '../register.ts';
import { renderGradedRow, renderMatchedBet } from '../render/bets.ts';
import { renderUnmatchedOrder } from '../render/orders.ts';
import { userOf } from './user-of.ts';

/**
 * Lookups of the caller's orders and bets (feeds-and-semantics §9; shapes from the
 * exchange's OpenAPI description): by game, by bet id or txID, by wagerRequestID and by
 * userReference. Open orders are listed as getUnmatched lists them, matched bets as
 * getMatchedBets, settled ones as graded rows (latest version). Each endpoint answers bad
 * input with the status its description publishes.
 */
export function registerBetLookupRoutes({ ctx, router }: RegisterDeps): void {
  router.add('GET', '/user/getOrdersForGame', 'bearer', (req) => ordersForGame(ctx, req));
  router.add('GET', '/user/getBetByID', 'bearer', (req) => betById(ctx, req));
  router.add('GET', '/user/getBetByWagerRequestID', 'bearer', (req) => betsByWagerRequest(ctx, req));
  router.add('GET', '/user/getBetByUserReference', 'bearer', (req) => betsByUserReference(ctx, req));
}

const param = (req: SimRequest, name: string): string | undefined => req.query.get(name) || undefined;

function matched(ctx: SimContext, bet: BetView) {
  const game = ctx.engine.game(bet.gameId);
  return game ? renderMatchedBet(game, bet, ctx.engine.order(bet.orderId)?.bet) : undefined;
}

/** The three buckets of a lookup: open orders, matched (ungraded) bets, graded bets. */
function buckets(ctx: SimContext, orders: readonly OrderView[], bets: readonly BetView[]) {
  return {
    unmatched: orders.map((o) => renderUnmatchedOrder(ctx.engine, o)),
    matched: bets.filter((b) => b.grade === null).flatMap((b) => matched(ctx, b) ?? []),
    graded: bets.flatMap((b) => (b.grade === null ? [] : [renderGradedRow(ctx.engine.game(b.gameId), b, b.grade)])),
  };
}

// The caller's open orders and matched, ungraded bets on one game; 404 for a bad or unknown game.
function ordersForGame(ctx: SimContext, req: SimRequest): SimResponse {
  const gameID = param(req, 'gameID');
  if (gameID === undefined || !isObjectId(gameID) || !ctx.engine.game(gameID)) return respond.error(404, 'Invalid Game ID');
  const u = userOf(req);
  const orders = ctx.engine.openOrders(u.id).filter((o) => o.gameId === gameID);
  const bets = ctx.engine.bets(u.id).filter((b) => b.gameId === gameID);
  const { unmatched, matched: matchedBets } = buckets(ctx, orders, bets);
  return respond.data({ unmatched, matched: matchedBets });
}

/**
 * One bet of the caller by `id` (a bet id, or an open order's id) or by `txID` (a fill's
 * txID, or an open order's wagerRequestID), in its current form: graded, matched or open.
 * 400 for a malformed or unknown id, and when neither or both are given.
 */
function betById(ctx: SimContext, req: SimRequest): SimResponse {
  const id = param(req, 'id');
  const txID = param(req, 'txID');
  if ((id === undefined) === (txID === undefined)) return respond.error(400, 'exactly one of id or txID is required');
  const key = (id ?? txID)!;
  if (!isObjectId(key)) return respond.error(400, `invalid ${id !== undefined ? 'id' : 'txID'}: expected a 24-character hex id`);
  const u = userOf(req);
  const bet = ctx.engine.bets(u.id).find((b) => (id !== undefined ? b.id === id : b.txID === txID));
  if (bet) {
    const body = bet.grade !== null ? renderGradedRow(ctx.engine.game(bet.gameId), bet, bet.grade) : matched(ctx, bet);
    if (body) return respond.data({ bet: body });
  }
  const order = ctx.engine.openOrders(u.id).find((o) => (id !== undefined ? o.id === id : o.wagerRequestID === txID));
  if (order) return respond.data({ bet: renderUnmatchedOrder(ctx.engine, order) });
  return respond.error(400, `invalid ${id !== undefined ? 'id' : 'txID'}: no such bet`);
}

// Every bet of one submitted order; `unmatched` is always empty here (the description says so).
function betsByWagerRequest(ctx: SimContext, req: SimRequest): SimResponse {
  const wagerRequestID = param(req, 'wagerRequestID');
  if (wagerRequestID === undefined || !isObjectId(wagerRequestID)) return respond.error(400, 'Invalid Wager Request ID');
  const bets = ctx.engine.bets(userOf(req).id).filter((b) => b.wagerRequestID === wagerRequestID);
  return respond.data(buckets(ctx, [], bets));
}

// Everything of one userReference on one game; 408 for a missing reference or a bad game id (as published).
function betsByUserReference(ctx: SimContext, req: SimRequest): SimResponse {
  const userReference = param(req, 'userReference');
  const gameID = param(req, 'gameID');
  if (userReference === undefined || gameID === undefined || !isObjectId(gameID)) return respond.error(408, 'Invalid User Reference or Game ID');
  const u = userOf(req);
  const orders = ctx.engine.openOrders(u.id).filter((o) => o.gameId === gameID && o.userReference === userReference);
  const bets = ctx.engine.bets(u.id).filter((b) => b.gameId === gameID && b.userReference === userReference);
  return respond.data(buckets(ctx, orders, bets));
}
