import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip, type Gzip } from 'node:zlib';
import { interval, type SchedulerLike, type Subscription } from 'rxjs';
import { recordingFileName, utcDay } from './format.ts';
import { RecordingWriteError } from './errors.ts';

export interface RotatingWriterOptions {
  readonly dir: string;
  readonly prefix: string;
  /** Start a new file once this many uncompressed bytes went into the current one. */
  readonly maxFileBytes: number;
  /** Start a new file when a record's UTC day differs from the file's first record's. */
  readonly rotateDaily: boolean;
  /** The first line of every file (its meta record), given the file's first `t` and its part number. */
  readonly header: (t: number, part: number) => string;
  /** Called after a file is opened because of a rotation (not for the first file). */
  readonly onRotate?: (reason: 'size' | 'day', t: number) => void;
  readonly onError: (err: Error) => void;
  /** Sync-flush the gzip stream this often, so a killed process leaves readable files. 0: never. */
  readonly flushIntervalMs: number;
  readonly scheduler: SchedulerLike;
  readonly gzipLevel?: number;
}

interface OpenFile {
  readonly path: string;
  readonly gzip: Gzip;
  readonly out: WriteStream;
  readonly done: Promise<void>;
  readonly day: number;
  bytes: number;
  dirty: boolean;
}

export interface WriterStats {
  readonly files: readonly string[];
  /** Uncompressed bytes written, all files. */
  readonly bytes: number;
  /** Bytes on disk so far (gzip output that reached the files). */
  readonly compressedBytes: number;
  readonly lines: number;
}

/**
 * Lines into gzip files that rotate by size and UTC day. Writes never block: the feed
 * cannot be paused, so a slow disk shows as memory held by the streams, not as lost frames.
 * A file is named after its first record, and every file starts with the header line, so
 * each file can be read on its own.
 */
export class RotatingGzipWriter {
  readonly #o: RotatingWriterOptions;
  readonly #files: string[] = [];
  readonly #closing: Promise<void>[] = [];
  readonly #flusher: Subscription | null;
  #current: OpenFile | null = null;
  #bytes = 0;
  #lines = 0;
  #closedBytes = 0;
  #closed = false;
  #failed = false;

  constructor(options: RotatingWriterOptions) {
    if (!(options.maxFileBytes > 0)) throw new RangeError(`maxFileBytes must be positive, got ${options.maxFileBytes}`);
    this.#o = options;
    this.#flusher =
      options.flushIntervalMs > 0
        ? interval(options.flushIntervalMs, options.scheduler).subscribe(() => this.#flush())
        : null;
  }

  get stats(): WriterStats {
    return {
      files: [...this.#files],
      bytes: this.#bytes,
      compressedBytes: this.#closedBytes + (this.#current?.out.bytesWritten ?? 0),
      lines: this.#lines,
    };
  }

  /**
   * Append one line (no newline in it). A file may end one line past maxFileBytes: lines are
   * never split. A function is called after any rotation, so a line that counts files sees the new one.
   */
  write(t: number, line: string | (() => string)): void {
    if (this.#closed || this.#failed) return;
    let file = this.#current;
    if (file && file.bytes >= this.#o.maxFileBytes) {
      this.#rotate();
      this.#o.onRotate?.('size', t);
      file = null;
    } else if (file && this.#o.rotateDaily && utcDay(t) !== file.day) {
      this.#rotate();
      this.#o.onRotate?.('day', t);
      file = null;
    }
    file ??= this.#open(t);
    this.#append(file, typeof line === 'string' ? line : line());
  }

  /** Open the first file now (its header is then the session's first record), if none is open. */
  begin(t: number): void {
    if (this.#closed || this.#failed || this.#current) return;
    this.#open(t);
  }

  /** End the current file and wait until every file is flushed and closed. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#flusher?.unsubscribe();
      this.#rotate();
    }
    await Promise.all(this.#closing);
  }

  #open(t: number): OpenFile {
    const part = this.#files.length + 1;
    const path = join(this.#o.dir, recordingFileName(this.#o.prefix, t, part));
    const gzip = createGzip({ level: this.#o.gzipLevel ?? 6 });
    // `wx`: a name that exists belongs to another recording; never overwrite it.
    const out = createWriteStream(path, { flags: 'wx' });
    const done = pipeline(gzip, out).catch((err: unknown) => this.#fail(err));
    const file: OpenFile = { path, gzip, out, done, day: utcDay(t), bytes: 0, dirty: false };
    this.#current = file;
    this.#files.push(path);
    this.#append(file, this.#o.header(t, part));
    return file;
  }

  #append(file: OpenFile, line: string): void {
    const text = `${line}\n`;
    const n = Buffer.byteLength(text);
    file.bytes += n;
    file.dirty = true;
    this.#bytes += n;
    this.#lines++;
    file.gzip.write(text);
  }

  #rotate(): void {
    const file = this.#current;
    if (!file) return;
    this.#current = null;
    file.gzip.end();
    this.#closing.push(file.done.then(() => void (this.#closedBytes += file.out.bytesWritten)));
  }

  #flush(): void {
    const file = this.#current;
    if (!file || !file.dirty) return;
    file.dirty = false;
    file.gzip.flush(constants.Z_SYNC_FLUSH);
  }

  #fail(err: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#o.onError(err instanceof Error ? err : new RecordingWriteError(String(err)));
  }
}
