import { createHash } from 'node:crypto';
import {
  closeSync,
  cpSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { reportJson } from '../../src/backtest/report/write.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { runSweep, sweepRuns } from '../../src/app/sweep.ts';
import { loadTape, type TapeItem } from '../../src/backtest/tape.ts';
import { openTape, TAPE_DIR_NAME } from '../../src/backtest/tape/cache.ts';
import { READ_BATCH_ITEMS, TapeFile, TapeFileError, type ChunkGauge } from '../../src/backtest/tape/file.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { linesmith } from '../support/cli.ts';

const SAMPLES = ['paper-seed7', 'paper-seed11-drops', 'paper-seed13-deep'] as const;

async function allItems(tape: TapeFile, gauge?: ChunkGauge): Promise<TapeItem[]> {
  const out: TapeItem[] = [];
  for await (const c of tape.chunks(gauge)) out.push(...c);
  return out;
}

/** A copy of a sample recording in a directory of its own (its tapes go beside it). */
function copyOf(sample: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ls-tape-')), sample);
  // Without a tape another test may have built beside the committed sample.
  cpSync(join('backtest/data', sample), dir, { recursive: true, filter: (src) => !src.includes(TAPE_DIR_NAME) });
  return dir;
}

/** The one tape in a recording's cache directory. */
function tapePathIn(recording: string): string {
  const names = readdirSync(join(recording, TAPE_DIR_NAME)).filter((n) => n.endsWith('.tape'));
  expect(names).toHaveLength(1);
  return join(recording, TAPE_DIR_NAME, names[0]!);
}

describe('the binary tape', () => {
  it.each(SAMPLES)('yields exactly the items the JSON path reads from %s, over many chunks', async (sample) => {
    const json = await loadTape([join('backtest/data', sample)]);
    const dir = mkdtempSync(join(tmpdir(), 'ls-tape-'));
    const { tape, built } = await openTape([join('backtest/data', sample)], { dir, chunkItems: 1_000 });
    expect(built).toBe('new');
    expect(tape.footer.chunks.length).toBeGreaterThan(3);
    expect(await allItems(tape)).toEqual(json.items);
    const f = tape.footer;
    expect({
      files: f.files,
      meta: f.meta,
      stats: f.stats,
      problems: f.problems,
      complete: f.complete,
      late: f.late,
      count: f.count,
    }).toEqual({
      files: json.files,
      meta: json.meta,
      stats: json.stats,
      problems: json.problems,
      complete: json.complete,
      late: json.late,
      count: json.items.length,
    });
  });

  it('takes the recording account’s own listings out, as the JSON path does', async () => {
    // A user-feed record naming a resting order of the book makes it one of ours.
    const dir = mkdtempSync(join(tmpdir(), 'ls-tape-'));
    const file = join(dir, 'feed-own.jsonl.gz');
    const lines = gunzipSync(readFileSync('backtest/data/paper-seed13-deep/feed-20260116T121311585Z-000002.jsonl.gz'))
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '');
    const order = lines.map((l) => /"sideOrders":\[\{"id":"([0-9a-f]+)"/.exec(l)?.[1]).find((id) => id !== undefined)!;
    const t = (JSON.parse(lines[1]!) as { t: number }).t;
    lines.splice(1, 0, JSON.stringify({ t, k: 'user', c: 1, d: { matched: { orderID: order } } }));
    writeFileSync(file, gzipSync(lines.join('\n') + '\n'));
    const json = await loadTape([file]);
    expect(json.stats.ownListingsRemoved).toBeGreaterThan(0);
    const { tape } = await openTape([file], { chunkItems: 200 });
    expect(tape.footer.stats).toEqual(json.stats);
    expect(await allItems(tape)).toEqual(json.items);
  });

  it('is built on the first replay and reused after', async () => {
    const rec = copyOf('paper-seed13-deep');
    const first = await openTape([rec]);
    expect(first.built).toBe('new');
    expect(first.path.startsWith(join(rec, TAPE_DIR_NAME))).toBe(true);
    const again = await openTape([rec]);
    expect(again.built).toBeNull();
    expect(again.path).toBe(first.path);
  });

  it('reads files named against their time order in time order, and reuses that tape', async () => {
    const rec = copyOf('paper-seed13-deep');
    const names = readdirSync(rec)
      .filter((n) => n.endsWith('.jsonl.gz'))
      .sort();
    expect(names.length).toBeGreaterThan(1);
    // Listed by path, the last file now comes first: only its meta record puts it last.
    renameSync(join(rec, names.at(-1)!), join(rec, `0-${names.at(-1)!}`));
    const json = await loadTape([rec]);
    const first = await openTape([rec]);
    expect(first.built).toBe('new');
    expect(first.tape.footer.late).toBeNull();
    expect(await allItems(first.tape)).toEqual(json.items);
    const again = await openTape([rec]);
    expect(again.built).toBeNull();
    expect(again.path).toBe(first.path);
    expect(await allItems(again.tape)).toEqual(json.items);
  });

  it('is built again when the recording changes', async () => {
    const rec = copyOf('paper-seed13-deep');
    const first = await openTape([rec]);
    const file = join(
      rec,
      readdirSync(rec)
        .filter((n) => n.endsWith('.jsonl.gz'))
        .sort()[1]!,
    );
    const lines = gunzipSync(readFileSync(file))
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '');
    // The last price frame goes: one item fewer.
    const last = lines.findLastIndex((l) => l.includes('"k":"price"'));
    lines.splice(last, 1);
    writeFileSync(file, gzipSync(lines.join('\n') + '\n'));
    const changed = await openTape([rec]);
    expect(changed.built).toBe('new');
    expect(changed.path).not.toBe(first.path);
    expect(changed.tape.footer.count).toBe(first.tape.footer.count - 1);
    expect(await allItems(changed.tape)).toEqual((await loadTape([rec])).items);
  });

  it('is built again when its format version is not this one', async () => {
    const rec = copyOf('paper-seed13-deep');
    const first = await openTape([rec]);
    const bytes = readFileSync(first.path);
    bytes.writeUInt32LE(99, 8);
    writeFileSync(first.path, bytes);
    await expect(TapeFile.open(first.path)).rejects.toMatchObject({ reason: 'version' });
    const again = await openTape([rec]);
    expect(again.built).toBe('version');
    expect(await allItems(again.tape)).toEqual((await loadTape([rec])).items);
  });

  it('detects a damaged tape by its checksum, never replays it, and builds it again', async () => {
    const rec = copyOf('paper-seed13-deep');
    const first = await openTape([rec], { chunkItems: 500 });
    const chunk = first.tape.footer.chunks[2]!;
    const bytes = readFileSync(first.path);
    // One number in the middle of the third chunk: the tape still decodes, into other values.
    bytes[chunk.offset + 40] = bytes[chunk.offset + 40]! ^ 0x10;
    writeFileSync(first.path, bytes);
    const damaged = await TapeFile.open(first.path);
    await expect(damaged.verify()).rejects.toBeInstanceOf(TapeFileError);
    await expect(allItems(damaged)).rejects.toThrow(/chunk 3 of \d+ does not match its checksum/);
    const again = await openTape([rec], { chunkItems: 500 });
    expect(again.built).toBe('corrupt');
    expect(again.path).toBe(first.path);
    expect(await allItems(again.tape)).toEqual((await loadTape([rec])).items);
  });

  it('checks every chunk again as it is read when the file changed after it was verified', async () => {
    const rec = copyOf('paper-seed13-deep');
    const { tape, path } = await openTape([rec], { chunkItems: 1_000 });
    await tape.verify();
    expect((await allItems(tape)).length).toBe(tape.footer.count);
    // One byte of the third chunk's numbers changed in place: same file, same size.
    const c = tape.footer.chunks[2]!;
    const fd = openSync(path, 'r+');
    const at = c.offset + 40;
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, at);
    b[0] = b[0]! ^ 0xff;
    writeSync(fd, b, 0, 1, at);
    closeSync(fd);
    await expect(allItems(tape)).rejects.toMatchObject({ reason: 'corrupt' });
  });

  it('is rebuilt when cut short', async () => {
    const rec = copyOf('paper-seed13-deep');
    const first = await openTape([rec]);
    writeFileSync(first.path, readFileSync(first.path).subarray(0, 5_000));
    expect((await openTape([rec])).built).toBe('corrupt');
  });

  it('is read with at most two chunks held, however long the recording', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-tape-'));
    const { tape } = await openTape(['backtest/data/paper-seed7'], { dir, chunkItems: 64 });
    expect(tape.footer.chunks.length).toBeGreaterThan(400);
    const gauge: ChunkGauge = { alive: 0, maxAlive: 0 };
    let n = 0;
    for await (const c of tape.chunks(gauge)) n += c.length;
    expect(n).toBe(tape.footer.count);
    expect(gauge.maxAlive).toBeLessThanOrEqual(2);
  });

  it('decodes a chunk a batch at a time, so a replay never holds a whole chunk of items', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-tape-'));
    const { tape } = await openTape(['backtest/data/paper-seed7'], { dir, chunkItems: 4_096 });
    expect(Math.max(...tape.footer.chunks.map((c) => c.count))).toBeGreaterThan(READ_BATCH_ITEMS);
    const batches: number[] = [];
    const items: TapeItem[] = [];
    for await (const c of tape.chunks()) {
      batches.push(c.length);
      items.push(...c);
    }
    expect(Math.max(...batches)).toBeLessThanOrEqual(READ_BATCH_ITEMS);
    expect(items).toEqual((await loadTape(['backtest/data/paper-seed7'])).items);
  });

  it('replays to the golden report, byte for byte, streamed from the tape file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-tape-'));
    const { tape } = await openTape(['backtest/data/paper-seed13-deep'], { dir, chunkItems: 700 });
    const config = await loadConfig('test/backtest/golden/fixed-spread.yaml', {
      resolveStrategy: defaultStrategyResolver(strategies),
    });
    const json = reportJson(await runBacktest({ config, tape, logger: silentLogger() }));
    const pinned = JSON.parse(readFileSync('test/backtest/golden/paper-seed13-deep--fixed-spread.json', 'utf8')) as {
      sha256: string;
    };
    expect(createHash('sha256').update(json).digest('hex')).toBe(pinned.sha256);
  });

  it('feeds sweep workers from the tape file, each variant streaming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-tape-'));
    const { tape } = await openTape(['backtest/data/paper-seed13-deep'], { dir, chunkItems: 700 });
    const configPath = 'test/backtest/golden/fixed-spread.yaml';
    const [out] = await runSweep(tape, sweepRuns(readFileSync(configPath, 'utf8'), [{}]), configPath, { workers: 1 });
    expect(out!.error).toBeNull();
    const pinned = JSON.parse(readFileSync('test/backtest/golden/paper-seed13-deep--fixed-spread.json', 'utf8')) as {
      sha256: string;
    };
    expect(createHash('sha256').update(reportJson(out!.result!)).digest('hex')).toBe(pinned.sha256);
  });

  it('linesmith tape build builds the tape, then says it is reused', async () => {
    const rec = copyOf('paper-seed13-deep');
    const first = await linesmith(['tape', 'build', '--feed', rec], { timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^tape built \(first replay of this recording\) in [\d.]+ s, 5,940 events at [\d,]+\/s/,
    );
    expect(first.stdout).toContain(tapePathIn(rec));
    const again = await linesmith(['tape', 'build', '--feed', rec], { timeoutMs: 120_000 });
    expect(again.stdout).toMatch(/^tape reused \(checked in [\d.]+ s/);
  }, 240_000);
});
