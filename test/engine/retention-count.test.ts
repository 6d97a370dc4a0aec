/**
 * Count limits of the engine's retention: however many orders close or games settle
 * within the time windows, it keeps at most `closedOrderRetentionCount` closed orders and
 * `settledGameRetentionCount` ended games, the newest, so a sped-up run whose pace rises
 * still holds a bounded history.
 */
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { createIdGenerator } from '../../src/engine/ids.ts';
import { ManualClock } from '../../src/shared/clock.ts';

const T0 = Date.UTC(2026, 4, 5, 16, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const hex = (n: number) => n.toString(16).padStart(24, '0');

function engineWith(o: { closedCount?: number; settledCount?: number; onGameForgotten?: (id: string) => void }) {
  const clock = new ManualClock(T0);
  const engine = new MatchingEngine({
    clock,
    ...(o.onGameForgotten ? { onGameForgotten: o.onGameForgotten } : {}),
    ids: createIdGenerator(9),
    closedOrderRetentionMs: 15 * MIN,
    settledGameRetentionMs: 6 * HOUR,
    ...(o.closedCount !== undefined ? { closedOrderRetentionCount: o.closedCount } : {}),
    ...(o.settledCount !== undefined ? { settledGameRetentionCount: o.settledCount } : {}),
  });
  for (const id of ['maker', 'taker'])
    expect(engine.addUser({ id, balance: 100_000_000, commissionRate: 0.01 }).ok).toBe(true);
  return { clock, engine };
}

function addGame(engine: MatchingEngine, n: number): { id: string; home: string; away: string } {
  const id = hex(0xa000 + n);
  const away = hex(0xb000 + 2 * n);
  const home = hex(0xb001 + 2 * n);
  expect(
    engine.addGame({
      id,
      league: 'NBA',
      sport: 'basketball',
      participants: [
        { id: away, longName: 'A', shortName: 'A' },
        { id: home, longName: 'H', shortName: 'H' },
      ],
      start: engine.now() + 10 * HOUR,
    }).ok,
  ).toBe(true);
  return { id, home, away };
}

describe('engine retention by count', () => {
  it('keeps at most closedOrderRetentionCount closed orders however fast orders close', () => {
    const { clock, engine } = engineWith({ closedCount: 500 });
    const g = addGame(engine, 1);
    const placed: string[] = [];
    // 5,000 requotes in ten minutes: all within the 15-minute window.
    for (let i = 0; i < 5_000; i++) {
      const [r] = engine.place('maker', [{ gameID: g.id, type: 'moneyline', side: g.home, odds: -110, bet: 110 }]);
      if (r?.status !== 'ok' || !r.unmatched) throw new Error('place failed');
      placed.push(r.unmatched.orderID);
      expect(engine.cancel('maker', r.unmatched.orderID).success).toBe(true);
      clock.advance(120);
      engine.advance();
    }
    expect(engine.retainedCounts().orders).toBeLessThanOrEqual(501);
    // The newest stay readable, the oldest are forgotten.
    expect(engine.order(placed.at(-1)!)?.status).toBe('cancelled');
    expect(engine.order(placed[0]!)).toBeUndefined();
  });

  it('keeps at most settledGameRetentionCount ended games, the latest settled', () => {
    const { clock, engine } = engineWith({ settledCount: 10 });
    const ids: string[] = [];
    // 100 games settled within an hour: all inside the six-hour window.
    for (let n = 0; n < 100; n++) {
      const g = addGame(engine, n);
      expect(
        engine.place('maker', [{ gameID: g.id, type: 'moneyline', side: g.home, odds: -110, bet: 110 }])[0]?.status,
      ).toBe('ok');
      const [took] = engine.place('taker', [{ gameID: g.id, type: 'moneyline', side: g.away, odds: 110, bet: 100 }]);
      expect(took?.status === 'ok' && took.matched.length).toBe(1);
      expect(engine.settleGame(g.id, { away: 100, home: 101 }).ok).toBe(true);
      ids.push(g.id);
      clock.advance(30_000);
      engine.advance();
    }
    const counts = engine.retainedCounts();
    expect(counts.games).toBe(10);
    expect(counts.fills).toBe(10);
    expect(counts.gradeVersions).toBeLessThanOrEqual(20);
    expect(
      engine
        .games()
        .map((g) => g.id)
        .sort(),
    ).toEqual(ids.slice(-10).sort());
    expect(engine.grades('maker').map((g) => g.gameID)).toEqual(ids.slice(-10));
    expect(engine.gradesDropped('maker')).toBe(90);
  });

  it('names each game it forgets, once, as it forgets it', () => {
    const forgotten: string[] = [];
    const { clock, engine } = engineWith({ settledCount: 3, onGameForgotten: (id) => forgotten.push(id) });
    const ids = [0, 1, 2, 3, 4].map((n) => addGame(engine, n).id);
    for (const id of ids) {
      expect(engine.settleGame(id, { away: 1, home: 2 }).ok).toBe(true);
      clock.advance(MIN);
      engine.advance();
    }
    expect(forgotten).toEqual(ids.slice(0, 2));
    for (const id of forgotten) expect(engine.game(id)).toBeUndefined();
    // Past the six hours, the rest go too, each named once.
    clock.advance(7 * HOUR);
    engine.advance();
    expect(forgotten).toEqual(ids);
  });

  it('a regraded game counts once', () => {
    const { clock, engine } = engineWith({ settledCount: 3 });
    const ids = [0, 1, 2].map((n) => addGame(engine, n).id);
    for (const id of ids) expect(engine.settleGame(id, { away: 1, home: 2 }).ok).toBe(true);
    clock.advance(MIN);
    for (const id of ids) expect(engine.refundGame(id).ok).toBe(true);
    clock.advance(MIN);
    engine.advance();
    expect(engine.retainedCounts().games).toBe(3);
  });
});
