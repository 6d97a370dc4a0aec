import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { LinesmithError } from '../../shared/errors.ts';
import type { MetaData } from '../../record/format.ts';
import type { InputProblem } from '../errors.ts';
import { removeOwnOrders, type LateRecords, type TapeItem, type TapeStats } from '../tape.ts';
import { ChunkDecoder, ChunkEncoder, TapeDecodeError, type EncodedChunk } from './codec.ts';

/**
 * The tape file: the pre-parsed items of one recording in chunks of typed columns
 * (`codec.ts`), then a footer that says what the recording was and where each chunk is.
 *
 *   "LSTAPE\n\0"  u32 format version  u32 0
 *   chunk…        each at an 8-byte boundary: a 48-byte head (item, tag, number, ref counts;
 *                 string and shape table bytes; the side updates' number and ref counts and
 *                 layout table bytes), then numbers (float64: the generic values', the side
 *                 updates'), refs (uint32: the same two), tags (uint8), the string table,
 *                 the shape table and the side updates' layout table (JSON text)
 *   footer        JSON: the recording's files, meta, stats, problems; per chunk its offset,
 *                 size, item count, first and last time, CRC-32
 *   u32 footer bytes  u32 footer CRC-32  "LSTAPEND"
 *
 * Every chunk and the footer carry a CRC-32: a tape that does not check out is not replayed.
 */
export const TAPE_FORMAT_VERSION = 3;

const MAGIC = Buffer.from('LSTAPE\n\0', 'latin1');
const END_MAGIC = Buffer.from('LSTAPEND', 'latin1');
const HEAD_BYTES = 16;
const CHUNK_HEAD_BYTES = 48;
const TRAILER_BYTES = 16;

/** Items per chunk, and the size past which a chunk is closed early (snapshots are large). */
export const CHUNK_ITEMS = 4_096;
const CHUNK_MAX_BYTES = 4 << 20;
/** Items a reader decodes at a time: few enough that they die young while the replay works on them. */
export const READ_BATCH_ITEMS = 256;

export interface TapeChunkInfo {
  readonly offset: number;
  readonly bytes: number;
  readonly count: number;
  readonly firstT: number;
  readonly lastT: number;
  readonly crc: number;
}

/** What the tape says about its recording and itself. */
export interface TapeFooter {
  readonly version: number;
  /** The recording's content hash (`tapeKey`): a tape answers for exactly those bytes. */
  readonly key: string;
  readonly files: readonly string[];
  readonly meta: readonly MetaData[];
  readonly stats: TapeStats;
  readonly problems: readonly InputProblem[];
  readonly complete: boolean;
  readonly late: LateRecords | null;
  /** Orders of the recording account: their listings are taken out of the items on reading. */
  readonly own: readonly string[];
  readonly count: number;
  readonly start: number;
  readonly end: number;
  readonly chunks: readonly TapeChunkInfo[];
  /** How the tape was built: its time, and an estimate of a minimal read of the recording (gunzip + split + JSON.parse). */
  readonly build: { readonly ms: number; readonly minimalReadMs: number };
}

/** A tape that cannot be used as it is: damaged (checksum), cut short, or of another format version. */
export class TapeFileError extends LinesmithError {
  override readonly code = 'LS_ERR_TAPE_FILE';
  constructor(
    readonly path: string,
    readonly reason: 'corrupt' | 'version' | 'key',
    detail: string,
  ) {
    super(`${path}: ${detail}`);
  }
}

/**
 * Writes a tape item by item, a chunk at a time, to a `.partial` file beside `path`; `finish` writes the
 * footer and renames it into place, so a tape path holds a whole tape or nothing.
 */
export class TapeWriter {
  readonly #path: string;
  readonly #partial: string;
  readonly #fd: number;
  readonly #chunkItems: number;
  readonly #onChunk: ((bytes: Uint8Array, count: number) => void) | undefined;
  readonly #enc = new ChunkEncoder();
  readonly #chunks: TapeChunkInfo[] = [];
  readonly #scratch = { buf: new ArrayBuffer(0) };
  #offset = 0;
  #firstT = 0;
  #lastT = 0;
  #count = 0;
  #start = NaN;

