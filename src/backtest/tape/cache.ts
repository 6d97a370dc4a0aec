import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { recordingFiles, inTimeOrder } from '../../record/reader.ts';
import { BacktestInputError, cannotRead, formatInputProblem } from '../errors.ts';
import type { LoadTapeOptions } from '../tape.ts';
import { TapeBuild, type TapeBuildOptions } from './build.ts';
import { TapeFile, TapeFileError, TAPE_FORMAT_VERSION } from './file.ts';

/** The folder a tape cache takes beside its recording. */
export const TAPE_DIR_NAME = '.linesmith-tape';

export interface TapeCacheOptions extends Pick<LoadTapeOptions, 'strict' | 'onProblem'> {
  /** Where tapes are kept (default: `.linesmith-tape` beside the first recording path). */
  readonly dir?: string;
  /** Build it again even if a good tape is there. */
  readonly rebuild?: boolean;
  /** Items per chunk (tests use small chunks). */
  readonly chunkItems?: number;
  /** Where a first replay's build reads and writes (`TapeBuildOptions.thread`). */
  readonly thread?: TapeBuildOptions['thread'];
}

/** Why a tape was built rather than reused. */
export type BuildReason = 'new' | 'rebuild' | 'version' | 'corrupt';

export interface CachedTape {
  readonly tape: TapeFile;
  readonly path: string;
  /** null: an existing tape was reused; otherwise why it was built. */
  readonly built: BuildReason | null;
  /** Time to hash the recording, check (or build) the tape, ms. */
  readonly ms: number;
}

/** Where the tapes of a recording go by default: beside it (in the directory given, or the one holding the file given). */
export async function defaultTapeDir(paths: readonly string[]): Promise<string> {
  const first = paths[0];
  if (first === undefined) throw new BacktestInputError('no recording given', null);
  let isDir = false;
  try {
    isDir = (await stat(first)).isDirectory();
  } catch (err) {
    throw new BacktestInputError(`cannot read the recording ${cannotRead(err, first)}`, null, true);
  }
  return join(isDir ? first : dirname(first), TAPE_DIR_NAME);
}

/**
 * The recording's content hash: SHA-256 over its files' bytes, in the order listed
 * (`recordingFiles`), with the tape format version. A tape is named by it, so a recording
 * changed in any byte (or a file added or taken away) gets a new tape, and a moved or
 * copied one keeps its tape. The reading order (`inTimeOrder`) follows from those bytes in
 * that order, so it is worked out only for a build: a reused tape needs no file opened but
 * to hash it.
 */
export async function tapeKey(files: readonly string[]): Promise<string> {
  const h = createHash('sha256');
  h.update(`linesmith-tape/${TAPE_FORMAT_VERSION}\n`);
  for (const f of files) {
    let size = 0;
    for await (const chunk of createReadStream(f, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      h.update(chunk);
      size += chunk.length;
    }
    h.update(`\n${size}\n`);
  }
  return h.digest('hex').slice(0, 40);
}

/** The recording files of `paths`, as listed (`recordingFiles`); a path that is not there is an input error. */
async function filesOf(paths: readonly string[]): Promise<string[]> {
  let files: string[];
  try {
    files = await recordingFiles(paths);
  } catch (err) {
    throw new BacktestInputError(`cannot read the recording ${cannotRead(err, paths.join(', '))}`, null, true);
  }
  if (files.length === 0)
    throw new BacktestInputError(`no recording files (.jsonl.gz, .jsonl) in ${paths.join(', ')}`, null);
  return files;
}

/** `files` in reading order (`inTimeOrder`); a file that cannot be read is an input error. */
async function readingOrder(files: readonly string[]): Promise<string[]> {
  try {
    return await inTimeOrder(files);
  } catch (err) {
    throw new BacktestInputError(`cannot read the recording ${cannotRead(err, files.join(', '))}`, null, true);
  }
}

/** A tape to be built, ready to hand its items to a replay as it is written (`TapeBuild`). */
export interface PendingTape {
  readonly build: TapeBuild;
  readonly path: string;
  readonly built: BuildReason;
  /** Time to hash the recording and check the cache, ms. */
  readonly ms: number;
}

/**
 * The tape of a recording: the one in the cache if it is there, of this format version,
 * and checks out against its checksums; otherwise built (and the bad one replaced). A tape
 * that fails its checksums is never replayed.
 */
export async function openTape(paths: readonly string[], options: TapeCacheOptions = {}): Promise<CachedTape> {
  const started = performance.now();
  const found = await findTape(paths, options);
  if ('tape' in found) return found;
  const tape = await found.build.run();
  return { tape, path: found.path, built: found.built, ms: performance.now() - started };
}

/**
 * The cached tape if a good one is there (as `openTape`), or a build of it not yet started:
 * the first replay of a recording reads it from the build (`TapeBuild.chunks`) as it is
 * written, so reading the recording and replaying it are one pass.
 */
export async function findTape(
  paths: readonly string[],
  options: TapeCacheOptions = {},
): Promise<CachedTape | PendingTape> {
  const started = performance.now();
  const listed = await filesOf(paths);
  const dir = options.dir ?? (await defaultTapeDir(paths));
  const key = await tapeKey(listed);
  const path = join(dir, `${key}.tape`);
  let reason: BuildReason = 'new';
  if (options.rebuild) reason = 'rebuild';
  else {
    try {
      const tape = await TapeFile.open(path);
      if (tape.footer.key !== key) throw new TapeFileError(path, 'key', 'the tape is of another recording');
      await tape.verify();
      replayProblems(tape, options);
      return { tape, path, built: null, ms: performance.now() - started };
    } catch (err) {
      if (err instanceof TapeFileError) reason = err.reason === 'version' ? 'version' : 'corrupt';
      else if ((err as NodeJS.ErrnoException).code === 'ENOENT') reason = 'new';
      else if (err instanceof SyntaxError) reason = 'corrupt';
      else throw err;
    }
  }
  const build = new TapeBuild(paths, await readingOrder(listed), key, path, {
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    ...(options.onProblem ? { onProblem: options.onProblem } : {}),
    ...(options.chunkItems !== undefined ? { chunkItems: options.chunkItems } : {}),
    ...(options.thread !== undefined ? { thread: options.thread } : {}),
  });
  return { build, path, built: reason, ms: performance.now() - started };
}

/** The problems a reused tape recorded when it was built, as a fresh read would report them. */
function replayProblems(tape: TapeFile, options: TapeCacheOptions): void {
  const first = tape.footer.problems[0];
  if (options.strict && first) throw new BacktestInputError(`${formatInputProblem(first)} (--strict: stopping)`, first);
  for (const p of tape.footer.problems) options.onProblem?.(p);
}
