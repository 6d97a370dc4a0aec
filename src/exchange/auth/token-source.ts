/**
 * Where sockets and side channels get the current token. The REST session owns the token
 * (login, rotation, re-login); everything else reads it here and asks for a fresh one
 * when the server refused the current.
 */
export interface TokenSource {
  /** The current token; logs in first when there is none yet. */
  token(): Promise<string>;
  /** The server refused `rejected`: log in again (once, shared by concurrent callers) and return the new token. */
  refresh(rejected: string): Promise<string>;
}

/**
 * What a token must look like to be sent at all: visible ASCII, no spaces (the contract's is
 * 256 hex characters; this is looser on purpose). A token outside it — from a bad login
 * answer or a damaged token file — could never go into an Authorization header: every call
 * would fail before reaching the server, so no 401 would ever trigger a fresh login.
 */
export const SENDABLE_TOKEN = /^[\x21-\x7e]{1,8192}$/;
