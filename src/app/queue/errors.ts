import { LinesmithError } from '../../shared/errors.ts';

/** A `--queue` address or its credentials that cannot be used; found before anything connects. */
export class QueueConfigError extends LinesmithError {
  override readonly code = 'LS_ERR_QUEUE_CONFIG';
}

/** A tape fetched from the shared store whose bytes do not hash to the name it was stored under. */
export class TapeIntegrityError extends LinesmithError {
  override readonly code = 'LS_ERR_TAPE_INTEGRITY';
}

/** A tape the store cannot hold (over its size limit) or does not have. */
export class TapeStoreError extends LinesmithError {
  override readonly code = 'LS_ERR_TAPE_STORE';
}

/** A worker that cannot run a job it took: no free thread lane, or its thread died running the variant. */
export class WorkerLaneError extends LinesmithError {
  override readonly code = 'LS_ERR_WORKER_LANE';
}
