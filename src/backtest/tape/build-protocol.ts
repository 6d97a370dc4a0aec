import { LinesmithError } from '../../shared/errors.ts';
import { BacktestInputError, type InputProblem } from '../errors.ts';
import { TapeFileError } from './file.ts';

/**
 * What the replay's thread and a build thread (`build-worker.ts`) say to each other while a
 * first replay reads its recording on a thread of its own (`TapeBuild`, thread `worker`).
 */

/**
 * How many chunks the build thread hands on ahead of the replay at most: it waits for the
 * replay beyond that, so a slow replay does not hold the tape in memory.
 */
export const THREAD_AHEAD_CHUNKS = 2;

/** One build the build thread is given (`build-worker.ts`); a thread runs one after another. */
export interface BuildThreadData {
  readonly paths: readonly string[];
  readonly files: readonly string[];
  readonly key: string;
  readonly path: string;
  readonly strict: boolean;
  readonly chunkItems: number | undefined;
}

/** An error of the build thread, as it crosses to the replay's thread. */
export type ThreadFailure =
  | {
      readonly kind: 'input';
      readonly message: string;
      readonly problem: InputProblem | null;
      readonly unreadable: boolean;
    }
  | { readonly kind: 'tape'; readonly message: string; readonly path: string; readonly reason: TapeFileError['reason'] }
  | { readonly kind: 'other'; readonly message: string };

/**
 * What the build thread says, in order: `ready` once, when its modules are loaded; then per
 * build its chunks and problems, and `done` or `failed` last.
 */
export type FromBuildThread =
  | { readonly type: 'ready' }
  | { readonly type: 'chunk'; readonly bytes: ArrayBuffer; readonly count: number; readonly own: readonly string[] }
  | { readonly type: 'problem'; readonly problem: InputProblem }
  | { readonly type: 'done' }
  | { readonly type: 'failed'; readonly failure: ThreadFailure };

/**
 * What the replay's thread says to the build thread: a build to run (only once the one before
 * has said `done` or `failed`), the footer's estimate of a minimal read of its recording
 * (every build gets one, which it waits for before its footer), a chunk of the build under
 * way taken, or nothing more of it to hand on. An `ack` or `drain` that arrives after its build ended is one of that build's:
 * the next build starts afresh.
 */
export type ToBuildThread =
  | { readonly type: 'build'; readonly data: BuildThreadData }
  | { readonly type: 'sample'; readonly sample: { readonly lines: number; readonly ms: number } }
  | { readonly type: 'ack' }
  | { readonly type: 'drain' };

/** The build thread failed for a reason that is neither a bad recording nor a bad tape (a write that failed, say). */
export class TapeBuildThreadError extends LinesmithError {
  override readonly code = 'LS_ERR_TAPE_BUILD_THREAD';
}

/** The error a build thread's failure stands for, made again on this thread. */
export function threadError(f: ThreadFailure): Error {
  switch (f.kind) {
    case 'input':
      return new BacktestInputError(f.message, f.problem, f.unreadable);
    case 'tape': {
      const e = new TapeFileError(f.path, f.reason, '');
      e.message = f.message;
      return e;
    }
    case 'other':
      return new TapeBuildThreadError(f.message);
  }
}

/** An error of the build thread, ready to cross to the replay's thread. */
export function threadFailure(err: unknown): ThreadFailure {
  if (err instanceof BacktestInputError)
    return { kind: 'input', message: err.message, problem: err.problem, unreadable: err.unreadable };
  if (err instanceof TapeFileError) return { kind: 'tape', message: err.message, path: err.path, reason: err.reason };
  return { kind: 'other', message: err instanceof Error ? err.message : String(err) };
}
