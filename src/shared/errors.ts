/**
 * The base of every error linesmith throws: one class per failure, each with a stable
 * `code` callers can switch on and the command line prints. Messages never carry a token or
 * a password.
 */
export class LinesmithError extends Error {
  readonly code: string = 'LS_ERR';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The brand of an error whose request never left the process (see NotSent). */
export const NOT_SENT: unique symbol = Symbol('linesmith.not-sent');

/**
 * An error that knows its request never left the process (withdrawn, held back, a socket not
 * open): a known outcome, nothing happened, unlike a lost answer. The order manager reads it
 * through `isNotSent` and decides such an order afresh.
 */
export interface NotSent {
  readonly [NOT_SENT]: true;
  readonly sent: false;
}

export function isNotSent(err: unknown): err is LinesmithError & NotSent {
  return err instanceof LinesmithError && NOT_SENT in err;
}
