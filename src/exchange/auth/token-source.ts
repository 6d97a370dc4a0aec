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
