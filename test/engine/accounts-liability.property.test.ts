import { describe } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { Account } from '../../src/engine/accounts.ts';
import { BetLedger } from '../../src/engine/bet-ledger.ts';
import { CountingIds, IdTokens } from '../../src/engine/ids.ts';
import type { OrderState } from '../../src/engine/order-state.ts';
import type { InternedSelection } from '../../src/engine/wire.ts';
import type { Position } from '../../src/money/position.ts';
import { positionArb, selectionArb } from '../support/money-arbitraries.ts';
import { expectSame, referenceWorstCaseScore } from '../money/liability-reference.ts';

/**
 * GameExposure keeps its bets merged between calls and lends search regions from one
 * exact figure to the next: after any change its figures must be the reference search of
 * its positions as they stand, to the bit.
 */

const op = fc.oneof(
  fc.record({
    kind: fc.constant('rest' as const),
    sel: fc.nat({ max: 4 }),
    odds: positionArb.map((p) => p.odds),
    amount: fc.integer({ min: 1, max: 50_000 }).map((c) => c / 100),
  }),
  fc.record({ kind: fc.constant('shrink' as const), pick: fc.nat(), frac: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('bet' as const),
    sel: fc.nat({ max: 4 }),
    odds: positionArb.map((p) => p.odds),
    amount: fc.integer({ min: 1, max: 50_000 }).map((c) => c / 100),
    rate: fc.constantFrom(0, 0.02),
  }),
);

function order(seq: number, selection: InternedSelection['selection'], odds: number, amount: number): OrderState {
  const line = { gameID: 'g', selection } as unknown as InternedSelection;
  return {
    id: seq * 2,
    wagerRequestID: seq * 2 + 1,
    userId: 'u',
    gameID: 'g',
    line,
    odds,
    orderType: 'limit',
    bet: amount,
    filled: 0,
    remaining: amount,
    status: 'open',
    closeReason: null,
    createdAt: 0,
    expiresAt: null,
    gameStartExpiry: false,
    userReference: null,
    seq,
    level: null,
    exposure: null,
    slot: -1,
  } as unknown as OrderState;
}

describe('GameExposure exact figures', () => {
  test.prop([fc.array(selectionArb, { minLength: 5, maxLength: 5 }), fc.array(op, { maxLength: 40 }), positionArb], {
    numRuns: 200,
  })('equal the reference search after every change', (sels, ops, extraArb) => {
    const ledger = new BetLedger(new IdTokens(new CountingIds(1, 1)));
    const account = new Account('u', 1e9, 0, 0.02, ledger);
    const g = account.exposureOf('g');
    const resting: OrderState[] = [];
    let seq = 0;
    for (const o of ops) {
      if (o.kind === 'rest') {
        const r = order(seq++, sels[o.sel]!, o.odds, o.amount);
        g.addResting(r);
        resting.push(r);
        account.adjustBound(g, r.remaining);
      } else if (o.kind === 'shrink' && resting.length > 0) {
        const r = resting[o.pick % resting.length]!;
        r.remaining *= o.frac;
        account.adjustBound(g, 0);
      } else if (o.kind === 'drop' && resting.length > 0) {
        const r = resting.splice(o.pick % resting.length, 1)[0]!;
        g.removeResting(r);
        account.adjustBound(g, -r.remaining);
      } else if (o.kind === 'bet') {
        const maker = order(seq++, sels[o.sel]!, o.odds, o.amount);
        const bet = ledger.record(maker, o.amount, order(seq++, sels[o.sel]!, -o.odds, o.amount), o.amount, o.rate, 0);
        g.addBet(bet);
        g.addBet(bet + 1);
        account.adjustBound(g, o.amount);
      }
      const positions = g.positions();
      expectSame(g.exactLoss(), -referenceWorstCaseScore(positions).liability, 'exactLoss');
      const matched: Position[] = g.bets.map((b) => ledger.position(b));
      expectSame(g.matchedLiability(), referenceWorstCaseScore(matched).liability, 'matchedLiability');
      const extra: Position = { ...extraArb, contingent: true };
      expectSame(g.lossWith(extra), -referenceWorstCaseScore([...positions, extra]).liability, 'lossWith');
    }
  });
});
