import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { recordingFiles, inTimeOrder } from '../../record/reader.ts';
import { BacktestInputError, cannotRead, formatInputProblem } from '../errors.ts';
import { readRecording, removeOwnOrders, type LoadTapeOptions } from '../tape.ts';
import { TapeFile, TapeFileError, TapeWriter, TAPE_FORMAT_VERSION } from './file.ts';
import { minimalRead } from './minimal-read.ts';

/** The folder a tape cache takes beside its recording. */
export const TAPE_DIR_NAME = '.linesmith-tape';

/** Decompressed bytes of the recording read to estimate a minimal read of all of it. */
const MINIMAL_READ_SAMPLE_BYTES = 2 << 20;

export interface TapeCacheOptions extends Pick<LoadTapeOptions, 'strict' | 'onProblem'> {
  /** Where tapes are kept (default: `.linesmith-tape` beside the first recording path). */
  readonly dir?: string;
  /** Build it again even if a good tape is there. */
  readonly rebuild?: boolean;
  /** Items per chunk (tests use small chunks). */
  readonly chunkItems?: number;
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
 * The recording's content hash: SHA-256 over its files' bytes, in reading order, with the
 * tape format version. A tape is named by it, so a recording changed in any byte (or a
 * file added or taken away) gets a new tape, and a moved or copied one keeps its tape.
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

/** The recording files of `paths` in reading order; a path that is not there is an input error. */
async function filesOf(paths: readonly string[]): Promise<string[]> {
  let files: string[];
  try {
    files = await inTimeOrder(await recordingFiles(paths));
  } catch (err) {
    throw new BacktestInputError(`cannot read the recording ${cannotRead(err, paths.join(', '))}`, null, true);
  }
  if (files.length === 0)
    throw new BacktestInputError(`no recording files (.jsonl.gz, .jsonl) in ${paths.join(', ')}`, null);
  return files;
}

/**
 * The tape of a recording: the one in the cache if it is there, of this format version,
 * and checks out against its checksums; otherwise built (and the bad one replaced). A tape
 * that fails its checksums is never replayed.
 */
export async function openTape(paths: readonly string[], options: TapeCacheOptions = {}): Promise<CachedTape> {
  const started = performance.now();
  const files = await filesOf(paths);
  const dir = options.dir ?? (await defaultTapeDir(paths));
  const key = await tapeKey(files);
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
  const tape = await buildTape(paths, files, key, path, options);
  return { tape, path, built: reason, ms: performance.now() - started };
}

/** The problems a reused tape recorded when it was built, as a fresh read would report them. */
function replayProblems(tape: TapeFile, options: TapeCacheOptions): void {
  const first = tape.footer.problems[0];
  if (options.strict && first) throw new BacktestInputError(`${formatInputProblem(first)} (--strict: stopping)`, first);
  for (const p of tape.footer.problems) options.onProblem?.(p);
}

/**
 * Reads the recording once (the same reading as `loadTape`), writing its items to a new
 * tape a chunk at a time: memory holds one chunk, not the recording.
 */
export async function buildTape(
  paths: readonly string[],
  files: readonly string[],
  key: string,
  path: string,
  options: TapeCacheOptions = {},
): Promise<TapeFile> {
  const started = performance.now();
  await mkdir(dirname(path), { recursive: true });
  await rm(path, { force: true });
  const writer = new TapeWriter(path, options.chunkItems !== undefined ? { chunkItems: options.chunkItems } : {});
  let footer;
  try {
    const s = await readRecording(
      paths,
      { strict: options.strict ?? false, ...(options.onProblem ? { onProblem: options.onProblem } : {}) },
      (it) => writer.add(it),
    );
    const ownListingsRemoved = s.own.size > 0 ? await countOwnListings(writer, s.own) : 0;
    const sample = await minimalRead(files, MINIMAL_READ_SAMPLE_BYTES);
    footer = writer.finish({
      key,
      files: s.files,
      meta: s.meta,
      stats: { ...s.stats, ownOrders: s.own.size, ownListingsRemoved },
      problems: s.problems,
      complete: s.complete,
      late: s.late,
      own: [...s.own],
      build: {
        ms: performance.now() - started,
        minimalReadMs: sample.lines > 0 ? (sample.ms * s.stats.lines) / sample.lines : 0,
      },
    });
  } catch (err) {
    writer.abort();
    throw err;
  }
  const tape = await TapeFile.open(path);
  if (tape.footer.count !== footer.count)
    throw new TapeFileError(path, 'corrupt', 'the tape just written does not read back');
  return tape;
}

/** How many listings of the recording account the items hold: read back from the chunks written so far. */
async function countOwnListings(writer: TapeWriter, own: ReadonlySet<string>): Promise<number> {
  let n = 0;
  for (const items of writer.writtenChunks()) n += removeOwnOrders(items, own);
  return n;
}
