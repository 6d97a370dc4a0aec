import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { FeedRecorder } from '../../src/record/feed-recorder.ts';
import type { FrameRecord, MetaRecord, SnapshotDoneRecord } from '../../src/record/format.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { FakeSource, readAll, records, tempDir, wireGame } from './support.ts';

function frame(i: number): string {
  return JSON.stringify([
    'orderUpdate',
    { epoch: i, gameID: 'g1', sideOrders: [{ id: `order-${i}`, odds: 110, note: 'x'.repeat(150) }] },
  ]);
}

describe('FeedRecorder: file rotation', () => {
  it('starts a new file once the current one holds maxFileBytes, each file self-describing, nothing lost or repeated', async () => {
    const dir = await tempDir('size');
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 10));
    const source = new FakeSource();
    const maxFileBytes = 2048;
    const recorder = new FeedRecorder({
      source,
      dir,
      venue: { kind: 'live', host: 'stream.example' },
      clock,
      scheduler: asyncScheduler,
      maxFileBytes,
      feeds: ['price'],
      prefix: 'rot',
      flushIntervalMs: 0,
    });
    await recorder.start();
    source.price.open();
    await recorder.idle();
    const sent: string[] = [];
    for (let i = 0; i < 60; i++) {
      clock.advance(7);
      const f = frame(i);
      sent.push(f);
      source.price.frames.next(f);
    }
    const summary = await recorder.stop('done');

    expect(summary.files.length).toBeGreaterThanOrEqual(5);
    // Names sort in the order the files were written.
    const onDisk = (await readdir(dir)).sort();
    expect(onDisk).toEqual(summary.files.map((f) => basename(f)));
    expect(onDisk.every((n) => /^rot-\d{8}T\d{9}Z-\d{6}\.jsonl\.gz$/.test(n))).toBe(true);
    const longest = Math.max(...sent.map((f) => f.length)) + 40;
    for (const [i, name] of onDisk.entries()) {
      const text = gunzipSync(await readFile(join(dir, name))).toString('utf8');
      // A file ends at the first record that takes it to maxFileBytes or past it.
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(maxFileBytes + longest);
      if (i < onDisk.length - 1) expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(maxFileBytes);
      const first = JSON.parse(text.slice(0, text.indexOf('\n'))) as MetaRecord;
      expect(first).toMatchObject({
        k: 'meta',
        d: { part: i + 1, session: recorder.session, rotation: { maxFileBytes, utcDay: true } },
      });
    }
    const entries = await readAll([dir]);
    const frames = records(entries).filter((r): r is FrameRecord => r.k === 'price');
    expect(frames.map((r) => JSON.stringify(r.d))).toEqual(sent);
    // Line numbers start again in every file.
    expect(entries.filter((e) => e.line === 1).length).toBe(onDisk.length);
    expect(summary.bytes).toBe(
      Buffer.concat(await Promise.all(onDisk.map(async (n) => gunzipSync(await readFile(join(dir, n)))))).length,
    );
  });

  it('starts a new file at the UTC day change, with a fresh snapshot batch in it', async () => {
    const dir = await tempDir('day');
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 23, 59, 59));
    const source = new FakeSource();
    source.orderbook = async () => [wireGame('g1')];
    const recorder = new FeedRecorder({
      source,
      dir,
      venue: { kind: 'live' },
      clock,
      scheduler: asyncScheduler,
      feeds: ['price'],
      flushIntervalMs: 0,
    });
    await recorder.start();
    source.price.open();
    await recorder.idle();
    source.price.frames.next(frame(1));
    clock.advance(1_500);
    source.price.frames.next(frame(2));
    await recorder.idle();
    const summary = await recorder.stop('done');

    expect(summary.files.map((f) => basename(f))).toEqual([
      'feed-20260301T235959000Z-000001.jsonl.gz',
      'feed-20260302T000000500Z-000002.jsonl.gz',
    ]);
    const entries = await readAll([dir]);
    const second = records(entries.filter((e) => e.file === summary.files[1]));
    expect(second.map((r) => r.k)).toEqual(['meta', 'price', 'snapshot', 'snapshotDone', 'end']);
    expect((second[3] as SnapshotDoneRecord).d).toMatchObject({ batch: 2, reason: 'day', games: ['g1'] });
  });
});
