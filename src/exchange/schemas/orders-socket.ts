import { z } from 'zod';
import { jsonText } from '../../shared/json-text.ts';
import { IsoString, opt } from './common.ts';
import { WireCancelResult, WirePlaceEntry } from './orders.ts';

/**
 * Orders socket answers (feeds-and-semantics §6): `{requestID, data}` or
 * `{requestID, error}`, the payload's requestID echoed.
 */
export const OrdersReply = z.object({
  requestID: z.union([z.string(), z.number()]).nullish(),
  data: z.unknown().optional(),
  /** A string per the contract; an object with a message is read too. */
  error: z.unknown().optional(),
});
export type OrdersReply = z.output<typeof OrdersReply>;

/** placeV3: positional with the request's orders. */
export const PlaceReplyData = z.array(WirePlaceEntry);

/** cancelById, cancelMultiple, cancelAllByGame, cancelAll. */
export const CancelReplyData = z.array(WireCancelResult);

export const HeartbeatAck = z.object({
  type: z.string(),
  serverTime: opt(IsoString),
  timeoutSec: opt(z.number()),
});
export type HeartbeatAck = z.output<typeof HeartbeatAck>;

/** The server's whole-request error as text, whatever shape it came in. */
export function replyErrorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  return jsonText(error).slice(0, 200);
}
