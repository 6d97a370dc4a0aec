import { describe, expect, it } from 'vitest';
import { OwnBook } from '../../src/book/own-book.ts';
import type { OwnOrder } from '../../src/book/types.ts';
import type { Selection } from '../../src/markets/types.ts';
import { RiskGate, type Candidate, type RiskLimits } from '../../src/orders/risk.ts';
import { listGame, setup } from './support.ts';

const HOME: Selection = { type: 'moneyline', team: 'home' };
const AWAY: Selection = { type: 'moneyline', team: 'away' };
const LIMITS: RiskLimits = { maxGameLiability: 1_000, maxTotalLiability: 5_000, maxOrderSize: 500, maxOrdersPerGame: 20 };

const resting = (clientId: string, gameID: string, selection: Selection, odds: number, size: number, over: Partial<OwnOrder> = {}): OwnOrder => ({
  clientId, userReference: `ls1:s:${clientId}`, orderID: `o-${clientId}`, strategyId: 's', intentKey: null, gameID, selection, odds, bet: size, filled: 0, remaining: size,
  status: 'resting', isPostArb: false, createdAt: 0, updatedAt: 0, ...over,
});

const post = (gameID: string, selection: Selection, odds: number, size: number): Candidate => ({ gameID, selection, odds, size, commissionRate: 0 });

describe('risk gate: orders that are not orders', () => {
  it('refuses odds that are not American odds and sizes that are not finite and positive, under their own rule', () => {
    const gate = new RiskGate(new OwnBook({ commissionRate: () => 0.01 }), LIMITS);
    gate.begin();
    for (const odds of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 99, -50, 0, 110.5]) {
      const v = gate.check(post('g', HOME, odds, 10), 'active');
      expect(v.ok ? 'approved' : v.rule, `odds ${odds}`).toBe('invalid-order');
    }
    for (const size of [Number.NaN, Number.POSITIVE_INFINITY, 0, -10]) {
      const v = gate.check(post('g', HOME, 110, size), 'active');
      expect(v.ok ? 'approved' : v.rule, `size ${size}`).toBe('invalid-order');
    }
    // Valid ones still pass, -100 (the same price as +100) included.
    expect(gate.check(post('g', HOME, -100, 10), 'active')).toEqual({ ok: true });
    expect(gate.check(post('g', HOME, -110, 10), 'active')).toEqual({ ok: true });
  });

  it('a NaN-odds intent is refused, and the orders after it in the cycle are still held to the caps', () => {
    const { market, orders, own, placed, notices } = setup({ limits: { maxGameLiability: 100, maxTotalLiability: 200 } });
    listGame(market);
    orders.cycle([{ strategyId: 'a', gameID: 'g', mode: 'active', intents: [
      { key: 'bad', selection: HOME, odds: Number.NaN, size: 10 },
      { key: 'big1', selection: HOME, odds: 110, size: 500 },
      { key: 'big2', selection: AWAY, odds: 110, size: 500 },
    ] }]);
    // Each 500 alone loses 500 where it loses: above the game's cap of 100.
    expect(placed).toEqual([]);
    expect(orders.stats.riskRejected).toBe(3);
    expect(notices.map((n) => (n.kind === 'risk-rejected' ? `${n.intentKey}:${n.verdict.rule}` : n.kind))).toEqual(['bad:invalid-order', 'big1:game-liability', 'big2:game-liability']);
    expect(own.projectedLiability('g')).toBe(0);
    expect(own.totalProjectedLiability()).toBe(0);
  });

  it('refuses, never passes, when a liability figure of the book is not a number', () => {
    // A resting order with NaN odds (adopted, say) makes its game's worst case NaN.
    const own = new OwnBook({ commissionRate: () => 0.01 });
    own.add(resting('bad', 'g1', HOME, Number.NaN, 10), 'test');
    expect(own.projectedLiability('g1')).toBeNaN();
    const gate = new RiskGate(own, LIMITS);
    gate.begin();
    const onGame = gate.check(post('g1', AWAY, 110, 10), 'active');
    expect(onGame.ok ? 'approved' : onGame.rule).toBe('game-liability');
    // On another game the game's figure is fine; the total over all games is NaN.
    const elsewhere = gate.check(post('g2', AWAY, 110, 10), 'active');
    expect(elsewhere.ok ? 'approved' : elsewhere.rule).toBe('total-liability');
  });
});
