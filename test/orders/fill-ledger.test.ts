import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { positionOf } from '../../src/orders/fill-ledger.ts';
import { FillLedger } from '../../src/orders/fill-ledger.ts';
import { worstCaseLiability } from '../../src/money/liability.ts';
import { ownFill, restingOrder } from '../market-model/support.ts';

describe('FillLedger', () => {
  it('books a fill once, counts its stake towards its order, and keeps it booked when its game is forgotten', () => {
    const ledger = new FillLedger({ commissionRate: () => 0.01 });
    ledger.openGame('g');
    expect(ledger.book(ownFill({ txID: 't1', amount: 4, strategyId: 's' }), 'c1')).toBe(true);
    expect(ledger.book(ownFill({ txID: 't1', amount: 4, strategyId: 's' }), 'c1')).toBe(false);
    expect(ledger.book(ownFill({ txID: 't2', amount: 6, origin: 'wager' }), 'c1')).toBe(true);
    expect(ledger.bookedFor('c1')).toBe(10);
    expect(ledger.totals()).toEqual({ maker: 1, taker: 1, makerVolume: 4, takerVolume: 6 });
    expect(ledger.fills('g', 's').map((f) => f.txID)).toEqual(['t1']);
    // The taker's position carries the commission rate; the maker's none.
    expect(ledger.positions('g').map((p) => p.commissionRate)).toEqual([0, 0.01]);
    expect(ledger.positionsLiability('g', 's')).toBe(worstCaseLiability(ledger.positions('g', 's')));
    ledger.forgetGame('g');
    expect(ledger.gameFills('g')).toEqual([]);
    // The view read last (g, s) is of the game forgotten: not read again.
    expect(ledger.fills('g', 's')).toEqual([]);
    expect(ledger.hasFill('t2')).toBe(true);
    expect([...ledger.allFills()]).toHaveLength(2);
  });

  it('awaits what the booked fills do not cover, within a cent per fill and one more', () => {
    const ledger = new FillLedger({ commissionRate: () => 0 });
    const order = restingOrder(1, 0);
    ledger.openGame('g');
    expect(ledger.await(order, 0.01, 5)).toBe('unchanged');
    expect(ledger.await(order, 6, 5)).toBe('set');
    expect(ledger.awaited('g', 'c1')).toMatchObject({ amount: 6, since: 5, risk: { amount: 6, contingent: true } });
    expect(ledger.oldestAwaited()).toBe(5);
    ledger.book(ownFill({ txID: 't1', amount: 5.99 }), 'c1');
    // 0.01 short with one fill booked: inside two cents.
    expect(ledger.await(order, 0.01, 5)).toBe('ended');
    expect(ledger.awaitedIn('g').size).toBe(0);
    expect(ledger.oldestAwaited()).toBeUndefined();
  });

  const ledgerOp = fc.oneof(
    fc.record({ kind: fc.constant('fill' as const), game: fc.nat({ max: 1 }), strategy: fc.nat({ max: 2 }) }),
    fc.record({
      kind: fc.constant('read' as const),
      game: fc.nat({ max: 2 }),
      strategy: fc.constantFrom<string | null | undefined>('s0', 's1', null, undefined),
    }),
    fc.record({ kind: fc.constant('rate' as const), rate: fc.constantFrom(0, 0.01, 0.02) }),
    fc.record({ kind: fc.constant('forget' as const), game: fc.nat({ max: 1 }) }),
  );

  test.prop([fc.array(ledgerOp, { maxLength: 80 })], { numRuns: 300 })(
    "reads each game's and strategy's fills and positions as they stand, whichever was read before (property)",
    (ops) => {
      let rate = 0.01;
      const ledger = new FillLedger({ commissionRate: () => rate });
      let n = 0;
      for (const o of ops) {
        if (o.kind === 'fill') {
          const gameID = `g${o.game}`;
          ledger.openGame(gameID);
          const strategyId = o.strategy === 2 ? null : `s${o.strategy}`;
          const origin = n % 2 === 0 ? 'offer' : 'wager';
          ledger.book(ownFill({ txID: `t${n++}`, gameID, strategyId, origin, amount: n }), undefined);
        } else if (o.kind === 'rate') rate = o.rate;
        else if (o.kind === 'forget') ledger.forgetGame(`g${o.game}`);
        else {
          const gameID = `g${o.game}`;
          const want = ledger.gameFills(gameID).filter((f) => o.strategy === undefined || f.strategyId === o.strategy);
          expect(ledger.fills(gameID, o.strategy)).toEqual(want);
          expect(ledger.positions(gameID, o.strategy)).toEqual(want.map((f) => positionOf(f, rate)));
          expect(ledger.positionsLiability(gameID, o.strategy)).toBe(
            want.length === 0 ? 0 : worstCaseLiability(want.map((f) => positionOf(f, rate))),
          );
        }
      }
    },
  );
});
