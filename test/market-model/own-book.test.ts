import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { MAX_TERMINAL_KEPT, OwnBook, TERMINAL_RETENTION_MS } from '../../src/orders/own-book.ts';
import type { Selection } from '../../src/markets/types.ts';
import { worstCaseLiability } from '../../src/money/liability.ts';
import type { Position } from '../../src/money/position.ts';
import { STATUSES, applier, orderFill, ownFill, restingOrder } from './support.ts';

const SELECTIONS: Selection[] = [
  { type: 'moneyline', team: 'home' },
  { type: 'moneyline', team: 'away' },
  { type: 'spread', team: 'home', line: -3.5 },
  { type: 'total', ou: 'over', line: 210.5 },
];

const op = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    game: fc.integer({ min: 0, max: 2 }),
    sel: fc.integer({ min: 0, max: 3 }),
    odds: fc.oneof(fc.integer({ min: 100, max: 300 }), fc.integer({ min: -300, max: -100 })),
    bet: fc.integer({ min: 1, max: 500 }),
    taker: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    pick: fc.nat(),
    status: fc.integer({ min: 0, max: STATUSES.length - 1 }),
    frac: fc.double({ min: 0, max: 1, noNaN: true }),
    absent: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('fill' as const),
    game: fc.integer({ min: 0, max: 2 }),
    sel: fc.integer({ min: 0, max: 3 }),
    odds: fc.integer({ min: 100, max: 300 }),
    amount: fc.integer({ min: 1, max: 300 }),
    taker: fc.boolean(),
    owner: fc.option(fc.nat(), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('await' as const), pick: fc.nat(), frac: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('settle' as const), game: fc.integer({ min: 0, max: 2 }) }),
);

const GAMES = ['g0', 'g1', 'g2'];

/**
 * Projected liability of a game worked out from the book's orders and fills, past its caches:
 * an order sent to take, not yet answered, may still fill as a taker at a better price, its
 * loss then carrying commission up to rate × stake (what the stake loses at even odds).
 */
function freshProjected(book: OwnBook, gameID: string): number {
  const positions: Position[] = book.isSettled(gameID) ? [] : [...book.positions(gameID)];
  for (const o of book.liveOrders(gameID)) {
    if (o.remaining <= 1e-9) continue;
    const taking = o.mayTake === true && o.orderID === null;
    positions.push({
      selection: o.selection,
      amount: o.remaining,
      odds: taking ? 100 : o.odds,
      commissionRate: taking ? 0.01 : 0,
      contingent: true,
    });
  }
  // Fills the exchange reported and the book has not booked count where they lose.
  for (const o of book.allOrders())
    if (o.gameID === gameID && book.awaitedFill(o.clientId) > 0)
      positions.push({
        selection: o.selection,
        amount: book.awaitedFill(o.clientId),
        odds: o.odds,
        commissionRate: 0,
        contingent: true,
      });
  return worstCaseLiability(positions);
}

