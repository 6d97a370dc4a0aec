import { z } from 'zod';
import { OBJECT_ID } from '../../engine/ids.ts';
import { HEARTBEAT_MAX_SECONDS, HEARTBEAT_MIN_SECONDS } from '../heartbeat.ts';

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
    .string({
      error: (iss) =>
        iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be a string`,
    })
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

/** The REST heartbeat twin takes whole seconds, more than 5 (at most a day, as the socket). */
export const MIN_REST_HEARTBEAT_SECONDS = HEARTBEAT_MIN_SECONDS - 1;
const heartbeatTimeoutMessage = `timeout must be an integer number of seconds greater than ${MIN_REST_HEARTBEAT_SECONDS}`;
export const heartbeatBody = body({
  timeout: z
    .number({
      error: (iss) => (iss.input === undefined || iss.input === null ? 'timeout is required' : heartbeatTimeoutMessage),
    })
    .int({ error: heartbeatTimeoutMessage })
    .gt(MIN_REST_HEARTBEAT_SECONDS, { error: heartbeatTimeoutMessage })
    .max(HEARTBEAT_MAX_SECONDS, { error: `timeout must be at most ${HEARTBEAT_MAX_SECONDS} seconds` }),
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

const gameIDQuery = z
  .string({ error: 'gameID must be a string' })
  .regex(OBJECT_ID, { error: 'gameID must be a 24-character hexadecimal id' })
  .optional();

export const orderbookQuery = z
  .object({ league: optionalQuery('league'), gameID: z.preprocess((v) => (v === '' ? undefined : v), gameIDQuery) })
  .refine((q) => q.league !== undefined || q.gameID !== undefined, { error: 'league or gameID is required' });

export const orderbookV1Body = body({ leagueRequested: requiredString('leagueRequested') });

// ------------------------------------------------------------------ bets

export const gameLiabilityQuery = z.object({
  gameID: requiredString('gameID').regex(OBJECT_ID, { error: 'invalid gameID format: expected a 24-character hex id' }),
});

/** A parameter of the graded endpoints sent in a POST body: a string; null or empty means not given. */
function bodyParam(field: string) {
  return z
    .string({ error: `${field} must be a string` })
    .nullish()
    .transform((v) => (v === null || v === undefined || v.length === 0 ? undefined : v));
}

/** getGraded / getGradedWagers window: the query string, overridden on POST by the same fields in the body. */
export const gradedWindowQuery = z.object({ startDate: optionalQuery('startDate'), endDate: optionalQuery('endDate') });
export const gradedWindowBody = body({ startDate: bodyParam('startDate'), endDate: bodyParam('endDate') });

/** getGradedSince position: `since` or `cursor`, from the query string or, on POST, the body. */
export const gradedSinceQuery = z.object({ since: optionalQuery('since'), cursor: optionalQuery('cursor') });
export const gradedSinceBody = body({ since: bodyParam('since'), cursor: bodyParam('cursor') });

export const affiliateQuery = z.object({ fromDate: optionalQuery('fromDate'), toDate: optionalQuery('toDate') });

// ------------------------------------------------------------------ session

export function placeBody(maxBatch: number) {
  const message = `orders must be a non-empty array of at most ${maxBatch} orders`;
  return body({
    orders: z
      .array(z.unknown(), {
        error: (iss) => (iss.input === undefined || iss.input === null ? 'orders is required' : message),
      })
      .min(1, { error: message })
      .max(maxBatch, { error: message }),
  });
}

export const cancelBody = body({ sessionID: requiredString('sessionID') });

export function cancelMultipleBody(maxBatch: number) {
  return body({
    sessionIDs: z
      .array(
        z
          .string({ error: 'must be a 24-character hexadecimal order id' })
          .regex(OBJECT_ID, { error: 'must be a 24-character hexadecimal order id' }),
        {
          error: (iss) =>
            iss.input === undefined || iss.input === null
              ? 'sessionIDs is required'
              : 'sessionIDs must be an array of order ids',
        },
      )
      .max(maxBatch, { error: `sessionIDs must hold at most ${maxBatch} order ids` }),
  });
}

export const lookupOrderQuery = z.object({ orderID: requiredString('orderID') });

// ------------------------------------------------------------------ parsing

export { issueMessage, parseBody, parseQuery, type Parsed } from '../http/validate.ts';
