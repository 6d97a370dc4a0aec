import { z } from 'zod';
import { jsonText } from '../../shared/json-text.ts';
import { IsoString, opt } from './common.ts';
import { PlacedFill, RestingOrder, WireCancelResult } from './orders.ts';

/**
 * Orders socket answers (feeds-and-semantics §6): `{requestID, data}` or
 * `{requestID, error}`, the payload's requestID echoed; also `{requestID, responses:[{data,
 * …}]}`, a wrapper the exchange's examples show (feeds §8), which `replyPayload` unwraps.
 */
export const OrdersReply = z.object({
  requestID: z.union([z.string(), z.number()]).nullish(),
  data: z.unknown().optional(),
  /** A string per the contract; an object with a message is read too. */
  error: z.unknown().optional(),
  responses: z.array(z.unknown()).optional(),
});
export type OrdersReply = z.output<typeof OrdersReply>;

const WrappedResponse = z.looseObject({
  data: z.unknown().optional(),
  error: z.unknown().optional(),
  error_type: z.unknown().optional(),
  errorType: z.unknown().optional(),
});

/**
 * What an answer carries, wrapped or not. A wrapper with one response is that response; with
 * several, their `data` one after the other (a list's entries, or a single entry), and a
 * response that failed as a failed entry, so a place answer stays positional.
 */
export function replyPayload(reply: OrdersReply): { readonly data?: unknown; readonly error?: unknown } {
  if (reply.data !== undefined || reply.error !== undefined || reply.responses === undefined) return reply;
  const responses = reply.responses.map((r) => WrappedResponse.safeParse(r));
  if (responses.length === 1) {
    const only = responses[0]!;
    return only.success ? { data: only.data.data, error: only.data.error } : { data: reply.responses[0] };
  }
  const data: unknown[] = [];
  for (let i = 0; i < responses.length; i++) {
    const r = responses[i]!;
    if (!r.success) data.push(reply.responses[i]);
    else if (Array.isArray(r.data.data)) data.push(...(r.data.data as unknown[]));
    else if (r.data.data != null) data.push(r.data.data);
    else if (r.data.error !== undefined)
      data.push({
        error: replyErrorText(r.data.error),
        error_type: textOr(r.data.error_type ?? r.data.errorType, 'unknown'),
      });
    else data.push(reply.responses[i]);
  }
  return { data };
}

const DECIMAL = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;

/**
 * A number, which the orders socket may send as a numeric string anywhere (feeds §8:
 * `"offered": "122.000000"`): the string's value, read exactly as JSON would read the same
 * digits. Anything else is refused.
 */
export const SocketNumber = z.union([
  z.number(),
  z.string().transform((s, ctx) => {
    const n = DECIMAL.test(s) ? Number(s) : NaN;
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: `not a number: ${JSON.stringify(s).slice(0, 40)}` });
      return z.NEVER;
    }
    return n;
  }),
]);
const optNumber = opt(SocketNumber);

const SocketFill = PlacedFill.extend({
  amount: SocketNumber,
  odds: SocketNumber,
  number: optNumber,
  risk: SocketNumber,
  win: SocketNumber,
  winWithoutCommission: SocketNumber,
});
const SocketResting = RestingOrder.extend({ offered: SocketNumber, odds: SocketNumber, number: optNumber });

/** A failed entry; the socket spells it `error_type`, REST `errorType`. */
const FailedEntry = z.object({
  error: z.string(),
  errorType: z.string().optional(),
  error_type: z.string().optional(),
});

/** `{matched, unmatched}` (unmatched `{}` or null when nothing rests), as REST's createdSessions. */
const NestedEntry = z.object({
  matched: z.array(SocketFill),
  unmatched: z.union([SocketResting, z.object({}).strict()]).nullish(),
});

/**
 * One object per order (feeds §8): the order itself, `offered` its resting amount, fills (if
 * the entry lists any) under `matched`. Brought to the nested form: resting when something
 * is offered, nothing resting otherwise.
 */
const FlatEntry = SocketResting.extend({ matched: z.array(SocketFill).nullish() }).transform(
  ({ matched, ...order }) => ({ matched: matched ?? [], unmatched: order.offered > 0 ? order : null }),
);

/**
 * One placeV3 entry in any of its forms, as the nested form `placeEntryOf` reads. A failed
 * entry is tried first (it names no order), then the flat form (its order fields at the top),
 * then the nested one, which would otherwise take a flat entry that lists fills and drop
 * its resting order.
 */
export const SocketPlaceEntry = z.union([FailedEntry, FlatEntry, NestedEntry]);

/** placeV3: positional with the request's orders. */
export const PlaceReplyData = z.array(SocketPlaceEntry);

/** cancelById, cancelMultiple, cancelAllByGame, cancelAll. */
export const CancelReplyData = z.array(
  WireCancelResult.extend({
    odds: optNumber,
    filled: optNumber,
    offered: optNumber,
    remaining: optNumber,
    number: optNumber,
  }),
);

export const HeartbeatAck = z.object({
  type: z.string(),
  serverTime: opt(IsoString),
  timeoutSec: optNumber,
});
export type HeartbeatAck = z.output<typeof HeartbeatAck>;

/** The server's whole-request error as text, whatever shape it came in. */
export function replyErrorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string')
    return (error as { message: string }).message;
  return jsonText(error).slice(0, 200);
}

function textOr(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}
