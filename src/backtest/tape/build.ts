import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MetaData } from '../../record/format.ts';
import type { InputProblem } from '../errors.ts';
import {
  readRecording,
  removeOwnOrders,
  type LateRecords,
  type LoadTapeOptions,
  type RecordingSummary,
  type TapeItem,
  type TapeStats,
} from '../tape.ts';
import { chunkBatches, TapeFile, TapeFileError, TapeWriter, type TapeFooter } from './file.ts';
import type { BuildThreadData } from './build-protocol.ts';
import { giveBackBuildThread, takeBuildThread, type BuildThread } from './build-thread.ts';
import { minimalRead } from './minimal-read.ts';
import type { TapeSource } from './source.ts';

/**
 * Decompressed bytes of the recording read to estimate a minimal read of all of it: two of
 * the reader's blocks, some hundreds of lines, enough for a per-line time, and a small part
 * of a first run's pass (a sample of 2 MB cost a first backtest of paper-seed7 about 5% of
 * its minimal read).
 */
const MINIMAL_READ_SAMPLE_BYTES = 512 << 10;

/**
 * Chunks written ahead of the replay at most: the reading waits for the replay beyond that.
 * A chunk's items are decoded for the replay a batch at a time (`chunkBatches`), and the
 * parsed values a chunk was encoded from are garbage as soon as they are encoded.
 */
const READ_AHEAD_CHUNKS = 1;

/**
 * Recordings of at least this many (compressed) bytes are read and written to their tape on
 * a thread of their own while the replay runs (`TapeBuildOptions.thread`). Starting the
 * thread costs about as much CPU as a minimal read of 2–3 MB of compressed recording (its
 * TypeScript loader and modules): below this size the one-thread pass is faster.
 */
export const BUILD_THREAD_MIN_BYTES = 16 << 20;

export interface TapeBuildOptions extends Pick<LoadTapeOptions, 'strict' | 'onProblem'> {
  /** Items per chunk (tests use small chunks). */
  readonly chunkItems?: number;
  /**
   * Where a build that feeds a replay reads the recording and writes the tape: on the
   * replay's thread (`main`), on a thread of its own that hands the replay each chunk as it
   * is written (`worker`), or by size (`auto`, the default: `worker` from
   * `BUILD_THREAD_MIN_BYTES`). A build that feeds nothing (`run`) stays on its thread.
   */
  readonly thread?: 'auto' | 'main' | 'worker';
}

const NO_STATS: TapeStats = {
  lines: 0,
  priceFrames: 0,
  userFrames: 0,
  malformedFrames: 0,
  unknownFrameTypes: 0,
  badLines: 0,
  ownOrders: 0,
  ownListingsRemoved: 0,
};

/**
 * A tape being built: one reading of the recording (each JSON line parsed and checked once)
 * that writes the tape a chunk at a time and, as a `TapeSource`, hands each chunk's items to
 * a replay as soon as the chunk is written. A first backtest of a recording so costs one read
 * and its replay, not a build, then a read of the tape, then the replay.
 *
 * The items handed on are the tape's items as a later reading of it gives them: decoded from
 * the chunk just written, and the recording account's listings taken out with the orders its
 * user feed has named so far.
 * An order named only after one of its listings was handed on makes the one pass inexact
 * (`exact` false): its replay is to be run again from the tape. The tape goes into place
 * whole (written aside, renamed) only once the recording has been read to its end; a
 * recording that fails under `strict` leaves no tape.
 *
 * What a source tells of its recording (files, counts, times, problems) is known once the
 * chunks have ended; `count` is the items read so far until then.
 */
export class TapeBuild implements TapeSource {
  readonly #paths: readonly string[];
  readonly #files: readonly string[];
  readonly #key: string;
  readonly #path: string;
  readonly #options: TapeBuildOptions;
  readonly #own = new Set<string>();
  #footer: TapeFooter | null = null;
  #tape: TapeFile | null = null;
  #read = 0;
  /** Listings of the recording account taken out of the items handed on. */
  #removed = 0;
  #stoppedEarly = false;
  #used = false;
  #thread = false;

