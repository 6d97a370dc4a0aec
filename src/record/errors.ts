import { LinesmithError } from '../shared/errors.ts';

/** A FeedRecorder used against its contract (started twice, or told not to record the price feed). */
export class RecorderUsageError extends LinesmithError {
  override readonly code = 'LS_ERR_RECORDER_USAGE';
}

/** The recording could not be written (a file that cannot be opened, a disk that is full). */
export class RecordingWriteError extends LinesmithError {
  override readonly code = 'LS_ERR_RECORDING_WRITE';
}
