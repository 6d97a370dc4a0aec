import { isObjectId } from '../../engine/ids.ts';
import type { SimUser } from '../accounts.ts';
import { respond, type SimRequest } from '../http/types.ts';
import { renderRestCancel } from '../ops/cancel.ts';
import { placeBatch } from '../ops/place.ts';
import type { RegisterDeps } from '../register.ts';
import { renderLookupOrder } from '../render/orders.ts';
import { cancelBody, cancelMultipleBody, lookupOrderQuery, parseBody, parseQuery, placeBody } from './schemas.ts';

export const INVALID_ORDER_ID = 'invalid order id';

/** Authenticated routes always carry the user; this narrows the type. */
function userOf(req: SimRequest): SimUser {
  if (!req.user) throw new Error(`route ${req.path} ran without an authenticated user`);
  return req.user;
}

export function registerSessionRoutes({ ctx, router }: RegisterDeps): void {
  const placeSchema = placeBody(ctx.settings.maxBatch);
  const cancelManySchema = cancelMultipleBody(ctx.settings.maxBatch);

  // exchange-api §4.5: positional entries, HTTP 200 even when some fail; live-delayed
  // entries are awaited so each entry is final.
  router.add('POST', '/session/v3/place', 'bearer', async (req) => {
    const b = parseBody(placeSchema, req.body);
    if (!b.ok) return b.response;
    return respond.data({ createdSessions: await placeBatch(ctx, userOf(req), b.value.orders, 'rest') });
  });

  // exchange-api §4.6.
  router.add('POST', '/session/cancel', 'bearer', (req) => {
    const b = parseBody(cancelBody, req.body);
    if (!b.ok) return b.response;
    const outcome = ctx.engine.cancel(userOf(req).id, b.value.sessionID);
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
  });

  // exchange-api §4.7: a malformed id fails the whole request; otherwise one result per id.
  router.add('POST', '/session/cancelMultiple', 'bearer', (req) => {
    const b = parseBody(cancelManySchema, req.body);
    if (!b.ok) return b.response;
    const outcomes = ctx.engine.cancelMany(userOf(req).id, b.value.sessionIDs);
    return respond.data(outcomes.map((o) => renderRestCancel(ctx, o)));
  });

  // exchange-api §4.9.
  router.add('GET', '/session/lookupOrder', 'bearer', (req) => {
    const q = parseQuery(lookupOrderQuery, req.query);
    if (!q.ok) return q.response;
    const id = q.value.orderID;
    const order = isObjectId(id) ? ctx.engine.order(id) : undefined;
    if (!order) return respond.error(404, INVALID_ORDER_ID);
    if (order.userId !== userOf(req).id) return respond.error(403, 'order does not belong to the caller');
    return respond.data({ order: renderLookupOrder(ctx.engine, order) });
  });
}
