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
