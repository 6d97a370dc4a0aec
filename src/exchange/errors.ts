import { LinesmithError, NOT_SENT, type NotSent } from '../shared/errors.ts';

/*
 * Errors of the exchange client, in undici's style: one class per failure, each with a
 * stable `code` the order manager and the runtime can switch on. Messages never carry a
 * token or a password.
 */

/** A response body that does not match the contract's shape. */
export class SchemaMismatchError extends LinesmithError {
  override readonly code = 'LS_ERR_SCHEMA_MISMATCH';
  constructor(
    readonly endpoint: string,
    readonly issues: readonly { path: string; message: string }[],
  ) {
    super(
      `${endpoint}: response does not match the contract: ${issues
        .slice(0, 3)
        .map((i) => `${i.path || '(root)'}: ${i.message}`)
        .join('; ')}${issues.length > 3 ? ` (+${issues.length - 3} more)` : ''}`,
    );
  }
}

/** A 4xx answer the client does not handle itself (400, 403 on an order, 404, 409, …). */
export class HttpStatusError extends LinesmithError {
  override readonly code = 'LS_ERR_HTTP_STATUS';
  constructor(
    readonly endpoint: string,
    readonly status: number,
    readonly serverMessage: string,
    /** The body's `errorType`, where the endpoint names one (v4 editOrder). */
    readonly errorType: string | null = null,
  ) {
    super(`${endpoint}: HTTP ${status}: ${serverMessage}`);
  }
}

/** 401 after the one re-login and retry, or a login with wrong credentials. */
export class AuthenticationError extends LinesmithError {
  override readonly code = 'LS_ERR_AUTHENTICATION';
}

/** Login answered 428 CHALLENGE_REQUIRED: a human must log in on the website first. */
export class ChallengeRequiredError extends LinesmithError {
  override readonly code = 'LS_ERR_CHALLENGE_REQUIRED';
  constructor() {
    super(
      'login: the exchange demands a human-verification challenge (428 CHALLENGE_REQUIRED). Scripted ' +
        'clients cannot solve it: log in once in a browser, wait for the attack mitigation to end, then start ' +
        'again. Not retried.',
    );
  }
}

/** Login answered 403: the account is banned, closed or frozen. */
export class AccountBlockedError extends LinesmithError {
  override readonly code = 'LS_ERR_ACCOUNT_BLOCKED';
  constructor(readonly serverMessage: string) {
    super(
      `login: the account is blocked (403: ${serverMessage}). Contact the exchange's support; linesmith will not retry.`,
    );
  }
}

/**
 * 429 more times than the client is willing to wait out, or at once for a request that is
 * never sent again after a 429 (place: see Endpoint.on429). The request was not processed.
 */
export class RateLimitedError extends LinesmithError {
  override readonly code = 'LS_ERR_RATE_LIMITED';
  constructor(
    readonly endpoint: string,
    readonly retryAfterMs: number,
    /** `server`: the exchange answered 429; `budget`: this process held it too long (request budget, login) and it was not sent. */
    readonly source: 'server' | 'budget' = 'server',
  ) {
    super(
      source === 'server'
        ? `${endpoint}: rate limited (429), retry after ${Math.ceil(retryAfterMs / 1000)} s`
        : `${endpoint}: not sent: held more than ${retryAfterMs} ms before it could go (request budget, login)`,
    );
  }
}

/**
 * The caller withdrew the request (its AbortSignal fired) before it was sent: it never
 * reached the exchange. A place that ends this way was not placed; decide afresh.
 */
export class RequestAbortedError extends LinesmithError implements NotSent {
  override readonly code = 'LS_ERR_ABORTED';
  readonly [NOT_SENT] = true as const;
  readonly sent = false as const;
  constructor(
    readonly endpoint: string,
    reason: unknown,
  ) {
    super(`${endpoint}: withdrawn before it was sent (${reason instanceof Error ? reason.message : String(reason)})`, {
      cause: reason,
    });
  }
}

/** 503 (the server's 15 s timeout, or an outage) once retries, if any, are used up. */
export class ServiceUnavailableError extends LinesmithError {
  override readonly code = 'LS_ERR_SERVICE_UNAVAILABLE';
  constructor(
    readonly endpoint: string,
    readonly status: number,
  ) {
    super(`${endpoint}: service unavailable (HTTP ${status})`);
  }
}

/** The connection failed or broke before an answer arrived. */
export class NetworkError extends LinesmithError {
  override readonly code = 'LS_ERR_NETWORK';
  constructor(endpoint: string, cause: unknown) {
    super(`${endpoint}: network error: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** No answer within the client's own deadline. */
export class RequestTimeoutError extends LinesmithError {
  override readonly code = 'LS_ERR_TIMEOUT';
  constructor(
    readonly endpoint: string,
    readonly timeoutMs: number,
  ) {
    super(`${endpoint}: no answer within ${timeoutMs} ms`);
  }
}

/** `http://` or `ws://` to a host that is not loopback. */
export class InsecureTransportError extends LinesmithError {
  override readonly code = 'LS_ERR_INSECURE_TRANSPORT';
  constructor(readonly url: string) {
    super(
      `refusing plain ${new URL(url).protocol.replace(':', '')} to ${new URL(url).host}: use https/wss (plain transport is allowed on loopback only)`,
    );
  }
}

/** Credentials missing or unreadable. */
export class CredentialsError extends LinesmithError {
  override readonly code = 'LS_ERR_CREDENTIALS';
}

/**
 * A place whose outcome could not be established: its answer was lost and no lookup by
 * userReference succeeded (or none was possible). The orders may or may not rest.
 */
export class PlaceOutcomeUnknownError extends LinesmithError {
  override readonly code = 'LS_ERR_PLACE_OUTCOME_UNKNOWN';
  constructor(
    readonly userReferences: readonly string[],
    cause: unknown,
  ) {
    super(
      `place: outcome unknown for ${userReferences.length} order(s): ` +
        `${cause instanceof Error ? cause.message : String(cause)}; reconcile open orders before placing them again`,
      { cause },
    );
  }
}

/** A socket that could not open (no handshake in time, a refused handshake) or broke (silent, failed). */
export class SocketFailedError extends LinesmithError {
  override readonly code = 'LS_ERR_SOCKET_FAILED';
}

/** The socket closed while a request on it waited for its answer. */
export class SocketClosedError extends LinesmithError {
  override readonly code = 'LS_ERR_SOCKET_CLOSED';
}

/** A socket request got no answer within its timeout. */
export class SocketRequestTimeoutError extends LinesmithError {
  override readonly code = 'LS_ERR_SOCKET_TIMEOUT';
}

/** The orders socket answered `{requestID, error}` for the whole request. */
export class SocketRequestError extends LinesmithError {
  override readonly code = 'LS_ERR_SOCKET_REQUEST';
  constructor(
    readonly requestType: string,
    readonly serverMessage: string,
  ) {
    super(`${requestType}: ${serverMessage}`);
  }
}

/** A frame or body that is not what the contract describes; counted and logged, never fatal. */
export class MalformedMessageError extends LinesmithError {
  override readonly code = 'LS_ERR_MALFORMED_MESSAGE';
  constructor(
    readonly source: string,
    reason: string,
    /** The raw frame, truncated for logs. */
    readonly frame: string,
  ) {
    super(`${source}: malformed message: ${reason}`);
  }
}

export function hasCode(err: unknown, code: string): boolean {
  return err instanceof LinesmithError && err.code === code;
}
