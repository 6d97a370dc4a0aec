import { LinesmithError } from '../../shared/errors.ts';

/** A chunk whose columns do not decode: a tape written by other code, or damaged past its checksum. */
export class TapeDecodeError extends LinesmithError {
  override readonly code = 'LS_ERR_TAPE_DECODE';
}