  /**
   * `onChunk` hears each chunk's bytes as they are written (a view on a buffer the writer
   * reuses: copy what is kept).
   */
  constructor(
    path: string,
    options: { chunkItems?: number; onChunk?: (bytes: Uint8Array, count: number) => void } = {},
  ) {
    this.#path = path;
    this.#onChunk = options.onChunk;
    // Its own name: two processes building the same tape at once each write their own, and the last rename wins.
    this.#partial = `${path}.${randomUUID()}.partial`;
    this.#chunkItems = options.chunkItems ?? CHUNK_ITEMS;
    this.#fd = openSync(this.#partial, 'w+');
    const head = Buffer.alloc(HEAD_BYTES);
    MAGIC.copy(head, 0);
    head.writeUInt32LE(TAPE_FORMAT_VERSION, 8);
    this.#write(head);
  }

  add(it: TapeItem): void {
    if (this.#enc.count === 0) this.#firstT = it.t;
    if (this.#count === 0) this.#start = it.t;
    this.#lastT = it.t;
    this.#count++;
    this.#enc.add(it);
    if (this.#enc.count >= this.#chunkItems || this.#enc.bytes >= CHUNK_MAX_BYTES) this.#flush();
  }

  /**
   * Writes the items added since the last chunk as a chunk of their own, if there are any:
   * the chunk `finish` would write, written now (`onChunk` hears it now).
   */
  flush(): void {
    if (this.#enc.count > 0) this.#flush();
  }

  /** Writes the footer (`chunks`, `count`, `start`, `end` are the writer's) and puts the tape in place. */
  finish(footer: Omit<TapeFooter, 'version' | 'chunks' | 'count' | 'start' | 'end'>): TapeFooter {
    if (this.#enc.count > 0) this.#flush();
    const full: TapeFooter = {
      version: TAPE_FORMAT_VERSION,
      ...footer,
      count: this.#count,
      start: this.#start,
      end: this.#lastT,
      chunks: this.#chunks,
    };
    const text = Buffer.from(JSON.stringify(full), 'utf8');
    const trailer = Buffer.alloc(TRAILER_BYTES);
    trailer.writeUInt32LE(text.length, 0);
    trailer.writeUInt32LE(crc32(text), 4);
    END_MAGIC.copy(trailer, 8);
    this.#write(text);
    this.#write(trailer);
    // No fsync: a tape is a cache, and one cut short by a crash fails its checks and is built again.
    closeSync(this.#fd);
    renameSync(this.#partial, this.#path);
    return full;
  }

  /** The items written so far, read back a chunk at a time (what is pending is written first). */
  *writtenChunks(): Generator<TapeItem[]> {
    if (this.#enc.count > 0) this.#flush();
    for (const c of this.#chunks) {
      const buf = new Uint8Array(new ArrayBuffer(c.bytes));
      let done = 0;
      while (done < c.bytes) {
        const n = readSync(this.#fd, buf, done, c.bytes - done, c.offset + done);
        if (n === 0) throw new TapeFileError(this.#partial, 'corrupt', 'the tape being written ends early');
        done += n;
      }
      yield chunkItems(buf);
    }
  }

  /** Leaves nothing behind (a build that failed). */
  abort(): void {
    try {
      closeSync(this.#fd);
    } catch {
      // Already closed: only the file is left to remove.
    }
    rmSync(this.#partial, { force: true });
  }

  #flush(): void {
    const count = this.#enc.count;
    const bytes = chunkBytes(this.#enc.finish(), this.#scratch);
    this.#chunks.push({
      offset: this.#offset,
      bytes: bytes.length,
      count,
      firstT: this.#firstT,
      lastT: this.#lastT,
      crc: crc32(bytes),
    });
    this.#write(bytes);
    this.#onChunk?.(bytes, count);
  }

  #write(b: Uint8Array): void {
    let done = 0;
    while (done < b.length) done += writeSync(this.#fd, b, done, b.length - done);
    this.#offset += b.length;
  }
}

const pad8 = (n: number) => (n + 7) & ~7;

/** One chunk's bytes: head, columns, tables, padded to 8 bytes so the next chunk's numbers are aligned. */
function chunkBytes(c: EncodedChunk, scratch: { buf: ArrayBuffer }): Buffer {
  const strings = Buffer.from(c.strings, 'utf8');
  const shapes = Buffer.from(c.shapes, 'utf8');
  const layouts = Buffer.from(c.updates.layouts, 'utf8');
  const u = c.updates;
  const numsAt = CHUNK_HEAD_BYTES;
  const updNumsAt = numsAt + c.nums.byteLength;
  const refsAt = updNumsAt + u.nums.byteLength;
  const updRefsAt = refsAt + c.refs.byteLength;
  const tagsAt = updRefsAt + u.refs.byteLength;
  const stringsAt = tagsAt + c.tags.byteLength;
  const shapesAt = stringsAt + strings.length;
  const layoutsAt = shapesAt + shapes.length;
  const end = layoutsAt + layouts.length;
  const total = pad8(end);
  // One buffer for every chunk written, grown when a chunk needs more.
  if (scratch.buf.byteLength < total) scratch.buf = new ArrayBuffer(Math.max(total, scratch.buf.byteLength * 2));
  const out = Buffer.from(scratch.buf, 0, total);
  out.fill(0, end, total);
  const head = new Uint32Array(out.buffer, out.byteOffset, CHUNK_HEAD_BYTES / 4);
  head.set([
    c.count,
    c.tags.length,
    c.nums.length,
    c.refs.length,
    strings.length,
    shapes.length,
    u.nums.length,
    u.refs.length,
    layouts.length,
    0,
    0,
    0,
  ]);
  const bytesOf = (a: Float64Array | Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  out.set(bytesOf(c.nums), numsAt);
  out.set(bytesOf(u.nums), updNumsAt);
  out.set(bytesOf(c.refs), refsAt);
  out.set(bytesOf(u.refs), updRefsAt);
  out.set(c.tags, tagsAt);
  strings.copy(out, stringsAt);
  shapes.copy(out, shapesAt);
  layouts.copy(out, layoutsAt);
  return out;
}

/**
 * The items of one chunk's bytes (at an 8-byte boundary of their ArrayBuffer: the columns are
 * views on it, aligned). The items hold nothing of the bytes: the reader reuses its buffers.
 */
export function chunkItems(bytes: Uint8Array): TapeItem[] {
  const d = chunkDecoder(bytes);
  const items = d.take(d.left) as TapeItem[];
  d.end();
  return items;
}

/**
 * The items of one chunk's bytes, `READ_BATCH_ITEMS` at a time, as `TapeFile.chunks` hands
 * them on (its comment says why not all at once). The bytes must stay as they are until the
 * last batch is taken.
 */
export function* chunkBatches(bytes: Uint8Array): Generator<TapeItem[]> {
  const d = chunkDecoder(bytes);
  while (d.left > 0) yield d.take(READ_BATCH_ITEMS) as TapeItem[];
  d.end();
}

/**
 * A decoder of one chunk's items (`chunkItems`, a few at a time). Its columns are views on
 * `bytes`: the bytes must stay as they are until the last item is taken.
 */
function chunkDecoder(bytes: Uint8Array): ChunkDecoder {
  if (bytes.byteOffset % 8 !== 0) throw new TapeDecodeError('a chunk must start at an 8-byte boundary of its buffer');
  if (bytes.length < CHUNK_HEAD_BYTES) throw new TapeDecodeError('the chunk is shorter than its head');
  const head = new Uint32Array(bytes.buffer, bytes.byteOffset, CHUNK_HEAD_BYTES / 4);
  const count = head[0]!;
  const nTags = head[1]!;
  const nNums = head[2]!;
  const nRefs = head[3]!;
  const nStrings = head[4]!;
  const nShapes = head[5]!;
  const nUpdNums = head[6]!;
  const nUpdRefs = head[7]!;
  const nLayouts = head[8]!;
  const numsAt = bytes.byteOffset + CHUNK_HEAD_BYTES;
  const updNumsAt = numsAt + nNums * 8;
  const refsAt = updNumsAt + nUpdNums * 8;
  const updRefsAt = refsAt + nRefs * 4;
  const tagsAt = updRefsAt + nUpdRefs * 4;
  const stringsAt = tagsAt + nTags;
  const shapesAt = stringsAt + nStrings;
  const layoutsAt = shapesAt + nShapes;
  if (layoutsAt + nLayouts - bytes.byteOffset > bytes.length)
    throw new TapeDecodeError('the chunk is shorter than its head says');
  const text = (at: number, n: number) => Buffer.from(bytes.buffer, at, n).toString('utf8');
  return new ChunkDecoder({
    count,
    nums: new Float64Array(bytes.buffer, numsAt, nNums),
    refs: new Uint32Array(bytes.buffer, refsAt, nRefs),
    tags: new Uint8Array(bytes.buffer, tagsAt, nTags),
    strings: JSON.parse(text(stringsAt, nStrings)) as string[],
    shapes: JSON.parse(text(shapesAt, nShapes)) as number[][],
    updates: {
      nums: new Float64Array(bytes.buffer, updNumsAt, nUpdNums),
      refs: new Uint32Array(bytes.buffer, updRefsAt, nUpdRefs),
      layouts: JSON.parse(text(layoutsAt, nLayouts)) as string[][],
    },
  });
}

/** How many chunks a reader holds at most (read, or being read, and not yet handed on). */
export interface ChunkGauge {
  alive: number;
  maxAlive: number;
}

/** What tells one version of a file from another without reading it: an edit or a replacement changes one of these. */
interface FileVersion {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

const versionOf = (s: FileVersion): FileVersion => ({
  dev: s.dev,
  ino: s.ino,
  size: s.size,
  mtimeMs: s.mtimeMs,
  ctimeMs: s.ctimeMs,
});

const sameVersion = (a: FileVersion, b: FileVersion): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/** An open tape: its footer read and checked; the chunks are read on demand. */
export class TapeFile {
  /** The version of the file whose every chunk `verify` checked, if it did. */
  #verified: FileVersion | null = null;

  private constructor(
    readonly path: string,
    readonly footer: TapeFooter,
    readonly size: number,
  ) {}

  /**
   * Opens a tape and checks what can be checked without reading it all: the magic, the
   * format version, the footer's checksum, and that the chunks fit the file.
   */
  static async open(path: string): Promise<TapeFile> {
    const fh = await open(path, 'r');
    try {
      const size = (await fh.stat()).size;
      const corrupt = (why: string) => new TapeFileError(path, 'corrupt', `the tape is damaged: ${why}`);
      if (size < HEAD_BYTES + TRAILER_BYTES) throw corrupt('shorter than a tape can be');
      const head = await readAt(fh, 0, HEAD_BYTES);
      if (!head.subarray(0, 8).equals(MAGIC)) throw corrupt('not a linesmith tape');
      const version = head.readUInt32LE(8);
      if (version !== TAPE_FORMAT_VERSION)
        throw new TapeFileError(
          path,
          'version',
          `tape format version ${version}; this linesmith reads version ${TAPE_FORMAT_VERSION}`,
        );
      const trailer = await readAt(fh, size - TRAILER_BYTES, TRAILER_BYTES);
      if (!trailer.subarray(8).equals(END_MAGIC)) throw corrupt('no end marker (cut short?)');
      const footerBytes = trailer.readUInt32LE(0);
      if (footerBytes > size - HEAD_BYTES - TRAILER_BYTES) throw corrupt('the footer is longer than the file');
      const text = await readAt(fh, size - TRAILER_BYTES - footerBytes, footerBytes);
      if (crc32(text) !== trailer.readUInt32LE(4)) throw corrupt('the footer does not match its checksum');
      const footer = JSON.parse(text.toString('utf8')) as TapeFooter;
      if (footer.version !== TAPE_FORMAT_VERSION)
        throw new TapeFileError(
          path,
          'version',
          `tape format version ${footer.version}; this linesmith reads version ${TAPE_FORMAT_VERSION}`,
        );
      let at = HEAD_BYTES;
      for (const c of footer.chunks) {
        if (c.offset !== at || c.bytes % 8 !== 0) throw corrupt('the chunk index does not fit the file');
        at += c.bytes;
      }
      if (at !== size - TRAILER_BYTES - footerBytes) throw corrupt('the chunk index does not fit the file');
      return new TapeFile(path, footer, size);
    } finally {
      await fh.close();
    }
  }

  /**
   * Reads every chunk and checks its checksum (a chunk at a time): throws on the first that
   * does not match. Reading this very file again (`chunks`) then checks no chunk again; a
   * file edited or replaced since is checked chunk by chunk as it is read.
   */
  async verify(): Promise<void> {
    const fh = await open(this.path, 'r');
    // One buffer for every chunk: a buffer per chunk of a long tape leaves the allocator's heap fragmented (resident memory that stays).
    const buf = new ArrayBuffer(this.#maxChunkBytes());
    try {
      const before = versionOf(await fh.stat());
      for (const [i, c] of this.footer.chunks.entries())
        this.#check(i, c, await readAt(fh, c.offset, c.bytes, this.path, buf));
      // Changed while it was read: its chunks are checked again as they are replayed.
      this.#verified = sameVersion(before, await fh.stat()) ? before : null;
    } finally {
      await fh.close();
    }
  }

  /**
   * The items, a batch at a time (at most `READ_BATCH_ITEMS`), in order; the recording
   * account's listings taken out. The next chunk is read while the caller works on this
   * one, and no more: at most two chunks are held (the gauge counts them), whatever the
   * length of the recording. Each chunk's checksum is checked as it is read, unless `verify`
   * checked this very version of the file (its identity, size and times unchanged since).
   *
   * Their bytes go to two buffers in turn, the one read into while the other's items are
   * decoded: a buffer per chunk of a long tape leaves the allocator's heap fragmented,
   * resident memory that stays. A chunk's items are decoded a batch at a time, as the
   * caller asks for them: a whole chunk decoded at once outlives the young generation's
   * collections while it is replayed, and every item of it is copied to the old
   * generation, garbage that only a full collection frees (the heap grows to hold it).
   */
  async *chunks(gauge?: ChunkGauge): AsyncGenerator<TapeItem[]> {
    const own = this.footer.own.length > 0 ? new Set(this.footer.own) : null;
    const fh = await open(this.path, 'r');
    const verified = this.#verified;
    let checked: boolean;
    try {
      checked = verified !== null && sameVersion(verified, await fh.stat());
    } catch (err) {
      await fh.close();
      throw err;
    }
    const g = gauge ?? { alive: 0, maxAlive: 0 };
    const size = this.#maxChunkBytes();
    const buffers = [new ArrayBuffer(size), new ArrayBuffer(size)] as const;
    const read = (i: number): Promise<Uint8Array> | null => {
      const c = this.footer.chunks[i];
      if (!c) return null;
      g.alive++;
      g.maxAlive = Math.max(g.maxAlive, g.alive);
      return readAt(fh, c.offset, c.bytes, this.path, buffers[i & 1]).then((b) => {
        if (!checked) this.#check(i, c, b);
        return b;
      });
    };
    let pending = read(0);
    try {
      for (let i = 0; pending; i++) {
        const bytes = await pending;
        pending = read(i + 1);
        // The next read goes to the other buffer: this chunk's bytes stay until its last item is taken.
        const decoder = chunkDecoder(bytes);
        while (decoder.left > 0) {
          const items = decoder.take(READ_BATCH_ITEMS) as TapeItem[];
          if (own) removeOwnOrders(items, own);
          yield items;
        }
        decoder.end();
        g.alive--;
      }
    } finally {
      // A caller that stops early leaves a read in flight: let it land before closing.
      await pending?.catch(() => undefined);
      await fh.close();
    }
  }

  #maxChunkBytes(): number {
    let n = 0;
    for (const c of this.footer.chunks) n = Math.max(n, c.bytes);
    return n;
  }

  #check(i: number, c: TapeChunkInfo, bytes: Uint8Array): void {
    if (crc32(bytes) !== c.crc)
      throw new TapeFileError(
        this.path,
        'corrupt',
        `the tape is damaged: chunk ${i + 1} of ${this.footer.chunks.length} does not match its checksum`,
      );
  }
}

/** `n` bytes at `offset`, at the start of `into` (or in a buffer of their own): the start is 8-byte aligned. */
async function readAt(fh: FileHandle, offset: number, n: number, path = '', into?: ArrayBuffer): Promise<Buffer> {
  const buf = Buffer.from(into ?? new ArrayBuffer(n), 0, n);
  let done = 0;
  while (done < n) {
    const { bytesRead } = await fh.read(buf, done, n - done, offset + done);
    if (bytesRead === 0) throw new TapeFileError(path, 'corrupt', 'the tape is damaged: it ends early');
    done += bytesRead;
  }
  return buf;
}
