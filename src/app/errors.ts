import { LinesmithError } from '../shared/errors.ts';

/** A config that lacks what the chosen kind of run needs (a paper run without `paper`, a live one without `venue`, …). */
export class RunSetupError extends LinesmithError {
  override readonly code = 'LS_ERR_RUN_SETUP';
}

/** The in-process simulator of a paper run could not give the run its account. */
export class PaperAccountError extends LinesmithError {
  override readonly code = 'LS_ERR_PAPER_ACCOUNT';
}
