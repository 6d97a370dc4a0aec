import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { jsonText } from '../shared/json-text.ts';
import { RECORD_KINDS, RECORDING_FORMAT, RECORDING_VERSION, type RecordingRecord } from './format.ts';
import { LinesmithError } from '../shared/errors.ts';

/**
 * What went wrong at one line: `io` the file could not be read; `gzip` the compressed data
 * is corrupt; `truncated` the file stops mid-record or without the gzip trailer (a recorder
 * that died); `json` a line is not JSON; `record` it is JSON but not a valid record;
 * `version` the file was written in a format or version this reader does not know.
 */
export type ReadProblem = 'io' | 'gzip' | 'truncated' | 'json' | 'record' | 'version';

export class RecordingReadError extends LinesmithError {
  override readonly code = 'LS_ERR_RECORDING_READ';
  constructor(
    readonly file: string,
    /** 1-based; for `truncated` and `gzip`, the line being read when the data ended or broke. */
    readonly line: number,
    readonly problem: ReadProblem,
    readonly detail: string,
  ) {
    super(`${file}:${line}: ${problem}: ${detail}`);
  }
}

/** One record with where it was read from. */
export interface RecordedEntry {
  readonly file: string;
  /** 1-based line within the file. */
  readonly line: number;
  readonly record: RecordingRecord;
}

export interface RecordingReaderOptions {
  /**
   * true (default): the first problem is thrown from the iteration. false: it is reported
   * (`errors`, `onError`) and reading goes on — with the next line after a bad line, with the
   * next file after a broken or truncated one, or one of an unknown version.
   */
  readonly strict?: boolean;
  readonly onError?: (err: RecordingReadError) => void;
}

const isRecordingFile = (name: string): boolean => name.endsWith('.jsonl.gz') || name.endsWith('.jsonl');

/**
 * The recording files of `paths`: files as given, directories expanded (recursively) to
 * their `.jsonl.gz` / `.jsonl` files sorted by path, which is time order for the recorder's
 * names within a directory. A file reached twice (a directory and a file in it) is listed
 * once: read twice, every event would be replayed twice.
 */
export async function recordingFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    const key = resolve(file);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(file);
  };
  for (const p of paths) {
    const s = await stat(p);
    if (!s.isDirectory()) {
      add(p);
      continue;
    }
    const entries = await readdir(p, { recursive: true, withFileTypes: true });
    const found = entries.filter((e) => e.isFile() && isRecordingFile(e.name)).map((e) => join(e.parentPath, e.name));
    for (const f of found.sort()) add(f);
  }
  return out;
}

/** Where a file sits in time: its meta record (line 1) — the time the file was opened, its session and part. */
interface FileStart {
  readonly t: number;
  readonly session: string;
  readonly part: number;
}

/**
 * Bytes read (and decompressed) at a time for a file's first line: a meta record is a few
 * hundred bytes, and a recording block (`BLOCK_BYTES`) decompresses to far more than it.
 */
const FIRST_LINE_BLOCK_BYTES = 4 * 1024;

/** The meta record on a file's first line, or null when it has none that reads. Reads a small block, not the file. */
async function fileStart(file: string): Promise<FileStart | null> {
  for await (const item of lines(file, FIRST_LINE_BLOCK_BYTES)) {
    if (item instanceof RecordingReadError) return null;
    let value: unknown;
    try {
      value = JSON.parse(item.text);
    } catch {
      return null;
    }
    if (checkRecord(value) !== null) return null;
    const r = value as RecordingRecord;
    return r.k === 'meta' ? { t: r.t, session: r.d.session, part: r.d.part } : null;
  }
  return null;
}

/**
 * `files` in time order, by the start their meta record gives (then session and part, for
 * files opened in the same millisecond), whatever order they were named in: a replay clock
 * only moves forward, so a later file read first would put everything before it out of
 * time. Files without a readable meta record go last, in the order given; reading them
 * reports why.
 */
export async function inTimeOrder(files: readonly string[]): Promise<string[]> {
  const starts = await Promise.all(files.map(fileStart));
  const order = files.map((file, i) => ({ file, start: starts[i] ?? null }));
  // Array.prototype.sort is stable: ties keep the order given.
  order.sort((a, b) => {
    if (a.start === null || b.start === null) return a.start === null ? (b.start === null ? 0 : 1) : -1;
    return (
      a.start.t - b.start.t ||
      (a.start.session < b.start.session ? -1 : a.start.session > b.start.session ? 1 : 0) ||
      a.start.part - b.start.part
    );
  });
  return order.map((o) => o.file);
}

