import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { OwnBook, isLive } from '../../src/orders/own-book.ts';
import type { Position } from '../../src/money/position.ts';
import { positionArb, selectionArb } from '../support/money-arbitraries.ts';
import { expectSame, referenceWorstCaseScore } from '../money/liability-reference.ts';
import { STATUSES, applier } from './support.ts';

/**
 * The own book keeps each game's fills merged, and its fills plus live orders merged, for
 * the worst-case search, and lends search regions between calls. Every figure must be the
 * reference search of the positions as they stand, to the bit, whatever changed since the
 * last call: orders, fills, settlement, the commission rate, extras and exclusions.
 */

const GAMES = ['g0', 'g1'];

const op = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    game: fc.nat({ max: 1 }),
    sel: fc.nat({ max: 5 }),
    odds: positionArb.map((p) => p.odds),
    bet: fc.integer({ min: 1, max: 500 }),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    pick: fc.nat(),
    status: fc.nat({ max: STATUSES.length - 1 }),
    frac: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('fill' as const),
    game: fc.nat({ max: 1 }),
    sel: fc.nat({ max: 5 }),
    odds: positionArb.map((p) => p.odds),
    amount: fc.integer({ min: 1, max: 300 }),
    taker: fc.boolean(),
    postArb: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('settle' as const), game: fc.nat({ max: 1 }) }),
  fc.record({ kind: fc.constant('rate' as const), rate: fc.constantFrom(0, 0.01, 0.02) }),
);

describe('OwnBook worst-case figures', () => {
  test.prop(
    [
      fc.array(selectionArb, { minLength: 6, maxLength: 6 }),
      fc.array(op, { maxLength: 50 }),
      fc.array(positionArb, { maxLength: 3 }),
      fc.boolean(),
    ],
    { numRuns: 300 },
  )('equal the reference search after every change', (sels, ops, extraArbs, rateChanges) => {
    let rate = 0.01;
    const book = new OwnBook({ commissionRate: () => rate });
    // Games g0 and g1 (GAMES), as the applier names them.
    const apply = applier(book, sels);
    for (const o of ops) {
      if (o.kind !== 'rate') apply(o);
      else if (rateChanges) rate = o.rate;
      // The live orders the figures start from are the current records, and all of them.
      const live = new Set(book.liveOrders());
      for (const o of book.allOrders()) expect(live.has(o)).toBe(isLive(o));
      for (const gameID of GAMES) {
        const matched = book.positions(gameID);
        expectSame(
          book.positionsLiability(gameID),
          matched.length === 0 ? 0 : referenceWorstCaseScore(matched).liability,
          `${gameID} positionsLiability`,
        );
        const live = book.liveOrders(gameID).filter((x) => x.remaining > 1e-9);
        const contingent = live.map((x): Position => ({
          selection: x.selection,
          amount: x.remaining,
          odds: x.odds,
          commissionRate: 0,
          contingent: true,
        }));
        const base: Position[] = book.isSettled(gameID) ? [] : [...matched];
        const extras = extraArbs.map((p) => ({ ...p, contingent: true }));
        // Without extras the figure is the game's cached one, which (as before these caches) does not follow a rate change.
        if (extras.length > 0 || !rateChanges)
          expectSame(
            book.projectedLiability(gameID, extras),
            referenceWorstCaseScore([...base, ...contingent, ...extras]).liability,
            `${gameID} projectedLiability`,
          );
      }
    }
  });
});
