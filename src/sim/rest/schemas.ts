import { z } from 'zod';
import { OBJECT_ID } from '../../engine/ids.ts';
import type { SimResponse } from '../http/types.ts';
import { respond } from '../http/types.ts';

/**
 * Request schemas of the user, exchange and session routes. Every message names the field
 * it is about, so a 400 tells the client what to fix. Bodies and queries are validated
 * here; order entries of a place batch are left to the engine, which answers each one
 * positionally with its own `validation_error`.
 */

const BODY_NOT_OBJECT = 'request body must be a JSON object';

/** A required non-empty string field. */
export function requiredString(field: string) {
  return z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be a string`) })
    .min(1, { error: `${field} is required` });
}

/** An optional query string field (absent or empty means not given). */
export function optionalQuery(field: string) {
  return z
    .string({ error: `${field} must be a string` })
    .optional()
    .transform((v) => (v === undefined || v.length === 0 ? undefined : v));
}

export function body<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.object(shape, { error: BODY_NOT_OBJECT });
}

// ------------------------------------------------------------------ user

export const loginBody = body({
  username: requiredString('username'),
  password: requiredString('password'),
});

/** The REST heartbeat twin takes whole seconds, more than 5. */
export const MIN_REST_HEARTBEAT_SECONDS = 5;
const heartbeatTimeoutMessage = `timeout must be an integer number of seconds greater than ${MIN_REST_HEARTBEAT_SECONDS}`;
export const heartbeatBody = body({
  timeout: z
    .number({ error: (iss) => (iss.input === undefined || iss.input === null ? 'timeout is required' : heartbeatTimeoutMessage) })
    .int({ error: heartbeatTimeoutMessage })
    .gt(MIN_REST_HEARTBEAT_SECONDS, { error: heartbeatTimeoutMessage })
    .max(86_400, { error: 'timeout must be at most 86400 seconds' }),
});

// ------------------------------------------------------------------ exchange

export const leaguesQuery = z.object({ sport: optionalQuery('sport') });

export const participantsQuery = z.object({
  active: z
    .enum(['true', 'false'], { error: 'active must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});

export const gamesQuery = z.object({ league: optionalQuery('league') });

const gameIdQuery = z
  .string({ error: 'gameID must be a string' })
  .regex(OBJECT_ID, { error: 'gameID must be a 24-character hexadecimal id' })
  .optional();

export const orderbookQuery = z
  .object({ league: optionalQuery('league'), gameID: z.preprocess((v) => (v === '' ? undefined : v), gameIdQuery) })
  .refine((q) => q.league !== undefined || q.gameID !== undefined, { error: 'league or gameID is required' });

export const orderbookV1Body = body({ leagueRequested: requiredString('leagueRequested') });

// ------------------------------------------------------------------ session

export function placeBody(maxBatch: number) {
  const message = `orders must be a non-empty array of at most ${maxBatch} orders`;
  return body({
    orders: z
      .array(z.unknown(), { error: (iss) => (iss.input === undefined || iss.input === null ? 'orders is required' : message) })
      .min(1, { error: message })
      .max(maxBatch, { error: message }),
  });
}

export const cancelBody = body({ sessionID: requiredString('sessionID') });

export function cancelMultipleBody(maxBatch: number) {
  return body({
    sessionIDs: z
      .array(z.string({ error: 'must be a 24-character hexadecimal order id' }).regex(OBJECT_ID, { error: 'must be a 24-character hexadecimal order id' }), {
        error: (iss) => (iss.input === undefined || iss.input === null ? 'sessionIDs is required' : 'sessionIDs must be an array of order ids'),
      })
      .max(maxBatch, { error: `sessionIDs must hold at most ${maxBatch} order ids` }),
  });
}

export const lookupOrderQuery = z.object({ orderID: requiredString('orderID') });

// ------------------------------------------------------------------ parsing

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly response: SimResponse };

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out.length === 0 ? String(p) : `.${String(p)}`;
  return out;
}

/** The first issue as one sentence that names its field. */
export function issueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request';
  const where = pathText(issue.path);
  const head = issue.path[0];
  if (where.length === 0 || (issue.path.length === 1 && typeof head === 'string' && issue.message.startsWith(head))) return issue.message;
  return `${where}: ${issue.message}`;
}

/** Validate a JSON body (absent body = `{}`, so missing fields are named). */
export function parseBody<S extends z.ZodType>(schema: S, raw: unknown): Parsed<z.output<S>> {
  const r = schema.safeParse(raw === undefined ? {} : raw);
  return r.success ? { ok: true, value: r.data } : { ok: false, response: respond.error(400, issueMessage(r.error)) };
}

/** Validate a query string (first value of each parameter). */
export function parseQuery<S extends z.ZodType>(schema: S, query: URLSearchParams): Parsed<z.output<S>> {
  const plain: Record<string, string> = {};
  for (const [k, v] of query) if (!(k in plain)) plain[k] = v;
  const r = schema.safeParse(plain);
  return r.success ? { ok: true, value: r.data } : { ok: false, response: respond.error(400, issueMessage(r.error)) };
}
