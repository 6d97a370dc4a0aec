import { describe, expect, it } from 'vitest';
import type { GradedRow } from '../../src/exchange/schemas/bets.ts';
import { PnlLedger } from '../../src/runtime/pnl-ledger.ts';

/** A graded row with only the fields the ledger reads filled in. */
function row(txID: string, result: number | null, fee: number, gameID: string | null): GradedRow {
  return { txID, result, fee, game: gameID === null ? {} : { id: gameID } } as unknown as GradedRow;
}

describe('PnlLedger', () => {
  it('keeps the rate in use until the account reports one', () => {
    const l = new PnlLedger();
    expect(l.commissionRate).toBe(0.01);
    l.setCommissionRate(undefined);
    l.setCommissionRate(null);
    expect(l.commissionRate).toBe(0.01);
    l.setCommissionRate(0.02);
    expect(l.commissionRate).toBe(0.02);
  });

  it('adds a regraded row only by its difference and settles each game it names', () => {
    const l = new PnlLedger();
    const settled: string[] = [];
    l.count(
      [row('t1', 10, 0.5, 'g1'), row('t2', -4, 0, null)],
      () => 1_000,
      (g) => settled.push(g),
    );
    expect([l.realized, l.commissionPaid]).toEqual([6, 0.5]);
    l.count(
      [row('t1', 0, 0, 'g1'), row('t3', null, 0.25, 'g2')],
      () => 2_000,
      (g) => settled.push(g),
    );
    expect([l.realized, l.commissionPaid]).toEqual([-4, 0.25]);
    expect(settled).toEqual(['g1', 'g1', 'g2']);
  });
});
