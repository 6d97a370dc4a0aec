import { LinesmithError } from '../shared/errors.ts';

/** A recording line the backtester could not use, with where it was. */
export interface InputProblem {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly problem: string;
  readonly detail: string;
}

export function formatInputProblem(p: InputProblem): string {
  return `${p.file}:${p.line}: ${p.problem}: ${p.detail}`;
}

/** `<path>: <why>` for an input file that cannot be opened (`fallback` names it when the error does not). */
export function cannotRead(err: unknown, fallback: string): string {
  const e = err as NodeJS.ErrnoException;
  return `${e.path ?? fallback}: ${e.code === 'ENOENT' ? 'no such file or directory' : e.message}`;
}

/**
 * A bad recording line under `--strict`, a recording with nothing to replay, or an input
 * path that cannot be read (`unreadable`: the command line names something that is not
 * there, which the CLI reports as a usage error).
 */
export class BacktestInputError extends LinesmithError {
  override readonly code = 'LS_ERR_BACKTEST_INPUT';
  constructor(
    message: string,
    readonly problem: InputProblem | null,
    readonly unreadable = false,
  ) {
    super(message);
  }
}

/** A backtest setting that cannot work (sweep key, fill model, latency), found before the replay. */
export class BacktestConfigError extends LinesmithError {
  override readonly code = 'LS_ERR_BACKTEST_CONFIG';
}
