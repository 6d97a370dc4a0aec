import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import type { Selection } from '../../src/markets/types.ts';
import { restingPosition } from '../../src/money/liability.ts';
import type { Position } from '../../src/money/position.ts';
import { OwnBook, isLive } from '../../src/orders/own-book.ts';
import { STATUSES, applier, restingOrder } from '../market-model/support.ts';
import { expectSame, referenceWorstCaseScore } from '../money/liability-reference.ts';
import { oddsArb, selectionArb } from '../support/money-arbitraries.ts';

/**
 * The risk gate trusts `projectedLowerBound` in place of the exact worst case whenever it
 * clears a limit. The bound is kept between exact figures: deepened by every new order and
 * fill, and set to the exact figure the gate works out for orders about to be sent, which
 * those orders then do not deepen again. Whatever happens between (some of them sent, in
 * any order, or none; others placed, filled, cancelled, settled), it must stay at or below
 * the exact figure, and the exact figure must stay the reference search to the bit.
 */

const GAMES = ['g0', 'g1'];
const RATE = 0.01;

// Few terms, so that orders sent later often count exactly as orders the gate counted earlier.
const newOrderArb = fc.record({
  sel: fc.nat({ max: 2 }),
  odds: fc.oneof(fc.constantFrom(-110, 100, 150), oddsArb),
  bet: fc.oneof(
    fc.constantFrom(10, 50, 250),
    fc.integer({ min: 1, max: 40_000 }).map((c) => c / 100),
  ),
  taker: fc.boolean(),
});

