import { isObjectId } from '../../engine/ids.ts';
import type { SimUser } from '../accounts.ts';
import { respond, type SimRequest } from '../http/types.ts';
import { renderRestCancel } from '../ops/cancel.ts';
import { placeBatch } from '../ops/place.ts';
import type { RegisterDeps } from '../register.ts';
import { renderLookupOrder } from '../render/orders.ts';
import { cancelBody, cancelMultipleBody, lookupOrderQuery, placeBody } from './schemas.ts';
import { UnauthenticatedRouteError } from '../errors.ts';

export const INVALID_ORDER_ID = 'invalid order id';

/** Authenticated routes always carry the user; this narrows the type. */
function userOf(req: SimRequest): SimUser {
  if (!req.user) throw new UnauthenticatedRouteError(req.path);
  return req.user;
}

export function registerSessionRoutes({ ctx, router }: RegisterDeps): void {
  const placeSchema = placeBody(ctx.settings.maxBatch);
  const cancelManySchema = cancelMultipleBody(ctx.settings.maxBatch);

  // exchange-api §4.5: positional entries, HTTP 200 even when some fail; live-delayed
  // entries are awaited so each entry is final.
  router.declare({
    method: 'POST',
    path: '/session/v3/place',
    auth: 'bearer',
    summary: 'Place a batch of orders; one result per order, positional',
    body: placeSchema,
    handler: async (req, { body }) =>
      respond.data({ createdSessions: await placeBatch(ctx, userOf(req), body.orders, 'rest') }),
  });

  // exchange-api §4.6.
  router.declare({
    method: 'POST',
    path: '/session/cancel',
    auth: 'bearer',
    summary: 'Cancel one order',
    body: cancelBody,
    handler: (req, { body }) => {
      const outcome = ctx.engine.cancel(userOf(req).id, body.sessionID);
      if (outcome.success) return respond.data(renderRestCancel(ctx, outcome));
      switch (outcome.code) {
        case 'invalid_id':
        case 'not_found':
          return respond.error(400, INVALID_ORDER_ID);
        case 'not_yours':
          return respond.error(403, 'order does not belong to the caller');
        case 'not_cancellable':
          return respond.error(409, outcome.reason);
      }
    },
  });

  // exchange-api §4.7: a malformed id fails the whole request; otherwise one result per id.
  router.declare({
    method: 'POST',
    path: '/session/cancelMultiple',
    auth: 'bearer',
    summary: 'Cancel orders by id; one result per id, positional',
    body: cancelManySchema,
    handler: (req, { body }) =>
      respond.data(ctx.engine.cancelMany(userOf(req).id, body.sessionIDs).map((o) => renderRestCancel(ctx, o))),
  });

  // exchange-api §4.9.
  router.declare({
    method: 'GET',
    path: '/session/lookupOrder',
    auth: 'bearer',
    summary: "One of the caller's orders by id",
    query: lookupOrderQuery,
    handler: (req, { query }) => {
      const id = query.orderID;
      const order = isObjectId(id) ? ctx.engine.order(id) : undefined;
      if (!order) return respond.error(404, INVALID_ORDER_ID);
      if (order.userId !== userOf(req).id) return respond.error(403, 'order does not belong to the caller');
      return respond.data({ order: renderLookupOrder(ctx.engine, order) });
    },
  });
}