/**
 * Streams the records of recording files back in order (gunzip, line by line), each with
 * its file and line: the files in time order (`inTimeOrder`), each file's records as
 * written. Files are read one at a time, so memory does not grow with their size.
 */
export class RecordingReader implements AsyncIterable<RecordedEntry> {
  readonly errors: RecordingReadError[] = [];
  readonly #paths: readonly string[];
  #files: Promise<string[]> | undefined;
  readonly #strict: boolean;
  readonly #onError: ((err: RecordingReadError) => void) | undefined;

  constructor(paths: readonly string[], options: RecordingReaderOptions = {}) {
    this.#paths = paths;
    this.#strict = options.strict ?? true;
    this.#onError = options.onError;
  }

  /** Every record, in order (for small recordings and tests). */
  async toArray(): Promise<RecordedEntry[]> {
    const out: RecordedEntry[] = [];
    for await (const e of this) out.push(e);
    return out;
  }

  /**
   * The files this reader reads, in reading order (paths expanded, then `inTimeOrder`),
   * worked out once. Rejects when a path cannot be read, where iterating reports it instead.
   */
  files(): Promise<string[]> {
    return (this.#files ??= recordingFiles(this.#paths).then(inTimeOrder));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RecordedEntry> {
    for await (const batch of this.batches()) yield* batch;
  }

  /**
   * The same records, a batch at a time (those of one decompressed block of a file): one
   * await per block instead of one per record, for a reader that goes through every record.
   */
  async *batches(): AsyncGenerator<RecordedEntry[]> {
    let files: string[];
    try {
      files = await this.files();
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      this.#report(new RecordingReadError(e.path ?? String(this.#paths), 0, 'io', e.message));
      return;
    }
    for (const file of files) yield* this.#file(file);
  }

  async *#file(file: string): AsyncGenerator<RecordedEntry[]> {
    let sawMeta = false;
    for await (const batch of lineBatches(file)) {
      let out: RecordedEntry[] = [];
      for (const item of batch) {
        let problem: RecordingReadError | null = null;
        let record: RecordingRecord | null = null;
        let stop = false;
        if (item instanceof RecordingReadError) {
          problem = item;
          stop = true;
        } else {
          const { line, text, complete } = item;
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch (err) {
            problem = new RecordingReadError(
              file,
              line,
              complete ? 'json' : 'truncated',
              complete ? (err as Error).message : 'the last line stops mid-record (no newline)',
            );
          }
          if (problem === null) {
            const bad = checkRecord(value);
            if (bad !== null) {
              problem = new RecordingReadError(file, line, complete ? bad.problem : 'truncated', bad.detail);
              stop = bad.problem === 'version';
            } else {
              record = value as RecordingRecord;
              if (!sawMeta) {
                sawMeta = true;
                if (record.k !== 'meta')
                  problem = new RecordingReadError(
                    file,
                    line,
                    'record',
                    `a recording file starts with a meta record, this one with "${record.k}"`,
                  );
              }
            }
          }
        }
        if (problem !== null) {
          // Reported in line order: the records before it are handed on first.
          if (out.length > 0) yield out;
          out = [];
          this.#report(problem);
          if (stop) return;
        }
        if (record !== null) out.push({ file, line: (item as Line).line, record });
      }
      if (out.length > 0) yield out;
    }
  }

  #report(err: RecordingReadError): void {
    this.errors.push(err);
    this.#onError?.(err);
    if (this.#strict) throw err;
  }
}

interface Line {
  readonly line: number;
  readonly text: string;
  /** false: the data ended without this line's newline. */
  readonly complete: boolean;
}

/** Bytes read, and decompressed, at a time. */
const BLOCK_BYTES = 256 * 1024;

/** The lines of one file; a read or gzip failure comes last, as a value, with the line it broke in. */
async function* lines(file: string, blockBytes = BLOCK_BYTES): AsyncGenerator<Line | RecordingReadError> {
  for await (const batch of lineBatches(file, blockBytes)) yield* batch;
}

/**
 * The lines of one file, a decompressed block (of `blockBytes`) at a time; a read or gzip
 * failure comes last, as a value, with the line it broke in.
 */
