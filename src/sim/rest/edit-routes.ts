import { z } from 'zod';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import { editOrder, renderEditResult } from '../ops/edit.ts';
import type { RegisterDeps } from '../register.ts';
import { userOf } from './user-of.ts';
import { body, parseBody, requiredString } from './schemas.ts';

/** The order is named here; the engine checks the new terms as a place's (validation_error). */
const editBody = body({
  sessionID: requiredString('sessionID'),
  orderOdds: z.unknown().optional(),
  orderVolume: z.unknown().optional(),
  orderType: z.unknown().optional(),
  userReference: z.unknown().optional(),
  expiryChange: z.unknown().optional(),
  blockIfNoOtherSideOrders: z.unknown().optional(),
});

/**
 * Order edits (feeds-and-semantics §9): `/session/editOrder` and its newer twin
 * `/session/v4/editOrder`, which also names the failure's errorType. A refused edit is a
 * 400 with the reason (the edit endpoints publish no other status for it).
 */
export function registerEditRoutes({ ctx, router }: RegisterDeps): void {
  const handle = async (req: SimRequest, withErrorType: boolean): Promise<SimResponse> => {
    const b = parseBody(editBody, req.body);
    if (!b.ok) return withErrorType ? { status: 400, body: { error: (b.response.body as { error: string }).error, errorType: 'validation_error' } } : b.response;
    // blockIfNoOtherSideOrders is a v4 field; v1 ignores it.
    const { blockIfNoOtherSideOrders, ...v1 } = b.value;
    const outcome = await editOrder(ctx, userOf(req), withErrorType ? { ...v1, blockIfNoOtherSideOrders } : v1);
    if (outcome.status === 'error') {
      return withErrorType ? { status: 400, body: { error: outcome.error, errorType: outcome.errorType } } : respond.error(400, outcome.error);
    }
    return respond.data(renderEditResult(ctx, outcome));
  };
  router.add('POST', '/session/editOrder', 'bearer', (req) => handle(req, false));
  router.add('POST', '/session/v4/editOrder', 'bearer', (req) => handle(req, true));
}
