import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { createWriteStream } from 'node:fs';
import { FeedRecorder } from '../../src/record/feed-recorder.ts';
import {
  inTimeOrder,
  recordingFiles,
  RecordingReader,
  RecordingReadError,
  type RecordedEntry,
} from '../../src/record/reader.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { FakeSource, tempDir } from './support.ts';

const meta = (part = 1, version = 1, t = 1, session = 's') =>
  JSON.stringify({
    t,
    k: 'meta',
    d: {
      format: 'linesmith.feed-recording',
      version,
      session,
      part,
      sessionStart: 1,
      linesmith: '0.1.0',
      venue: { kind: 'live' },
      subscription: { all: true, leagues: [], sports: [], gameIds: [] },
      feeds: ['price'],
      rotation: { maxFileBytes: 1024, utcDay: true },
      clock: 'wall',
    },
  });
const price = (t: number, n: number) => JSON.stringify({ t, k: 'price', c: 1, d: ['orderUpdate', { epoch: n }] });

async function gzFile(dir: string, name: string, lines: string[], trailingNewline = true): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, gzipSync(lines.join('\n') + (trailingNewline ? '\n' : '')));
  return path;
}

async function collect(reader: RecordingReader): Promise<{ entries: RecordedEntry[]; thrown: unknown }> {
  const entries: RecordedEntry[] = [];
  try {
    for await (const e of reader) entries.push(e);
    return { entries, thrown: null };
  } catch (err) {
    return { entries, thrown: err };
  }
}

