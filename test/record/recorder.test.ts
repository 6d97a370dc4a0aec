import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { FeedRecorder, type FeedRecorderOptions } from '../../src/record/feed-recorder.ts';
import type {
  GapRecord,
  RecordingRecord,
  ResultRecord,
  SnapshotDoneRecord,
  SnapshotRecord,
} from '../../src/record/format.ts';
import { subscriptionOf } from '../../src/record/selection.ts';
import { ManualClock, type Clock } from '../../src/shared/clock.ts';
import { FakeSource, readAll, records, tempDir, wireGame } from './support.ts';

async function started(
  options: Partial<FeedRecorderOptions> = {},
  clock: Clock = new ManualClock(Date.UTC(2026, 2, 1, 12)),
) {
  const source = new FakeSource();
  const dir = await tempDir('unit');
  const recorder = new FeedRecorder({
    source,
    dir,
    venue: { kind: 'live' },
    clock,
    scheduler: asyncScheduler,
    flushIntervalMs: 0,
    ...options,
  });
  await recorder.start();
  return { source, dir, recorder };
}

async function stopAndRead(recorder: FeedRecorder, dir: string): Promise<RecordingRecord[]> {
  await recorder.idle();
  await recorder.stop('test');
  return records(await readAll([dir]));
}

const gameUpdate = (game: Record<string, unknown>, messageType = 'marketClosed') =>
  JSON.stringify(['gameUpdate', { ...game, messageType }]);

