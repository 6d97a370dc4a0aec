import { describe, expect, it } from 'vitest';
import type { MatchedBet } from '../../src/exchange/orders/types.ts';
import { fillMoney } from '../../src/money/fill.ts';
import { fillFromBet } from '../../src/orders/fills.ts';

const P = { awayId: 'a'.repeat(24), homeId: 'b'.repeat(24) };
const round2 = (x: number) => Math.round(x * 100) / 100;

/** A getMatchedBets row as the exchange renders it: 2-decimal money, no isPostArb flag. */
function bet(origin: 'offer' | 'wager', amount: number, odds: number, commission: number): MatchedBet {
  const m = fillMoney(amount, odds, commission);
  return {
    id: 'c'.repeat(24),
    txID: 'd'.repeat(24),
    type: 'moneyline',
    bet: amount,
    odds,
    participantID: P.homeId,
    origin,
    risk: round2(m.risk),
    win: round2(m.win),
    game: { id: 'e'.repeat(24) },
  } as unknown as MatchedBet;
}

describe('fillFromBet: the stake of a matched bet read over REST', () => {
  it('a commissioned taker: the stake without the commission on a loss', () => {
    const f = fillFromBet(bet('wager', 2.28, 153, 0.01), P, 0.01, 's', 0)!;
    expect(f.isPostArb).toBe(false);
    expect(f.amount).toBeCloseTo(2.28, 2);
  });

  // Found by the chaos soak: a postArb taker (no commission) read back after a restart was
  // booked at risk / 1.01 (2.2574 for a 2.28 stake) and counted as commissioned.
  it('a postArb taker pays no commission: its stake is its risk, whether the caller knows or the money says so', () => {
    for (const [amount, odds] of [
      [2.28, 153],
      [50, -110],
      [0.75, 240],
      [100, -250],
    ] as const) {
      const b = bet('wager', amount, odds, 0);
      const inferred = fillFromBet(b, P, 0.01, 's', 0)!;
      expect(inferred.isPostArb, `${amount} at ${odds}`).toBe(true);
      expect(inferred.amount).toBeCloseTo(amount, 2);
      const told = fillFromBet(b, P, 0.01, 's', 0, true)!;
      expect(told.isPostArb).toBe(true);
      expect(told.amount).toBeCloseTo(amount, 2);
    }
  });

  it('commissioned takers of every size and price are not taken for postArb', () => {
    for (const [amount, odds] of [
      [1, 100],
      [50, -110],
      [0.75, 240],
      [100, -250],
      [7.5, 500],
    ] as const) {
      const f = fillFromBet(bet('wager', amount, odds, 0.01), P, 0.01, 's', 0)!;
      expect(f.isPostArb, `${amount} at ${odds}`).toBe(false);
      expect(f.amount).toBeCloseTo(amount, 2);
    }
  });

  it('a maker: its risk is its stake, postArb or not', () => {
    const f = fillFromBet(bet('offer', 40, -120, 0), P, 0.01, 's', 0, true)!;
    expect(f.isPostArb).toBe(false);
    expect(f.amount).toBe(40);
  });
});