describe('RecordingReader', () => {
  it('reads files in time order by their meta record, whatever order they are named in, and a file named twice once', async () => {
    const dir = await tempDir('order');
    // Two sessions: b started first; a's two parts were opened in the same millisecond as each other.
    const a2 = await gzFile(dir, 'a-2.jsonl.gz', [meta(2, 1, 500, 'a'), price(600, 3)]);
    const a1 = await gzFile(dir, 'a-1.jsonl.gz', [meta(1, 1, 500, 'a'), price(550, 2)]);
    const b = await gzFile(dir, 'b.jsonl.gz', [meta(1, 1, 100, 'b'), price(200, 1)]);
    const broken = await gzFile(dir, 'c.jsonl.gz', ['not json', price(50, 0)]);
    expect(await inTimeOrder([broken, a2, a1, b])).toEqual([b, a1, a2, broken]);
    const r = new RecordingReader([a2, dir, b], { strict: false });
    const entries = await r.toArray();
    expect(entries.filter((e) => e.record.k === 'price').map((e) => e.record.t)).toEqual([200, 550, 600, 50]);
    // The file the directory repeats is read once; the broken one last, reported.
    expect(entries.filter((e) => e.file === b)).toHaveLength(2);
    expect(r.errors.map((e) => [e.file, e.line])).toEqual([
      [broken, 1],
      [broken, 2],
    ]);
  });

  it('reports a corrupt line with its file and line: strict stops there, lenient skips it and goes on', async () => {
    const dir = await tempDir('corrupt');
    const file = await gzFile(dir, 'a.jsonl.gz', [
      meta(),
      price(2, 1),
      '{"t":3,"k":"price","c":1,"d":["orderUp',
      price(4, 2),
      '{"t":"soon","k":"price","c":1,"d":[]}',
      '{"t":6,"k":"price","c":1,"d":[],"raw":"x"}',
      price(7, 3),
    ]);

    const strict = await collect(new RecordingReader([file]));
    expect(strict.entries.map((e) => e.line)).toEqual([1, 2]);
    expect(strict.thrown).toBeInstanceOf(RecordingReadError);
    expect(strict.thrown).toMatchObject({ file, line: 3, problem: 'json' });
    expect((strict.thrown as Error).message).toContain(`${file}:3: json:`);

    const seen: RecordingReadError[] = [];
    const lenient = new RecordingReader([file], { strict: false, onError: (e) => seen.push(e) });
    const { entries, thrown } = await collect(lenient);
    expect(thrown).toBeNull();
    expect(entries.map((e) => [e.line, e.record.t])).toEqual([
      [1, 1],
      [2, 2],
      [4, 4],
      [7, 7],
    ]);
    expect(lenient.errors.map((e) => [e.file, e.line, e.problem])).toEqual([
      [file, 3, 'json'],
      [file, 5, 'record'],
      [file, 6, 'record'],
    ]);
    expect(seen).toEqual(lenient.errors);
    expect(lenient.errors[1]!.detail).toMatch(/`t` is not a number/);
    expect(lenient.errors[2]!.detail).toMatch(/exactly one of `d` and `raw`/);
  });

  it('reports a file cut off mid-record (a recorder that died) as truncated at the line it broke in, after the lines before it', async () => {
    const dir = await tempDir('trunc');
    // What a killed recorder leaves: data flushed (Z_SYNC_FLUSH) up to some point, no gzip trailer.
    const path = join(dir, 'feed-20260301T120000000Z-000001.jsonl.gz');
    const gzip = createGzip();
    const out = createWriteStream(path);
    gzip.pipe(out);
    gzip.write(`${meta()}\n${price(2, 1)}\n${price(3, 2)}\n{"t":4,"k":"pri`);
    await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    await new Promise<void>((resolve) => out.write('', () => resolve()));
    gzip.unpipe(out);
    await new Promise<void>((resolve) => out.end(() => resolve()));
    const later = await gzFile(dir, 'feed-20260301T130000000Z-000002.jsonl.gz', [meta(2), price(5, 3)]);

    const strict = await collect(new RecordingReader([dir]));
    expect(strict.entries.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(strict.thrown).toMatchObject({ file: path, line: 4, problem: 'truncated' });

    const lenient = new RecordingReader([dir], { strict: false });
    const { entries } = await collect(lenient);
    // The next file is read after the broken one.
    expect(entries.map((e) => [e.file, e.line])).toEqual([
      [path, 1],
      [path, 2],
      [path, 3],
      [later, 1],
      [later, 2],
    ]);
    expect(lenient.errors.map((e) => [e.file, e.line, e.problem])).toEqual([[path, 4, 'truncated']]);
  });

  it('reports a complete gzip stream whose last line has no newline and is not a record as truncated, and a cut real recording too', async () => {
    const dir = await tempDir('tail');
    const file = await gzFile(dir, 'x.jsonl.gz', [meta(), price(2, 1), '{"t":3,"k":"price"'], false);
    const r = new RecordingReader([file], { strict: false });
    expect((await r.toArray()).map((e) => e.line)).toEqual([1, 2]);
    expect(r.errors.map((e) => [e.line, e.problem])).toEqual([[3, 'truncated']]);

    // A recording made by the recorder, its file cut in half.
    const clock = new ManualClock(Date.UTC(2026, 2, 1));
    const source = new FakeSource();
    const recDir = await tempDir('cut');
    const recorder = new FeedRecorder({
      source,
      dir: recDir,
      venue: { kind: 'live' },
      clock,
      scheduler: asyncScheduler,
      feeds: ['price'],
      flushIntervalMs: 0,
    });
    await recorder.start();
    source.price.open();
    for (let i = 0; i < 400; i++)
      source.price.frames.next(JSON.stringify(['orderUpdate', { epoch: i, pad: `${i}`.repeat(20) }]));
    const { files } = await recorder.stop('done');
    const bytes = await readFile(files[0]!);
    await writeFile(files[0]!, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const cut = new RecordingReader([recDir], { strict: false });
    const entries = await cut.toArray();
    expect(entries.length).toBeGreaterThan(1);
    expect(entries.length).toBeLessThan(400);
    expect(cut.errors).toHaveLength(1);
    expect(cut.errors[0]).toMatchObject({ file: files[0], line: entries.length + 1, problem: 'truncated' });
  });

  it('refuses a file of a newer format version, and one that is not gzip at all', async () => {
    const dir = await tempDir('version');
    const future = await gzFile(dir, 'b.jsonl.gz', [meta(1, 2), price(2, 1)]);
    const r = new RecordingReader([future], { strict: false });
    expect(await r.toArray()).toEqual([]);
    expect(r.errors.map((e) => [e.line, e.problem])).toEqual([[1, 'version']]);
    expect(r.errors[0]!.detail).toMatch(/version 2; this reader knows up to 1/);

    const notGzip = join(dir, 'c.jsonl.gz');
    await writeFile(notGzip, 'this is not gzip\n');
    const g = await collect(new RecordingReader([notGzip]));
    expect(g.thrown).toMatchObject({ file: notGzip, line: 1, problem: 'gzip' });
  });

  it('lists the files of directories in name order, recursively, and keeps the order of the paths given', async () => {
    const dir = await tempDir('list');
    await mkdir(join(dir, 'b'));
    await mkdir(join(dir, 'a'));
    const b2 = await gzFile(join(dir, 'b'), 'feed-2.jsonl.gz', [meta()]);
    const b1 = await gzFile(join(dir, 'b'), 'feed-1.jsonl.gz', [meta()]);
    const a1 = await gzFile(join(dir, 'a'), 'feed-9.jsonl.gz', [meta()]);
    await writeFile(join(dir, 'README.md'), 'not a recording');
    expect(await recordingFiles([dir])).toEqual([a1, b1, b2]);
    expect(await recordingFiles([b2, join(dir, 'a')])).toEqual([b2, a1]);
  });
});