  constructor(
    paths: readonly string[],
    files: readonly string[],
    key: string,
    path: string,
    options: TapeBuildOptions,
  ) {
    this.#paths = paths;
    this.#files = files;
    this.#key = key;
    this.#path = path;
    this.#options = options;
  }

  get files(): readonly string[] {
    return this.#footer?.files ?? [];
  }
  get meta(): readonly MetaData[] {
    return this.#footer?.meta ?? [];
  }
  get stats(): TapeStats {
    return this.#footer?.stats ?? NO_STATS;
  }
  get problems(): readonly InputProblem[] {
    return this.#footer?.problems ?? [];
  }
  get complete(): boolean {
    return this.#footer?.complete ?? false;
  }
  get late(): LateRecords | null {
    return this.#footer?.late ?? null;
  }
  get count(): number {
    return this.#footer?.count ?? this.#read;
  }
  get start(): number {
    return this.#footer?.start ?? NaN;
  }
  get end(): number {
    return this.#footer?.end ?? NaN;
  }

  /** The tape written (once the chunks have ended). */
  get tape(): TapeFile {
    if (this.#tape === null) throw new TapeFileError(this.#path, 'corrupt', 'the tape is not built yet');
    return this.#tape;
  }

  /** Whether the items handed on were exactly the tape's (see the class comment); known once the chunks have ended. */
  get exact(): boolean {
    const f = this.#footer;
    if (f === null) return false;
    return f.stats.ownListingsRemoved === 0 || (!this.#stoppedEarly && this.#removed === f.stats.ownListingsRemoved);
  }

  /** The items, a chunk at a time, while the tape is written; stopping early still writes the whole tape. */
  chunks(): AsyncGenerator<readonly TapeItem[]> {
    return this.#feed();
  }

  async *#feed(): AsyncGenerator<readonly TapeItem[]> {
    const thread = await this.#onThread();
    this.#thread = thread !== null;
    if (thread !== null) yield* this.#runThread(thread);
    else yield* this.#run(true);
  }

  /** Whether the items were read and encoded on a thread of its own (known once `chunks` has started). */
  get onThread(): boolean {
    return this.#thread;
  }

  /**
   * The build thread a build that feeds a replay reads on, or none (`TapeBuildOptions.thread`).
   * By size (`auto`): a large recording takes the kept thread or starts one; a smaller one is
   * read on this thread. Measured on paper-seed7 (1.5 MB) in one bench run, best of 3: the
   * example config's first run took 2.6x the minimal read on this thread and 3.8–4.1x on an
   * already loaded build thread (its read and encode, handed over chunk by chunk, is the
   * longer side and runs slower there than the replay it overlaps).
   */
  async #onThread(): Promise<BuildThread | null> {
    const thread = this.#options.thread ?? 'auto';
    if (thread !== 'auto') return thread === 'worker' ? await takeBuildThread() : null;
    let bytes = 0;
    for (const f of this.#files) bytes += (await stat(f)).size;
    return bytes >= BUILD_THREAD_MIN_BYTES ? await takeBuildThread() : null;
  }

  /** Builds the tape without handing on any item. */
  async run(): Promise<TapeFile> {
    for await (const _ of this.#run(false));
    return this.tape;
  }

  async *#run(feed: boolean): AsyncGenerator<readonly TapeItem[]> {
    if (this.#used) throw new TapeFileError(this.#path, 'corrupt', 'a tape build reads its recording once');
    this.#used = true;
    const started = performance.now();
    // No removal of a tape already at the path: the writer renames its own file over it whole,
    // and another process may have just put the same tape there and be reading it.
    await mkdir(dirname(this.#path), { recursive: true });
    const size = this.#options.chunkItems;
    // The replay is handed each chunk's items as the tape will give them, decoded from the
    // chunk just written: a parsed item dies as soon as it is encoded, and the replay gets
    // the items every later run gets (repeated book orders one object, not one per line).
    const ready: Uint8Array[] = [];
    const writer = new TapeWriter(this.#path, {
      ...(size !== undefined ? { chunkItems: size } : {}),
      onChunk: (bytes) => {
        if (draining) return;
        // A copy of its own: the writer reuses its buffer.
        ready.push(bytes.slice());
        signal();
      },
    });
    // Not handing items on: the replay stopped early, or nothing replays.
    let draining = !feed;
    // In an object: the callbacks set them, which the compiler cannot follow from the loop.
    const gate: { wake: (() => void) | null; resume: (() => void) | null } = { wake: null, resume: null };
    const signal = () => {
      const w = gate.wake;
      gate.wake = null;
      w?.();
    };
    const release = () => {
      const r = gate.resume;
      gate.resume = null;
      r?.();
    };
    const emit = (it: TapeItem) => {
      writer.add(it);
      this.#read++;
    };
    const afterBatch = (): Promise<void> | undefined => {
      if (draining || ready.length < READ_AHEAD_CHUNKS) return undefined;
      return new Promise<void>((r) => (gate.resume = r));
    };
    const reading = {
      strict: this.#options.strict ?? false,
      ...(this.#options.onProblem ? { onProblem: this.#options.onProblem } : {}),
    };
    let summary: RecordingSummary | null = null;
    let failure: { err: unknown } | null = null;
    let done = false;
    const read = readRecording(this.#paths, reading, emit, { own: this.#own, afterBatch })
      .then(
        (s) => void (summary = s),
        (err: unknown) => void (failure = { err }),
      )
      .finally(() => {
        done = true;
        signal();
      });
    let finished = false;
    let flushed = false;
    try {
      for (;;) {
        const bytes = ready.shift();
        if (bytes !== undefined) {
          release();
          // A batch at a time, as a tape file is read: a whole chunk decoded at once outlives the young generation.
          for (const items of chunkBatches(bytes)) {
            if (this.#own.size > 0) this.#removed += removeOwnOrders(items, this.#own);
            yield items;
          }
          continue;
        }
        if (done) {
          if (flushed || failure !== null) break;
          // The last chunk, written now rather than with the footer: its items are handed on first.
          flushed = true;
          writer.flush();
          continue;
        }
        await new Promise<void>((r) => (gate.wake = r));
      }
      await read;
      finished = true;
    } finally {
      if (!finished) {
        // The replay stopped early (or failed): read the rest into the tape without waiting for it.
        this.#stoppedEarly = true;
        draining = true;
        ready.length = 0;
        release();
        await read;
        // It has its answer: a recording that fails past where it stopped leaves no tape, and no error to hear of.
        await this.#close(writer, summary, failure, started);
      }
    }
    await this.#close(writer, summary, failure, started);
    const failed = failure as { err: unknown } | null;
    if (failed !== null) throw failed.err;
  }

  /** The tape put in place, or nothing left of it when the reading failed. */
  async #close(
    writer: TapeWriter,
    summary: RecordingSummary | null,
    failure: { err: unknown } | null,
    started: number,
  ): Promise<void> {
    if (failure !== null || summary === null) writer.abort();
    else await this.#finish(writer, summary, started);
  }

  async #finish(writer: TapeWriter, s: RecordingSummary, started: number): Promise<void> {
    const tape = await finishTape(writer, s, this.#key, this.#files, this.#path, started);
    this.#footer = tape.footer;
    this.#tape = tape;
  }

  /**
   * The pass with the reading and writing on a thread of their own (`build-worker.ts`): it
   * hands each chunk's bytes over as it writes them, and this thread decodes them and hands
   * the items to the replay, so the first replay costs about the longer of reading and
   * encoding the recording, or decoding and replaying it, not their sum.
   */
  async *#runThread(thread: BuildThread): AsyncGenerator<readonly TapeItem[]> {
    if (this.#used) {
      giveBackBuildThread(thread);
      throw new TapeFileError(this.#path, 'corrupt', 'a tape build reads its recording once');
    }
    this.#used = true;
    const ready: Uint8Array[] = [];
    // In an object: the callbacks set them, which the compiler cannot follow from the loop.
    const st: { over: boolean; failure: { err: unknown } | null; draining: boolean; wake: (() => void) | null } = {
      over: false,
      failure: null,
      draining: false,
      wake: null,
    };
    const signal = () => {
      const w = st.wake;
      st.wake = null;
      w?.();
    };
    try {
      // No removal of a tape already at the path: the writer renames its own file over it whole,
      // and another process may have just put the same tape there and be reading it.
      await mkdir(dirname(this.#path), { recursive: true });
    } catch (err) {
      giveBackBuildThread(thread);
      throw err;
    }
    const data: BuildThreadData = {
      paths: this.#paths,
      files: this.#files,
      key: this.#key,
      path: this.#path,
      strict: this.#options.strict ?? false,
      chunkItems: this.#options.chunkItems,
    };
    thread.build(data, {
      chunk: (bytes, count, own) => {
        for (const id of own) this.#own.add(id);
        this.#read += count;
        if (st.draining) return;
        ready.push(new Uint8Array(bytes));
        signal();
      },
      problem: (p) => this.#options.onProblem?.(p),
      end: (failure) => {
        st.failure ??= failure;
        st.over = true;
        signal();
      },
    });
    // The footer's estimate of a minimal read, taken here while the build thread reads its
    // first chunk (this thread has nothing to do yet), rather than by the build thread after
    // its last, where the replay would wait for it. Awaited before the replay goes on, so
    // nothing runs beside it and it measures what it estimates.
    const sampled = sampleMinimalRead(this.#files);
    void sampled.then((sample) => thread.sample(sample));
    let finished = false;
    try {
      await sampled;
      for (;;) {
        const bytes = ready.shift();
        if (bytes !== undefined) {
          thread.ack();
          // A batch at a time, as a tape file is read: a whole chunk decoded at once outlives the young generation.
          for (const items of chunkBatches(bytes)) {
            if (this.#own.size > 0) this.#removed += removeOwnOrders(items, this.#own);
            yield items;
          }
          continue;
        }
        if (st.over) break;
        await new Promise<void>((r) => (st.wake = r));
      }
      finished = true;
    } finally {
      if (!finished) {
        // The replay stopped early (or failed): the thread writes the rest of the tape without handing it on.
        this.#stoppedEarly = true;
        st.draining = true;
        ready.length = 0;
        if (!st.over) thread.drain();
      }
      while (!st.over) await new Promise<void>((r) => (st.wake = r));
      giveBackBuildThread(thread);
      // Stopped early, it has its answer: a recording that fails past where it stopped leaves no tape, and no error to hear of.
      if (st.failure === null) {
        const tape = await TapeFile.open(this.#path);
        this.#footer = tape.footer;
        this.#tape = tape;
      }
    }
    const failed = st.failure as { err: unknown } | null;
    if (failed !== null) throw failed.err;
  }
}

/** A minimal read of the start of a recording (`MINIMAL_READ_SAMPLE_BYTES`): lines read, ms taken. */
export interface MinimalReadSample {
  readonly lines: number;
  readonly ms: number;
}

/** A minimal read of the start of the recording, to estimate one of all of it; nothing (0 lines) if it cannot be read. */
export async function sampleMinimalRead(files: readonly string[]): Promise<MinimalReadSample> {
  try {
    const m = await minimalRead(files, MINIMAL_READ_SAMPLE_BYTES);
    return { lines: m.lines, ms: m.ms };
  } catch {
    return { lines: 0, ms: 0 };
  }
}

/**
 * Puts a tape whose items are all written in place: its footer (with an estimate of a
 * minimal read of the recording, for the ratio a backtest prints: `sampled`, or one taken
 * now), renamed into place, and read back.
 */
export async function finishTape(
  writer: TapeWriter,
  s: RecordingSummary,
  key: string,
  files: readonly string[],
  path: string,
  started: number,
  sampled?: Promise<MinimalReadSample>,
): Promise<TapeFile> {
  let footer: TapeFooter;
  try {
    const ownListingsRemoved = s.own.size > 0 ? countOwnListings(writer, s.own) : 0;
    const sample = await (sampled ?? sampleMinimalRead(files));
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
function countOwnListings(writer: TapeWriter, own: ReadonlySet<string>): number {
  let n = 0;
  for (const items of writer.writtenChunks()) n += removeOwnOrders(items, own);
  return n;
}
