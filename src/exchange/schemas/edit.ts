import { z } from 'zod';
import { PlacedFill, RestingOrder, WireCancelResult } from './orders.ts';

/**
 * feeds-and-semantics §9: an editOrder answer. The place result of the new terms (`matched`,
 * `unmatched`, `{}` when nothing rests) plus `cancelled`, the original's terms as a cancel
 * result; a server may leave `cancelled` out or send it empty.
 */
export const EditOrderResult = z.object({
  cancelled: z.union([WireCancelResult, z.object({}).strict()]).nullish(),
  matched: z.array(PlacedFill).default([]),
  unmatched: z.union([RestingOrder, z.object({}).strict()]).nullish(),
});
export type EditOrderResult = z.output<typeof EditOrderResult>;

/** cancelAllForLeague acknowledges before it cancels. */
export const LeagueCancelAck = z.object({ ordersReceived: z.boolean() });
