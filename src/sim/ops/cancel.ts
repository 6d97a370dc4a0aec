import type { CancelOutcome, OrderView } from '../../engine/types.ts';
import type { SimContext } from '../context.ts';
import { describeOrder } from './describe.ts';

/**
 * Amounts at the moment of cancellation (feeds §8): `offered` 0 once the order is closed (it
 * offers nothing any more), `filled` the risk matched over its life, `remaining` what the
 * cancel withdrew.
 */
function amounts(o: OrderView) {
  const open = o.status === 'open';
  return {
    odds: o.odds,
    filled: o.filled,
    offered: open ? o.bet : 0,
    remaining: open ? o.remaining : o.bet - o.filled,
  };
}

/** The published cancel result has userReference as a string: an order without one leaves it out. */
function referenceOf(o: OrderView): { userReference?: string } {
  return o.userReference !== null ? { userReference: o.userReference } : {};
}

/** REST cancel result (exchange-api §2.5). Failures for invalid, unknown and foreign ids carry no sessionID. */
export function renderRestCancel(ctx: Pick<SimContext, 'engine'>, outcome: CancelOutcome): Record<string, unknown> {
  if (!outcome.success) {
    if (!outcome.order) return { success: false, reason: outcome.reason };
    const o = outcome.order;
    return {
      success: false,
      reason: outcome.reason,
      sessionID: o.id,
      description: describeOrder(ctx.engine.game(o.gameID), o),
      ...amounts(o),
      gameID: o.gameID,
      ...referenceOf(o),
    };
  }
  const o = outcome.order;
  return {
    success: true,
    sessionID: o.id,
    description: describeOrder(ctx.engine.game(o.gameID), o),
    ...amounts(o),
    gameID: o.gameID,
    ...referenceOf(o),
  };
}

/** Orders-socket cancel result (feeds-and-semantics §6). */
export function renderSocketCancel(
  ctx: SimContext,
  outcome: CancelOutcome,
  requestedId: unknown,
): Record<string, unknown> {
  if (!outcome.success) {
    const o = outcome.order;
    return {
      success: false,
      orderID: o?.id ?? (typeof requestedId === 'string' ? requestedId : null),
      description: outcome.reason,
    };
  }
  const o = outcome.order;
  return {
    success: true,
    orderID: o.id,
    ...amounts(o),
    side: o.wire.side,
    number: o.wire.number,
    gameID: o.gameID,
    userReference: o.userReference,
    description: describeOrder(ctx.engine.game(o.gameID), o),
  };
}