describe('FeedRecorder: what it writes', () => {
  it('narrows the price feed to the interests, starts both feeds, and snapshots every scope once the feed is open', async () => {
    const subscription = subscriptionOf([
      { leagues: ['NBA', 'nba'], sports: [], gameIDs: [], marketTypes: [] },
      { leagues: ['EPL'], sports: ['hockey'], gameIDs: ['g9'], marketTypes: ['moneyline'] },
    ]);
    expect(subscription).toEqual({ all: false, leagues: ['NBA', 'EPL'], sports: ['hockey'], gameIds: ['g9'] });
    const { source, dir, recorder } = await started({ subscription });
    expect(source.subscribed).toEqual([
      { selection: { leagueIDs: ['NBA', 'EPL'], sportIDs: ['hockey'], gameIDs: ['g9'] }, replace: true },
    ]);
    expect(source.started).toBe(2);
    expect(source.orderbookCalls).toEqual([]);
    source.orderbook = async (f) =>
      'gameID' in f
        ? [wireGame('g9')]
        : f.league === 'all'
          ? [wireGame('h1', { sport: 'hockey' }), wireGame('b1'), wireGame('g9')]
          : f.league === 'NBA'
            ? [wireGame('b1')]
            : [];
    source.price.open();
    const all = await stopAndRead(recorder, dir);
    expect(source.orderbookCalls).toEqual([{ league: 'NBA' }, { league: 'EPL' }, { league: 'all' }, { gameID: 'g9' }]);
    const snaps = all.filter((r): r is SnapshotRecord => r.k === 'snapshot');
    // The sports read keeps hockey only (g9 is basketball); a game met twice in one batch is written once.
    expect(snaps.map((s) => [(s.d.game as { id: string }).id, s.d.scope])).toEqual([
      ['b1', { league: 'NBA' }],
      ['h1', { league: 'all', sports: ['hockey'] }],
      ['g9', { gameID: 'g9' }],
    ]);
    expect(all.find((r) => r.k === 'snapshotDone')).toMatchObject({
      d: { batch: 1, reason: 'start', games: ['b1', 'h1', 'g9'], failed: [] },
    });
  });

  it('records everything without narrowing when one interest is unrestricted', async () => {
    const subscription = subscriptionOf([
      { leagues: ['NBA'], sports: [], gameIDs: [], marketTypes: [] },
      { leagues: [], sports: [], gameIDs: [], marketTypes: ['total'] },
    ]);
    expect(subscription.all).toBe(true);
    const { source, dir, recorder } = await started({ subscription });
    expect(source.subscribed).toEqual([]);
    source.price.open();
    await stopAndRead(recorder, dir);
    expect(source.orderbookCalls).toEqual([{ league: 'all' }]);
  });

  it('embeds JSON frames verbatim, re-serialises multi-line JSON, and keeps a non-JSON frame as raw text', async () => {
    const { source, dir, recorder } = await started();
    source.price.open();
    source.userSocket.open();
    source.price.frames.next('["orderUpdate",{"epoch":1,"odds":1.10}]');
    source.price.frames.next('["matchedVolumeUpdate",\n {"matchedVolume": 5}]');
    source.price.frames.next('["orderUpdate",{"epo');
    source.userSocket.frames.next('{"messageID":"1-1","matched":null}');
    await recorder.idle();
    const summary = await recorder.stop('test');
    const text = gunzipSync(await readFile(summary.files[0]!)).toString('utf8');
    expect(text).toContain('"k":"price","c":1,"d":["orderUpdate",{"epoch":1,"odds":1.10}]}\n');
    expect(
      text
        .split('\n')
        .filter((l) => l.length > 0)
        .every((l) => JSON.parse(l) !== null),
    ).toBe(true);
    const frames = records(await readAll([dir])).filter((r) => r.k === 'price' || r.k === 'user');
    expect(frames).toEqual([
      { t: expect.any(Number), k: 'price', c: 1, d: ['orderUpdate', { epoch: 1, odds: 1.1 }] },
      { t: expect.any(Number), k: 'price', c: 1, d: ['matchedVolumeUpdate', { matchedVolume: 5 }] },
      { t: expect.any(Number), k: 'price', c: 1, raw: '["orderUpdate",{"epo' },
      { t: expect.any(Number), k: 'user', c: 1, d: { messageID: '1-1', matched: null } },
    ]);
    expect(summary.rawFrames).toEqual({ price: 1, user: 0 });
    expect(summary.frames).toEqual({ price: 3, user: 1 });
  });

  it('writes a result once per score, reading an ended game back over REST when the feed has no score', async () => {
    const { source, dir, recorder } = await started();
    source.orderbook = async (f) =>
      'gameID' in f && f.gameID === 'g2' ? [wireGame('g2', { ended: true }, { away: 1, home: 4 })] : [];
    source.price.open();
    await recorder.idle();
    source.price.frames.next(gameUpdate(wireGame('g1', { ended: true }, { away: 90, home: 88 })));
    source.price.frames.next(gameUpdate(wireGame('g1', { ended: true }, { away: 90, home: 88 })));
    // A regrade with another score is a new result.
    source.price.frames.next(gameUpdate(wireGame('g1', { ended: true }, { away: 91, home: 88 })));
    source.price.frames.next(gameUpdate(wireGame('g2', { ended: true })));
    source.price.frames.next(gameUpdate(wireGame('g2', { ended: true })));
    source.price.frames.next(gameUpdate(wireGame('g3', { ended: false }, { away: 1, home: 0 }), 'marketOpen'));
    const all = await stopAndRead(recorder, dir);
    const results = all
      .filter((r): r is ResultRecord => r.k === 'result')
      .map((r) => [r.d.gameID, r.d.away.score, r.d.home.score, r.d.via]);
    expect(results).toEqual([
      ['g1', 90, 88, 'feed'],
      ['g1', 91, 88, 'feed'],
      ['g2', 1, 4, 'rest'],
    ]);
    expect(source.orderbookCalls.filter((f) => 'gameID' in f)).toEqual([{ gameID: 'g2' }]);
    const g1 = all.find((r): r is ResultRecord => r.k === 'result')!;
    expect(g1.d).toEqual({
      gameID: 'g1',
      league: 'NBA',
      sport: 'basketball',
      away: { id: 'g1-a', name: 'Away Team', score: 90 },
      home: { id: 'g1-h', name: 'Home Team', score: 88 },
      via: 'feed',
    });
  });

  it('notes failed snapshot reads in snapshotDone, and runs a batch asked for during another after it', async () => {
    const { source, dir, recorder } = await started({
      subscription: { all: false, leagues: ['NBA', 'NHL'], sports: [], gameIds: [] },
      feeds: ['price'],
    });
    const gate: (() => void)[] = [];
    source.orderbook = (f) => {
      if ('league' in f && f.league === 'NHL') return Promise.reject(new Error('503 from the exchange'));
      return new Promise((resolve) => gate.push(() => resolve([wireGame('b1')])));
    };
    source.price.open();
    source.price.drop();
    source.price.open();
    source.price.drop();
    source.price.open();
    // The first batch is still waiting: the reopens are folded into one batch after it.
    expect(source.orderbookCalls.length).toBe(2);
    gate.shift()!();
    await new Promise((r) => setImmediate(r));
    expect(source.orderbookCalls.length).toBe(4);
    gate.shift()!();
    const all = await stopAndRead(recorder, dir);
    const done = all.filter((r): r is SnapshotDoneRecord => r.k === 'snapshotDone');
    expect(done.map((d) => [d.d.batch, d.d.reason, d.d.games, d.d.failed])).toEqual([
      [1, 'start', ['b1'], [{ scope: { league: 'NHL' }, error: '503 from the exchange' }]],
      [2, 'reconnect', ['b1'], [{ scope: { league: 'NHL' }, error: '503 from the exchange' }]],
    ]);
    expect(all.filter((r) => r.k === 'gap').map((r) => (r as GapRecord).d.connection)).toEqual([2, 3]);
  });

  it('closes a gap still open at the end as not resumed, and flattens a clock that steps back', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
    let offset = 0;
    const stepping: Clock = { now: () => clock.now() - offset };
    const { source, dir, recorder } = await started({ feeds: ['price', 'user'] }, stepping);
    source.price.open();
    source.userSocket.open();
    await recorder.idle();
    clock.advance(1_000);
    source.price.frames.next('[1]');
    offset = 5_000; // the wall clock is stepped back five seconds
    source.price.frames.next('[2]');
    clock.advance(6_000);
    source.price.frames.next('[3]');
    source.userSocket.drop('user: connection closed (code 1006)');
    const downAt = stepping.now();
    clock.advance(2_000);
    const all = await stopAndRead(recorder, dir);
    const ts = all.filter((r) => r.k === 'price').map((r) => r.t);
    const base = Date.UTC(2026, 2, 1, 12);
    expect(ts).toEqual([base + 1_000, base + 1_000, base + 2_000]);
    const gap = all.find((r): r is GapRecord => r.k === 'gap');
    expect(gap?.d).toEqual({
      feed: 'user',
      from: downAt,
      to: downAt + 2_000,
      connection: 1,
      resumed: false,
      reason: 'user: connection closed (code 1006)',
    });
    expect(all.at(-1)?.k).toBe('end');
  });

  it('never overwrites an existing file: the write failure is reported and the recording marked broken', async () => {
    const source = new FakeSource();
    const dir = await tempDir('exists');
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
    const existing = join(dir, 'feed-20260301T120000000Z-000001.jsonl.gz');
    await writeFile(existing, "someone else's recording");
    const errors: Error[] = [];
    const recorder = new FeedRecorder({
      source,
      dir,
      venue: { kind: 'live' },
      clock,
      scheduler: asyncScheduler,
      flushIntervalMs: 0,
      onError: (e) => errors.push(e),
    });
    await recorder.start();
    source.price.open();
    source.price.frames.next('[1]');
    const summary = await recorder.stop('test');
    expect(await readFile(existing, 'utf8')).toBe("someone else's recording");
    expect(errors).toHaveLength(1);
    expect(summary.error).toBe(errors[0]);
    expect((summary.error as NodeJS.ErrnoException).code).toBe('EEXIST');
  });
});