const op = fc.oneof(
  // The gate works out the game with these orders added, then some of them are sent, in some order.
  fc.record({
    kind: fc.constant('send' as const),
    game: fc.nat({ max: 1 }),
    orders: fc.array(newOrderArb, { minLength: 1, maxLength: 4 }),
    sent: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    reversed: fc.boolean(),
    // Then an order of the same terms as the first sent one: the gate did not count that one.
    again: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('add' as const), game: fc.nat({ max: 1 }), order: newOrderArb }),
  fc.record({
    kind: fc.constant('update' as const),
    pick: fc.nat(),
    status: fc.nat({ max: STATUSES.length - 1 }),
    frac: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('fill' as const),
    game: fc.nat({ max: 1 }),
    sel: fc.nat({ max: 4 }),
    odds: oddsArb,
    amount: fc.integer({ min: 1, max: 300 }),
    taker: fc.boolean(),
    owner: fc.option(fc.nat(), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('await' as const), pick: fc.nat(), frac: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('exact' as const), game: fc.nat({ max: 1 }) }),
  fc.record({ kind: fc.constant('settle' as const), game: fc.nat({ max: 1 }) }),
);

/** The game's positions as the exchange checks a place: matched (unless settled), every live order and awaited fill where it loses. */
function reference(book: OwnBook, gameID: string): Position[] {
  const out: Position[] = book.isSettled(gameID) ? [] : [...book.positions(gameID)];
  for (const o of book.liveOrders(gameID))
    if (o.remaining > 1e-9)
      out.push(restingPosition(o.selection, o.remaining, o.odds, o.mayTake === true && o.orderID === null ? RATE : 0));
  for (const o of book.allOrders()) {
    const a = o.gameID === gameID ? book.awaitedFill(o.clientId) : 0;
    if (a > 0) out.push({ selection: o.selection, amount: a, odds: o.odds, commissionRate: 0, contingent: true });
  }
  return out;
}

describe('projected lower bound', () => {
  test.prop([fc.array(selectionArb, { minLength: 5, maxLength: 5 }), fc.array(op, { maxLength: 40 })], {
    numRuns: 400,
  })('stays at or below the exact worst case, which stays the reference search', (sels, ops) => {
    const book = new OwnBook({ commissionRate: () => RATE });
    // Games g0 and g1 (GAMES), as the applier names them.
    const apply = applier(book, sels);
    for (const o of ops) {
      if (o.kind === 'send') {
        const orders = o.orders.map((x) => apply.make({ game: o.game, ...x }));
        const extras = orders.map((x) =>
          restingPosition(x.selection, x.remaining, x.odds, x.mayTake === true ? RATE : 0),
        );
        const before = reference(book, `g${o.game}`);
        expectSame(
          book.projectedLiability(`g${o.game}`, extras),
          referenceWorstCaseScore([...before, ...extras]).liability,
          'with extras',
        );
        const sent = orders.filter((_, i) => o.sent[i]);
        for (const x of o.reversed ? sent.reverse() : sent) apply.add(x);
        if (o.again) apply.add(apply.make({ game: o.game, ...o.orders[0]! }));
      } else if (o.kind === 'add') {
        apply({ kind: 'add', game: o.game, ...o.order });
      } else if (o.kind === 'exact') {
        const g = `g${o.game}`;
        expectSame(book.projectedLiability(g), referenceWorstCaseScore(reference(book, g)).liability, 'exact');
      } else apply(o);
      for (const o of book.allOrders()) if (!isLive(o)) expect(book.liveOrders(o.gameID)).not.toContain(o);
      for (const g of GAMES) {
        const exact = referenceWorstCaseScore(reference(book, g)).liability;
        // The gate asks a bound to clear a limit by BOUND_MARGIN (1e-6): it may differ from the exact figure in the last bits only.
        expect(book.projectedLowerBound(g)).toBeLessThanOrEqual(exact + 1e-9);
      }
    }
    for (const g of GAMES)
      expectSame(book.projectedLiability(g), referenceWorstCaseScore(reference(book, g)).liability, 'at the end');
  });
});

describe('orders sent after the gate worked out their game', () => {
  const HOME: Selection = { type: 'moneyline', team: 'home' };
  const AWAY: Selection = { type: 'moneyline', team: 'away' };

  it('leave the bound at the exact figure the gate worked out, not deepened by them again', () => {
    const book = new OwnBook({ commissionRate: () => RATE });
    book.add(restingOrder(0, 0, { gameID: 'g', selection: HOME, bet: 100, odds: 100 }), 'test');
    expect(book.projectedLiability('g')).toBe(-100);
    // Two orders on the other side: each loses where the first wins, so together they lose 150 at worst, not 250.
    const a = restingOrder(1, 0, { gameID: 'g', selection: AWAY, bet: 100, odds: 100 });
    const b = restingOrder(2, 0, { gameID: 'g', selection: AWAY, bet: 50, odds: 100 });
    const extras = [a, b].map((o) => restingPosition(o.selection, o.remaining, o.odds, 0));
    expect(book.projectedLiability('g', extras)).toBe(-150);
    book.add(a, 'test');
    book.add(b, 'test');
    expect(book.projectedLowerBound('g')).toBe(-150);
    // Another order of the same terms is not one the gate counted: it deepens the bound.
    book.add(restingOrder(3, 0, { gameID: 'g', selection: AWAY, bet: 50, odds: 100 }), 'test');
    expect(book.projectedLowerBound('g')).toBe(-200);
    expect(book.projectedLiability('g')).toBe(-200);
  });

  it('an order added since the bound was set takes back what it added when it rests no longer', () => {
    const book = new OwnBook({ commissionRate: () => RATE });
    book.add(restingOrder(0, 0, { gameID: 'g', selection: HOME, bet: 100, odds: 100 }), 'test');
    expect(book.projectedLiability('g')).toBe(-100);
    const away = restingOrder(1, 0, { gameID: 'g', selection: AWAY, bet: 100, odds: 100 });
    book.add(away, 'test');
    expect(book.projectedLowerBound('g')).toBe(-200);
    book.apply(away.clientId, { kind: 'rests-partly-filled', amounts: { remaining: 40 } }, 1, 'test');
    expect(book.projectedLowerBound('g')).toBe(-140);
    book.apply(away.clientId, { kind: 'cancelled', amounts: { remaining: 0 } }, 2, 'test');
    expect(book.projectedLowerBound('g')).toBe(-100);
    // One there when the bound was set is in the figure it was set from: its going lifts nothing.
    book.apply('c0', { kind: 'cancelled', amounts: { remaining: 0 } }, 3, 'test');
    expect(book.projectedLowerBound('g')).toBe(-100);
    expect(book.projectedLiability('g')).toBe(0);
  });
});
