import { z } from 'zod';
import { GradedRow, MatchedBet } from './bets.ts';
import { UnmatchedOrder } from './orders.ts';

/** getOrdersForGame: the caller's open orders and matched (ungraded) bets of one game. */
export const OrdersForGame = z.object({
  unmatched: z.array(UnmatchedOrder).default([]),
  matched: z.array(MatchedBet).default([]),
});
export type OrdersForGame = z.output<typeof OrdersForGame>;

/** getBetByUserReference / getBetByWagerRequestID: open, matched and graded, in three lists. */
export const CombinedWagers = z.object({
  unmatched: z.array(UnmatchedOrder).default([]),
  matched: z.array(MatchedBet).default([]),
  graded: z.array(GradedRow).default([]),
});
export type CombinedWagers = z.output<typeof CombinedWagers>;

/** One bet in the form its state gives it, told apart by the fields only that form has. */
export type BetLookup =
  | { readonly kind: 'graded'; readonly bet: GradedRow }
  | { readonly kind: 'matched'; readonly bet: MatchedBet }
  | { readonly kind: 'open'; readonly bet: UnmatchedOrder };

const OneBet = z.union([
  GradedRow.transform((bet): BetLookup => ({ kind: 'graded', bet })),
  MatchedBet.transform((bet): BetLookup => ({ kind: 'matched', bet })),
  UnmatchedOrder.transform((bet): BetLookup => ({ kind: 'open', bet })),
]);

/**
 * getBetByID: `{data: {bet}}` as exchange-api §1.2 says every answer is wrapped; the
 * OpenAPI description shows `{bet}` at the top level, so both are read.
 */
export const BetByIdBody = z
  .union([z.object({ data: z.object({ bet: OneBet }) }), z.object({ bet: OneBet })])
  .transform((b) => ('data' in b ? b.data.bet : b.bet));
