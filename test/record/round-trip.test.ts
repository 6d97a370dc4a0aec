import { afterEach, describe, expect, it } from 'vitest';
import type { FrameRecord, GapRecord, RecordingRecord, ResultRecord, SnapshotRecord } from '../../src/record/format.ts';
import { realTime } from '../../src/shared/time.ts';
import { until } from '../exchange/support-socket.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { readAll, recordSim, records, type SimRecording } from './support.ts';

let t: TestSim | undefined;
let rec: SimRecording | undefined;
afterEach(async () => {
  await rec?.stop();
  rec = undefined;
  await t?.close();
  t = undefined;
});

const payload = (r: FrameRecord): unknown => ('d' in r ? r.d : r.raw);

describe('FeedRecorder: a recording read back is what the client received', () => {
  it('records a simulator session over loopback: every frame in order, with snapshots, a result and monotonic times', async () => {
    // The synthetic market keeps the price feed busy; our own game gets an order and an end.
    // At 20x, not more: the simulator's socket liveness (a pong within 30 s) runs on its clock,
    // 1.5 wall seconds here; at 60x it is half a second, which a loaded machine misses, and the
    // drop adds a gap and a second snapshot to the recording.
    t = await startTestSim({ traders: true, time: realTime({ speed: 20 }) });
    const game = t.game();
    const [away, home] = game.participants;
    rec = await recordSim(t, 'rt');
    await until(() => rec!.recorder.stats.snapshots > 0, 5_000, 'the start snapshot');
    // A fresh user feed starts at its connection and replays nothing before it: the order must
    // come after the socket is open, or its message is never sent to this client.
    await until(() => rec!.client.userFeed.socket.isOpen, 5_000, 'the user feed open');
    const [placed] = await rec.client.rest.place([
      { gameID: game.id, type: 'moneyline', side: home.id, odds: -110, bet: 11, orderType: 'post' },
    ]);
    expect(placed?.status).toBe('accepted');
    await until(() => rec!.received.user.length > 0, 5_000, 'a user feed message');
    const settled = await t.http('POST', `/admin/games/${game.id}/result`, { body: { awayScore: 98, homeScore: 105 } });
    expect(settled.status).toBe(200);
    await until(
      () => rec!.recorder.stats.results > 0 && rec!.received.price.length > 100,
      8_000,
      'the result and a busy feed',
    );
    await rec.stop();

    const entries = await readAll([rec.dir]);
    const all = records(entries);
    expect(new Set(all.map((r) => r.k))).toEqual(
      new Set(['meta', 'snapshot', 'snapshotDone', 'price', 'user', 'result', 'end']),
    );
    expect(all[0]).toMatchObject({
      k: 'meta',
      d: {
        format: 'linesmith.feed-recording',
        version: 1,
        part: 1,
        feeds: ['price', 'user'],
        subscription: { all: true },
      },
    });
    expect(all.at(-1)).toMatchObject({
      k: 'end',
      d: {
        reason: 'test over',
        records: all.length,
        frames: { price: rec.received.price.length, user: rec.received.user.length },
      },
    });
    entries.forEach((e, i) => expect(e.line).toBe(i + 1));

    // Times never go back, per source and overall.
    for (const kind of ['price', 'user', 'snapshot', 'result'] as const) {
      const ts = all.filter((r) => r.k === kind).map((r) => r.t);
      expect(ts.length).toBeGreaterThan(0);
      expect(ts).toEqual([...ts].sort((a, b) => a - b));
    }
    expect(all.map((r) => r.t)).toEqual(all.map((r) => r.t).sort((a, b) => a - b));

    // Frame for frame, what the sockets delivered.
    const frames = (k: 'price' | 'user') => all.filter((r): r is FrameRecord => r.k === k);
    expect(frames('price').map(payload)).toEqual(rec.received.price.map((f) => JSON.parse(f)));
    expect(frames('user').map(payload)).toEqual(rec.received.user.map((f) => JSON.parse(f)));
    expect(frames('price').every((r) => r.c === 1)).toBe(true);

    const snapshots = all.filter((r): r is SnapshotRecord => r.k === 'snapshot');
    expect(snapshots.map((s) => (s.d.game as { id: string }).id)).toContain(game.id);
    expect(snapshots.every((s) => s.d.reason === 'start' && s.d.batch === 1 && s.d.req <= s.t)).toBe(true);
    const result = all.find((r): r is ResultRecord => r.k === 'result' && r.d.gameID === game.id);
    expect(result?.d).toEqual({
      gameID: game.id,
      league: 'NBA',
      sport: 'basketball',
      away: { id: away.id, name: away.longName, score: 98 },
      home: { id: home.id, name: home.longName, score: 105 },
      via: 'feed',
    });
    // The result follows the gameUpdate that announced the end.
    const ended = all.findIndex(
      (r) =>
        r.k === 'price' &&
        JSON.stringify(payload(r)).includes('"ended":true') &&
        JSON.stringify(payload(r)).includes(game.id),
    );
    expect(ended).toBeGreaterThan(-1);
    expect(all.indexOf(result!)).toBe(ended + 1);
  });

  it('writes a gap when the simulator drops the sockets, and snapshots again on the new connection', async () => {
    t = await startTestSim();
    const game = t.game();
    const other = await t.user('other');
    rec = await recordSim(t, 'gappy', { feeds: ['price'] });
    await until(() => rec!.recorder.stats.snapshots > 0, 5_000, 'the start snapshot');
    const place = (odds: number) =>
      t!.sim.context.engine.place(other.id, [
        { gameID: game.id, type: 'moneyline', side: game.participants[1].id, odds, bet: 20 },
      ]);
    place(-120);
    await until(() => rec!.received.price.length >= 1, 3_000, 'a frame on the first connection');

    await t.http('POST', '/admin/faults', { body: { dropSocketsEveryMs: 250 } });
    await until(() => rec!.recorder.stats.gaps >= 1, 5_000, 'a gap');
    await t.http('POST', '/admin/faults', { body: { dropSocketsEveryMs: 0 } });
    const framesBefore = rec.received.price.length;
    // After the reconnect a new order must show on the new connection.
    await until(
      () => rec!.client.priceFeed.socket.isOpen && rec!.recorder.stats.snapshots >= 2,
      5_000,
      'the reconnect snapshot',
    );
    place(-125);
    await until(() => rec!.received.price.length > framesBefore, 3_000, 'a frame after the reconnect');
    await rec.stop();

    const all = records(await readAll([rec.dir]));
    const gaps = all.filter((r): r is GapRecord => r.k === 'gap');
    expect(gaps.length).toBeGreaterThanOrEqual(1);
    gaps.forEach((g, i) => {
      expect(g.d).toMatchObject({ feed: 'price', connection: i + 2, resumed: true });
      expect(g.d.from).toBeLessThanOrEqual(g.d.to);
      expect(g.t).toBe(g.d.to);
      expect(g.d.reason).toMatch(/price: connection closed/);
    });
    // Frames carry the connection they came on: 1 before the first gap, the gap's connection after it.
    const firstGap = all.indexOf(gaps[0]!);
    const framesOf = (from: number, to: number) => all.slice(from, to).filter((r): r is FrameRecord => r.k === 'price');
    expect(framesOf(0, firstGap).length).toBeGreaterThan(0);
    expect(framesOf(0, firstGap).every((f) => f.c === 1)).toBe(true);
    const lastGap = gaps.at(-1)!;
    const after = framesOf(all.indexOf(lastGap), all.length);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((f) => f.c === lastGap.d.connection)).toBe(true);
    expect(lastGap.d.from).toBeGreaterThanOrEqual(framesOf(0, firstGap).at(-1)!.t);
    // Each reopen brings a fresh snapshot batch, after its gap.
    const reconnectBatches = all.filter(
      (r): r is Extract<RecordingRecord, { k: 'snapshotDone' }> => r.k === 'snapshotDone' && r.d.reason === 'reconnect',
    );
    expect(reconnectBatches.length).toBeGreaterThanOrEqual(1);
    expect(all.indexOf(reconnectBatches[0]!)).toBeGreaterThan(firstGap);
    expect(reconnectBatches.at(-1)!.d.games).toContain(game.id);
  });
});
