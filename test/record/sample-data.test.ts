import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FrameRecord, GapRecord, RecordingRecord, ResultRecord } from '../../src/record/format.ts';
import { RecordingReader } from '../../src/record/reader.ts';

const DATA = fileURLToPath(new URL('../../backtest/data', import.meta.url));

async function read(set: string): Promise<RecordingRecord[]> {
  const out: RecordingRecord[] = [];
  for await (const e of new RecordingReader([join(DATA, set)])) out.push(e.record);
  return out;
}

type OrderUpdate = ['orderUpdate', { league: string; live: boolean; type: string }];

/** The committed samples are what their README says, and readable by the current reader. */
describe('backtest/data sample recordings', () => {
  it('paper-seed7: five leagues, all four market types, pre-game and live, ends with results, closed cleanly', async () => {
    const all = await read('paper-seed7');
    expect(all.filter((r) => r.k === 'meta').map((r) => (r.k === 'meta' ? r.d.part : 0))).toEqual([1, 2, 3, 4, 5]);
    const updates = all
      .filter((r): r is FrameRecord => r.k === 'price' && Array.isArray(r.d) && r.d[0] === 'orderUpdate')
      .map((r) => (r.d as OrderUpdate)[1]);
    expect(new Set(updates.map((u) => u.league))).toEqual(new Set(['NBA', 'NFL', 'NHL', 'MLB', 'EPL']));
    expect(new Set(updates.map((u) => u.type))).toEqual(new Set(['moneyline', 'spread', 'total', 'moneyline1x2']));
    expect(new Set(updates.map((u) => u.live))).toEqual(new Set([false, true]));
    expect(new Set(all.filter((r): r is ResultRecord => r.k === 'result').map((r) => r.d.league))).toEqual(
      new Set(['NBA', 'NFL', 'NHL', 'MLB', 'EPL']),
    );
    expect(all.at(-1)).toMatchObject({ k: 'end', d: { reason: 'duration reached' } });
  });

  it('paper-seed11-drops: gaps each followed by a reconnect snapshot batch', async () => {
    const all = await read('paper-seed11-drops');
    const gaps = all.filter((r): r is GapRecord => r.k === 'gap');
    expect(gaps.map((g) => g.d.connection)).toEqual([2, 3, 4, 5]);
    for (const g of gaps) expect(all[all.indexOf(g) + 1]).toMatchObject({ k: 'snapshot', d: { reason: 'reconnect' } });
    expect(all.filter((r) => r.k === 'result').length).toBeGreaterThan(0);
  });

  it('paper-seed13-deep: stacked books (orders at one price behind each other), both games ended with results', async () => {
    const all = await read('paper-seed13-deep');
    const updates = all
      .filter((r): r is FrameRecord => r.k === 'price' && Array.isArray(r.d) && r.d[0] === 'orderUpdate')
      .map((r) => (r.d as [string, { league: string; sideOrders: { odds: number }[] }])[1]);
    expect(new Set(updates.map((u) => u.league))).toEqual(new Set(['NBA', 'EPL']));
    // A level of several orders is what makes the fill models part: 40 % of updates list one here, 18 % and 9 % in the other sets.
    const stacked = updates.filter((u) => new Set(u.sideOrders.map((o) => o.odds)).size < u.sideOrders.length).length;
    expect(stacked / updates.length).toBeGreaterThan(0.35);
    expect(all.filter((r) => r.k === 'result').length).toBe(2);
    expect(all.at(-1)).toMatchObject({ k: 'end', d: { reason: 'duration reached' } });
  });
});
