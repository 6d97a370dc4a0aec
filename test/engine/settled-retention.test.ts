/**
 * The engine forgets an ended game, its bets and their grade versions once its last
 * settlement is older than `settledGameRetentionMs`, so a long run holds a bounded
 * history; everything younger reads exactly as before.
 */
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { createIdGenerator } from '../../src/engine/ids.ts';
import { ManualClock } from '../../src/shared/clock.ts';

const T0 = Date.UTC(2026, 4, 5, 16, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const hex = (n: number) => n.toString(16).padStart(24, '0');

function engineWith(retentionMs?: number) {
  const clock = new ManualClock(T0);
  const engine = new MatchingEngine({
    clock,
    ids: createIdGenerator(5),
    ...(retentionMs !== undefined ? { settledGameRetentionMs: retentionMs } : {}),
  });
  for (const id of ['maker', 'taker'])
    expect(engine.addUser({ id, balance: 10_000_000, commissionRate: 0.01 }).ok).toBe(true);
  return { clock, engine };
}

/** A game with `fills` matched bets per user, settled now. */
function playGame(engine: MatchingEngine, n: number, fills: number): string {
  const id = hex(0xa000 + n);
  const away = hex(0xb000 + 2 * n);
  const home = hex(0xb001 + 2 * n);
  const added = engine.addGame({
    id,
    league: 'NBA',
    sport: 'basketball',
    participants: [
      { id: away, longName: 'A', shortName: 'A' },
      { id: home, longName: 'H', shortName: 'H' },
    ],
    start: engine.now() + HOUR,
  });
  expect(added.ok).toBe(true);
  for (let i = 0; i < fills; i++) {
    const [made] = engine.place('maker', [
      { gameID: id, type: 'moneyline', side: home, odds: -110, bet: 110, userReference: `r${n}-${i}` },
    ]);
    expect(made?.status).toBe('ok');
    const [took] = engine.place('taker', [{ gameID: id, type: 'moneyline', side: away, odds: 110, bet: 100 }]);
    expect(took?.status === 'ok' && took.matched.length).toBe(1);
  }
  expect(engine.settleGame(id, { away: 100 + (n % 3), home: 101 }).ok).toBe(true);
  return id;
}

describe('settled game retention', () => {
  it('holds at most the games, bets and grades of the retention window after many graded games', () => {
    const { clock, engine } = engineWith(2 * HOUR);
    const ids: string[] = [];
    // 60 games over 10 hours, one settled every 10 minutes.
    for (let n = 0; n < 60; n++) {
      ids.push(playGame(engine, n, 3));
      clock.advance(10 * MIN);
      engine.advance();
    }
    // Settled within the last two hours: the last 12 (the oldest of them exactly at the edge is gone).
    const kept = ids.slice(-12);
    expect(
      engine
        .games()
        .map((g) => g.id)
        .sort(),
    ).toEqual(kept.slice(1).sort());
    const counts = engine.retainedCounts();
    expect(counts.games).toBe(11);
    expect(counts.fills).toBe(11 * 3);
    expect(engine.bets('maker').map((b) => b.gameID)).toEqual(kept.slice(1).flatMap((g) => [g, g, g]));
    expect(engine.bets('taker')).toHaveLength(33);
    const grades = engine.grades('maker');
    expect(grades).toHaveLength(33);
    expect(engine.gradesDropped('maker')).toBe(60 * 3 - 33);
    expect(new Set(grades.map((g) => g.gameID))).toEqual(new Set(kept.slice(1)));
    // What is kept reads as it did: every grade's bet is there, with its reference.
    const views = new Map(engine.bets('maker').map((b) => [b.id, b]));
    for (const g of grades) {
      expect(views.get(g.betId)?.grade).toEqual(g);
      expect(views.get(g.betId)?.userReference).toMatch(/^r\d+-\d$/);
    }
    // A forgotten game is gone for good: regrading it finds nothing.
    const regrade = engine.settleGame(ids[0]!, { away: 0, home: 1 });
    expect(regrade.ok || regrade.error.code).toBe('game_not_found');
  });

  it('keeps a regraded game for the retention after its latest settlement', () => {
    const { clock, engine } = engineWith(HOUR);
    const id = playGame(engine, 1, 2);
    clock.advance(50 * MIN);
    expect(engine.refundGame(id).ok).toBe(true);
    clock.advance(50 * MIN);
    engine.advance();
    // 100 min after the first grade, 50 after the refund: the game, its bets and the refund rows stay.
    expect(engine.game(id)?.ended).toBe(true);
    expect(engine.bets('maker')).toHaveLength(2);
    expect(engine.grades('maker').map((g) => g.outcome)).toEqual(['refunded', 'refunded']);
    expect(engine.gradesDropped('maker')).toBe(2);
    clock.advance(10 * MIN);
    engine.advance();
    expect(engine.game(id)).toBeUndefined();
    expect(engine.bets('maker')).toEqual([]);
    expect(engine.grades('maker')).toEqual([]);
  });

  it('still counts the commission of forgotten bets by day of settlement (affiliate commission reads it)', () => {
    const kept = engineWith();
    const pruned = engineWith(HOUR);
    for (let n = 0; n < 30; n++) {
      for (const { clock, engine } of [kept, pruned]) {
        playGame(engine, n, 2);
        if (n === 10) expect(engine.refundGame(hex(0xa000 + n)).ok).toBe(true);
        clock.advance(2 * HOUR);
        engine.advance();
      }
    }
    expect(pruned.engine.grades('taker').length).toBeLessThan(kept.engine.grades('taker').length);
    const day = Math.floor(T0 / 86_400_000) * 86_400_000;
    for (let d = -1; d < 4; d++) {
      const from = day + d * 86_400_000;
      const direct = kept.engine
        .bets('taker')
        .reduce(
          (sum, b) =>
            sum + (b.grade && b.grade.settledAt >= from && b.grade.settledAt < from + 86_400_000 ? b.grade.fee : 0),
          0,
        );
      expect(pruned.engine.feesSettled('taker', from, from + 86_400_000)).toBeCloseTo(direct, 9);
      expect(kept.engine.feesSettled('taker', from, from + 86_400_000)).toBeCloseTo(direct, 9);
    }
    expect(kept.engine.feesSettled('taker', day, day + 4 * 86_400_000)).toBeGreaterThan(0);
  });

  it('keeps everything by default', () => {
    const { clock, engine } = engineWith();
    for (let n = 0; n < 5; n++) {
      playGame(engine, n, 1);
      clock.advance(24 * HOUR);
    }
    engine.advance();
    expect(engine.games()).toHaveLength(5);
    expect(engine.grades('taker')).toHaveLength(5);
    expect(engine.gradesDropped('taker')).toBe(0);
  });
});
