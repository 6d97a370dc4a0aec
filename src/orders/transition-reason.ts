import type { OwnOrder } from '../market-model/types.ts';

/**
 * Why an order moved, as the transition listener is told it: the text, or a function of the
 * order that makes the text. The order manager says why for every order it places, and only
 * a debug log reads it: a function made once says it without a string built per order.
 */
export type TransitionReason = string | ((order: OwnOrder) => string);

/** The text of `reason`, told with `order`. */
export function reasonText(reason: TransitionReason, order: OwnOrder): string {
  return typeof reason === 'string' ? reason : reason(order);
}
