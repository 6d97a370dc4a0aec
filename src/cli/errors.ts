import { LinesmithError } from '../shared/errors.ts';

/** A command-line value that cannot be read (a size, say); the message says what to write instead. */
export class CliValueError extends LinesmithError {
  override readonly code = 'LS_ERR_CLI_VALUE';
}
