import { LinesmithError } from '../shared/errors.ts';

/** The metrics endpoint could not listen (port taken, address not on this machine, …). */
export class MetricsListenError extends LinesmithError {
  override readonly code = 'LS_ERR_METRICS_LISTEN';
  constructor(
    readonly host: string,
    readonly port: number,
    cause: unknown,
  ) {
    const why =
      (cause as NodeJS.ErrnoException | null)?.code ?? (cause instanceof Error ? cause.message : String(cause));
    super(`metrics: cannot listen on ${host}:${port} (${why}); choose another metrics.port, or 0 for a free one`, {
      cause,
    });
  }
}

/** `linesmith status` could not get an answer from the runtime's status endpoint. */
export class StatusUnreachableError extends LinesmithError {
  override readonly code = 'LS_ERR_STATUS_UNREACHABLE';
  constructor(
    readonly url: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot reach a linesmith runtime at ${url} (${reason})`, options);
  }
}

/** Something answered at the status URL, but not with a linesmith status report. */
export class StatusResponseError extends LinesmithError {
  override readonly code = 'LS_ERR_STATUS_RESPONSE';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${url} did not answer with a linesmith status report (${reason})`);
  }
}

/** The runtime's metrics were read before a runtime was attached to them: a bug of the caller. */
export class MetricsNotAttachedError extends LinesmithError {
  override readonly code = 'LS_ERR_METRICS_NOT_ATTACHED';
  constructor() {
    super('RuntimeMetrics.report() before attach(runtime)');
  }
}
