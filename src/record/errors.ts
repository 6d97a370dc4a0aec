import { LinesmithError } from '../shared/errors.ts';

/** A FeedRecorder used against its contract (started twice, or told not to record the price feed). */
export class RecorderUsageError extends LinesmithError {
  override readonly code = 'LS_ERR_RECORDER_USAGE';
}
