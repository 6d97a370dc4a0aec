import { fc } from '@fast-check/vitest';
import type { Selection } from '../../src/markets/types.ts';
import type { Position } from '../../src/money/position.ts';

const team = fc.constantFrom<'home' | 'away'>('home', 'away');

/** Quarter-step lines: mostly near the origin so that lines interact, some over the full range. */
const quarterLine = (min: number, max: number, nearMin: number, nearMax: number): fc.Arbitrary<number> =>
  fc
    .oneof(
      { arbitrary: fc.integer({ min: nearMin * 4, max: nearMax * 4 }), weight: 3 },
      { arbitrary: fc.integer({ min: min * 4, max: max * 4 }), weight: 1 },
    )
    .map((q) => q / 4 + 0);

// spreads in −10..10, totals in 0..20
export const selectionArb: fc.Arbitrary<Selection> = fc.oneof(
  team.map((t): Selection => ({ type: 'moneyline', team: t })),
  fc.tuple(team, quarterLine(-10, 10, -3, 3)).map(([t, line]): Selection => ({ type: 'spread', team: t, line })),
  fc
    .tuple(fc.constantFrom<'over' | 'under'>('over', 'under'), quarterLine(0, 20, 0, 5))
    .map(([ou, line]): Selection => ({ type: 'total', ou, line })),
  fc
    .tuple(fc.constantFrom<'home' | 'away' | 'draw'>('home', 'away', 'draw'), fc.boolean())
    .map(([outcome, yes]): Selection => ({ type: 'moneyline1x2', outcome, yes })),
);

export const oddsArb = fc.oneof(fc.integer({ min: 100, max: 1000 }), fc.integer({ min: -1000, max: -100 }));

export const positionArb: fc.Arbitrary<Position> = fc.record({
  selection: selectionArb,
  amount: fc.integer({ min: 1, max: 100_000 }).map((c) => c / 100),
  odds: oddsArb,
  commissionRate: fc.constantFrom(0, 0.01, 0.02),
  contingent: fc.boolean(),
});