async function* lineBatches(file: string, blockBytes = BLOCK_BYTES): AsyncGenerator<(Line | RecordingReadError)[]> {
  const raw = createReadStream(file, { highWaterMark: blockBytes });
  let stream: Readable = raw;
  if (file.endsWith('.gz')) {
    const gunzip = createGunzip({ chunkSize: blockBytes });
    raw.on('error', (err) => gunzip.destroy(err));
    stream = raw.pipe(gunzip);
  }
  let n = 0;
  let rest: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      const out: Line[] = [];
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
        n++;
        const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
        out.push({ line: n, text: buf.toString('utf8', start, end), complete: true });
        start = nl + 1;
      }
      rest = start < buf.length ? Buffer.from(buf.subarray(start)) : Buffer.alloc(0);
      if (out.length > 0) yield out;
    }
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const ended = e.code === 'Z_BUF_ERROR';
    const what = ended ? 'truncated' : e.code?.startsWith('Z_') ? 'gzip' : 'io';
    const detail = ended
      ? rest.length > 0
        ? 'the data stops mid-record (the recorder did not close the file)'
        : 'the data stops after a complete line but without the gzip trailer (the recorder did not close the file)'
      : e.message;
    yield [new RecordingReadError(file, n + 1, what, detail)];
    return;
  } finally {
    // Also when the consumer stops early: no file handle left open.
    raw.destroy();
  }
  if (rest.length > 0) yield [{ line: n + 1, text: rest.toString('utf8'), complete: false }];
}

// -------------------------------------------------------------------- record checks

const num = z.number().refine(Number.isFinite);
const feed = z.enum(['price', 'user']);
const scope = z.looseObject({
  league: z.string().optional(),
  gameID: z.string().optional(),
  sports: z.array(z.string()).optional(),
});
const reason = z.enum(['start', 'reconnect', 'day']);
const side = z.looseObject({ id: z.string(), name: z.string().nullable(), score: num });

/** Loose: fields added by a later writer of the same version are kept, not refused. */
const BODY = {
  meta: z.looseObject({
    format: z.literal(RECORDING_FORMAT),
    version: z.int(),
    session: z.string(),
    part: z.int().positive(),
    sessionStart: num,
    feeds: z.array(feed),
  }),
  snapshot: z.looseObject({ batch: z.int(), reason, req: num, scope, game: z.unknown() }),
  snapshotDone: z.looseObject({
    batch: z.int(),
    reason,
    req: num,
    games: z.array(z.string()),
    failed: z.array(z.looseObject({ scope, error: z.string() })),
  }),
  gap: z.looseObject({
    feed,
    from: num,
    to: num,
    connection: z.int(),
    resumed: z.boolean(),
    reason: z.string().nullable(),
  }),
  result: z.looseObject({
    gameID: z.string(),
    league: z.string().nullable(),
    sport: z.string().nullable(),
    away: side,
    home: side,
    via: z.enum(['feed', 'rest', 'snapshot']),
  }),
  end: z.looseObject({ reason: z.string(), records: z.int(), files: z.int() }),
} as const;

const KINDS = new Set<string>(RECORD_KINDS);

/** A value from a bad line, for a message: short, and never a throw (a line may nest deeper than JSON.stringify can follow). */
function shown(v: unknown): string {
  const text = jsonText(v);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function checkRecord(v: unknown): { problem: 'record' | 'version'; detail: string } | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return { problem: 'record', detail: 'not a JSON object' };
  const r = v as Record<string, unknown>;
  if (typeof r['t'] !== 'number' || !Number.isFinite(r['t']))
    return { problem: 'record', detail: '`t` is not a number' };
  const k = r['k'];
  if (typeof k !== 'string' || !KINDS.has(k)) return { problem: 'record', detail: `unknown kind ${shown(k)}` };
  if (k === 'price' || k === 'user') {
    // Frames are most of a recording: checked by hand, their payload left to the consumer.
    if (!Number.isSafeInteger(r['c'])) return { problem: 'record', detail: '`c` (connection) is not an integer' };
    if ('d' in r === 'raw' in r) return { problem: 'record', detail: 'a frame has exactly one of `d` and `raw`' };
    if ('raw' in r && typeof r['raw'] !== 'string') return { problem: 'record', detail: '`raw` is not a string' };
    return null;
  }
  if (k === 'meta') {
    const d = r['d'] as Record<string, unknown> | undefined;
    if (d?.['format'] !== RECORDING_FORMAT)
      return { problem: 'version', detail: `not a linesmith feed recording (format ${shown(d?.['format'])})` };
    if (typeof d['version'] === 'number' && d['version'] > RECORDING_VERSION) {
      return {
        problem: 'version',
        detail: `written in format version ${d['version']}; this reader knows up to ${RECORDING_VERSION}`,
      };
    }
  }
  const checked = BODY[k as keyof typeof BODY].safeParse(r['d']);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return {
      problem: 'record',
      detail: `${k}: ${issue ? `${['d', ...issue.path].join('.')}: ${issue.message}` : 'invalid'}`,
    };
  }
  return null;
}