describe('OwnBook', () => {
  test.prop([fc.array(op, { maxLength: 60 })], { numRuns: 200 })(
    'keeps projected liability equal to a fresh computation, per game and in total (property)',
    (ops) => {
      const book = new OwnBook({ commissionRate: () => 0.01 });
      const apply = applier(book, SELECTIONS);
      const freshTotal = () =>
        GAMES.reduce((t, gameID) => (book.isSettled(gameID) ? t : t + freshProjected(book, gameID)), 0);
      for (const o of ops) {
        apply(o);
        // Read through the cache after every step, so stale values (or a game left out) would be caught.
        expect(book.totalProjectedLiability()).toBeCloseTo(freshTotal(), 6);
      }
      let total = 0;
      for (const gameID of GAMES) {
        const fresh = freshProjected(book, gameID);
        expect(book.projectedLiability(gameID)).toBeCloseTo(fresh, 9);
        if (!book.isSettled(gameID)) total += fresh;
      }
      expect(book.totalProjectedLiability()).toBeCloseTo(total, 6);
    },
  );

  // The risk gate approves on this bound without the exact figure: it must never be above it.
  test.prop([fc.array(op, { maxLength: 60 }), fc.array(fc.boolean(), { maxLength: 60 })], { numRuns: 200 })(
    'never bounds the projected liability from above, however stale its cache (property)',
    (ops, reads) => {
      const book = new OwnBook({ commissionRate: () => 0.01 });
      const apply = applier(book, SELECTIONS);
      ops.forEach((o, i) => {
        apply(o);
        // Sometimes the exact figure is read (and cached), mostly the bound runs on alone.
        if (reads[i]) book.totalProjectedLiability();
        for (const gameID of GAMES)
          expect(book.projectedLowerBound(gameID)).toBeLessThanOrEqual(freshProjected(book, gameID) + 1e-9);
      });
    },
  );

  test.prop([fc.array(op, { maxLength: 60 }), fc.array(fc.boolean(), { maxLength: 60 })], { numRuns: 200 })(
    "lists a game's live orders as they stand after every change, the same list while they do not change (property)",
    (ops, reads) => {
      const book = new OwnBook({ commissionRate: () => 0.01 });
      const apply = applier(book, SELECTIONS);
      // Per game, the list last read and the version of the game's live orders it was read at.
      const before = new Map<string, { readonly list: readonly unknown[]; readonly version: number }>();
      ops.forEach((o, i) => {
        apply(o);
        // Sometimes a list is read between changes, so one kept from before a change would be caught.
        if (!reads[i]) return;
        GAMES.forEach((gameID) => {
          const listed = book.liveOrders(gameID);
          // Every game's live orders, listed afresh by the store (no list is kept for all games).
          expect(listed).toEqual(book.liveOrders().filter((x) => x.gameID === gameID));
          const strategyId = listed[0]?.strategyId;
          if (strategyId !== undefined)
            expect(book.liveOrders(gameID, strategyId)).toEqual(listed.filter((x) => x.strategyId === strategyId));
          expect(Object.isFrozen(listed)).toBe(true);
          // Unchanged orders, the very list handed out before; changed ones, a list of their own.
          const last = before.get(gameID);
          const version = book.liveVersionOf(gameID);
          if (last !== undefined) expect(listed === last.list).toBe(version === last.version);
          expect(book.liveOrders(gameID)).toBe(listed);
          before.set(gameID, { list: listed, version });
        });
      });
    },
  );

  test.prop([fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 40 })])(
    'books a fill once per txID',
    (txs) => {
      const book = new OwnBook({ commissionRate: () => 0 });
      let added = 0;
      for (const t of txs) if (book.addFill(ownFill({ txID: `t${t}` }))) added++;
      expect(added).toBe(new Set(txs).size);
      expect(book.fills('g')).toHaveLength(added);
    },
  );

  it('keeps an ended order for late messages, then forgets it once its retention is over; its fills stay', () => {
    const book = new OwnBook({ commissionRate: () => 0.01 });
    book.add(restingOrder(1, 0), 'test');
    book.apply('c1', { kind: 'filled', amounts: { filled: 10, remaining: 0 } }, 1_000, 'test');
    book.addFill(orderFill(1, 1_000));
    // Another order ending just inside the retention leaves the first one known.
    book.add(restingOrder(2, 1_000), 'test');
    book.apply('c2', { kind: 'cancelled', amounts: { remaining: 0 } }, 1_000 + TERMINAL_RETENTION_MS, 'test');
    expect(book.byOrderID('o1')?.status).toBe('filled');
    expect(book.byReference('r1')?.clientId).toBe('c1');
    expect(book.isOurOrderID('o1')).toBe(true);
    // One ending after it: the first is forgotten everywhere, the second (younger) kept.
    book.add(restingOrder(3, 2_000), 'test');
    book.apply('c3', { kind: 'cancelled', amounts: { remaining: 0 } }, 1_001 + TERMINAL_RETENTION_MS, 'test');
    expect(book.order('c1')).toBeUndefined();
    expect(book.byOrderID('o1')).toBeUndefined();
    expect(book.byReference('r1')).toBeUndefined();
    expect(book.isOurOrderID('o1')).toBe(false);
    expect(book.order('c2')?.status).toBe('cancelled');
    expect(book.hasFill('t1')).toBe(true);
    expect(book.fills('g')).toHaveLength(1);
    expect([...book.allOrders()].map((o) => o.clientId)).toEqual(['c2', 'c3']);
  });

  it('keeps 5,000 orders ended within a minute: their age decides, not their number', () => {
    const book = new OwnBook({ commissionRate: () => 0.01 });
    for (let n = 0; n < 5_000; n++) {
      book.add(restingOrder(n, n), 'test');
      book.apply(`c${n}`, { kind: 'cancelled', amounts: { remaining: 0 } }, n * 10, 'test');
    }
    expect([...book.allOrders()]).toHaveLength(5_000);
    expect(book.byOrderID('o0')?.clientId).toBe('c0');
  });

  it('keeps no more than MAX_TERMINAL_KEPT ended orders, however young: the oldest ended are forgotten, their fills stay', () => {
    const book = new OwnBook({ commissionRate: () => 0.01 });
    // A live order from before them all: only ended orders count towards the cap.
    book.add({ ...restingOrder(-1, -1), clientId: 'live', userReference: 'r-live', orderID: 'o-live' }, 'test');
    const over = 25;
    const ended = MAX_TERMINAL_KEPT + over;
    // Order n ends at n ms: the last ends well within the first's retention, so age forgets none.
    expect(ended).toBeLessThan(TERMINAL_RETENTION_MS);
    for (let n = 0; n < ended; n++) {
      book.add(restingOrder(n, n), 'test');
      if (n < over + 1 || n === ended - 1) {
        book.apply(`c${n}`, { kind: 'filled', amounts: { filled: 10, remaining: 0 } }, n, 'test');
        book.addFill(orderFill(n, n));
      } else {
        book.apply(`c${n}`, { kind: 'cancelled', amounts: { remaining: 0 } }, n, 'test');
      }
    }
    // The `over` that ended first are forgotten everywhere.
    for (let n = 0; n < over; n++) {
      expect(book.order(`c${n}`), `c${n}`).toBeUndefined();
      expect(book.byOrderID(`o${n}`), `o${n}`).toBeUndefined();
      expect(book.byReference(`r${n}`), `r${n}`).toBeUndefined();
      expect(book.isOurOrderID(`o${n}`), `o${n}`).toBe(false);
    }
    // The oldest kept, and the newest, are found by id, reference and order id.
    for (const [n, status] of [
      [over, 'filled'],
      [over + 1, 'cancelled'],
      [ended - 1, 'filled'],
    ] as const) {
      expect(book.order(`c${n}`)?.status, `c${n}`).toBe(status);
      expect(book.byOrderID(`o${n}`)?.clientId, `o${n}`).toBe(`c${n}`);
      expect(book.byReference(`r${n}`)?.clientId, `r${n}`).toBe(`c${n}`);
      expect(book.isOurOrderID(`o${n}`), `o${n}`).toBe(true);
    }
    expect(book.order('live')?.status).toBe('resting');
    expect(book.byOrderID('o-live')?.clientId).toBe('live');
    const kept = [...book.allOrders()].filter((o) => o.clientId !== 'live');
    expect(kept).toHaveLength(MAX_TERMINAL_KEPT);
    expect(kept[0]!.clientId).toBe(`c${over}`);
    // Every fill stays booked, the forgotten orders' too, and counts in the game's positions.
    for (let n = 0; n <= over; n++) expect(book.hasFill(`t${n}`), `t${n}`).toBe(true);
    expect(book.hasFill(`t${ended - 1}`)).toBe(true);
    expect(book.fills('g').map((f) => f.txID)).toEqual([
      ...Array.from({ length: over + 1 }, (_, n) => `t${n}`),
      `t${ended - 1}`,
    ]);
    expect(book.positions('g')).toHaveLength(over + 2);
  });

  it("brings back an order closed only by absence on evidence of it; one closed on the exchange's word stays closed", () => {
    const book = new OwnBook({ commissionRate: () => 0.01 });
    book.add(restingOrder(1, 0, { gameID: 'g' }), 'test');
    book.add(restingOrder(2, 0, { gameID: 'g' }), 'test');
    expect(book.projectedLiability('g')).toBeCloseTo(-20, 9);
    book.apply('c1', { kind: 'missing', amounts: { remaining: 0 } }, 1, 'not listed');
    book.apply('c2', { kind: 'cancelled', amounts: { remaining: 0 } }, 1, 'cancel confirmed');
    expect(book.liveCountOf('g')).toBe(0);
    expect(book.projectedLiability('g')).toBe(0);
    // The game record may go meanwhile: nothing of ours on it was live.
    expect(book.forgetGame('g')).toBe(true);

    book.apply('c1', { kind: 'rests', amounts: { remaining: 10 } }, 2, 'listed after all');
    book.apply('c2', { kind: 'rests', amounts: { remaining: 10 } }, 2, 'a stale listing');
    expect(book.order('c1')).toMatchObject({ status: 'resting', remaining: 10 });
    expect(book.order('c1')?.closedByAbsence).toBeUndefined();
    expect(book.order('c2')?.status).toBe('cancelled');
    expect(book.liveOrders('g').map((o) => o.clientId)).toEqual(['c1']);
    expect(book.projectedLowerBound('g')).toBeLessThanOrEqual(-10 + 1e-9);
    expect(book.projectedLiability('g')).toBeCloseTo(-10, 9);
    expect(book.totalProjectedLiability()).toBeCloseTo(-10, 9);
  });
});
