import { z } from 'zod';
import { ORDER_TYPES } from '../../engine/types.ts';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import { editOrder, renderEditResult } from '../ops/edit.ts';
import type { RegisterDeps } from '../register.ts';
import { userOf } from './user-of.ts';
import { body, parseBody, requiredString } from './schemas.ts';

/**
 * A new term of an edit: documented with the type the exchange takes, checked by the engine
 * as a place's term is (a bad one is the edit's `validation_error`, not a schema 400).
 */
function term(meta: Record<string, unknown>) {
  return z.unknown().optional().meta(meta);
}

/** The order is named here; the engine checks the new terms as a place's (validation_error). */
const editBody = body({
  sessionID: requiredString('sessionID'),
  orderOdds: term({
    type: 'integer',
    nullable: true,
    description: 'New American odds; null or absent leaves them unchanged.',
  }),
  orderVolume: term({
    type: 'number',
    nullable: true,
    description: 'New bet amount; null or absent leaves it unchanged. Earlier fills are not netted.',
  }),
  orderType: term({ type: 'string', enum: [...ORDER_TYPES] }),
  userReference: term({ type: 'string' }),
  expiryChange: term({ type: 'string', description: 'New expiry in minutes from the edit (a number is taken too).' }),
  blockIfNoOtherSideOrders: term({
    type: 'boolean',
    description: 'v4 only: refuse the edit when nothing rests that the order could take.',
  }),
});

type EditBody = z.output<typeof editBody>;

/** v4 names every failure's errorType, a malformed request's too. */
function withValidationErrorType(response: SimResponse): SimResponse {
  return {
    status: response.status,
    body: { error: (response.body as { error: string }).error, errorType: 'validation_error' },
  };
}

/**
 * Order edits (feeds-and-semantics §9): `/session/editOrder` and its newer twin
 * `/session/v4/editOrder`, which also names the failure's errorType. A refused edit is a
 * 400 with the reason (the edit endpoints publish no other status for it).
 */
export function registerEditRoutes({ ctx, router }: RegisterDeps): void {
  const handle = async (req: SimRequest, edit: EditBody, withErrorType: boolean): Promise<SimResponse> => {
    // blockIfNoOtherSideOrders is a v4 field; v1 ignores it.
    const { blockIfNoOtherSideOrders, ...v1 } = edit;
    const outcome = await editOrder(ctx, userOf(req), withErrorType ? { ...v1, blockIfNoOtherSideOrders } : v1);
    if (outcome.status === 'error') {
      return withErrorType
        ? { status: 400, body: { error: outcome.error, errorType: outcome.errorType } }
        : respond.error(400, outcome.error);
    }
    return respond.data(renderEditResult(ctx, outcome));
  };
  router.declare({
    method: 'POST',
    path: '/session/editOrder',
    auth: 'bearer',
    summary:
      "Change an open order's odds, volume, type, reference or expiry; a place result plus the original's cancel summary",
    body: editBody,
    handler: (req, { body }) => handle(req, body, false),
  });
  router.declare({
    method: 'POST',
    path: '/session/v4/editOrder',
    auth: 'bearer',
    summary: 'editOrder that names the errorType of a refusal and honours blockIfNoOtherSideOrders',
    body: editBody,
    // A malformed v4 request is refused here, so that its 400 carries errorType as well.
    before: (req) => {
      const parsed = parseBody(editBody, req.body);
      return parsed.ok ? undefined : withValidationErrorType(parsed.response);
    },
    handler: (req, { body }) => handle(req, body, true),
  });
}
