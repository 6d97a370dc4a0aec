import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { OwnBook } from '../../src/orders/own-book.ts';
import type { TradingMode } from '../../src/market-model/types.ts';
import { fillMoney } from '../../src/money/fill.ts';
import { worstCaseLiability } from '../../src/money/liability.ts';
import type { Position } from '../../src/money/position.ts';
import { RiskGate, type Candidate, type RiskLimits, type RiskVerdict } from '../../src/orders/risk-gate.ts';
import { oddsArb, selectionArb } from '../support/money-arbitraries.ts';

const GAMES = ['g0', 'g1', 'g2'];
const gameArb = fc.constantFrom(...GAMES);
const stakeArb = fc.integer({ min: 1, max: 60_000 }).map((c) => c / 100);

const fillArb = fc.record({
  gameID: gameArb,
  selection: selectionArb,
  odds: oddsArb,
  amount: stakeArb,
  taker: fc.boolean(),
});
const restingArb = fc.record({ gameID: gameArb, selection: selectionArb, odds: oddsArb, remaining: stakeArb });
const candidateArb: fc.Arbitrary<Candidate> = fc.record({
  gameID: gameArb,
  selection: selectionArb,
  odds: oddsArb,
  size: stakeArb,
  commissionRate: fc.constantFrom(0, 0.01),
});
const limitsArb: fc.Arbitrary<RiskLimits> = fc.record({
  maxGameLiability: fc.integer({ min: 1, max: 3_000 }),
  maxTotalLiability: fc.integer({ min: 1, max: 6_000 }),
  maxOrderSize: fc.constant(600),
  maxOrdersPerGame: fc.integer({ min: 2, max: 12 }),
});

/** The checks as first written: every liability figure exact, no bound taken first. */
function referenceCycle(
  own: OwnBook,
  limits: RiskLimits,
  candidates: readonly Candidate[],
  mode: TradingMode,
): RiskVerdict[] {
  const approved = new Map<string, Position[]>();
  const projected = new Map<string, number>();
  return candidates.map((c): RiskVerdict => {
    if (mode === 'halted') return { ok: false, rule: 'halted', detail: '' };
    if (!(c.size > 0) || c.size > limits.maxOrderSize) return { ok: false, rule: 'max-order-size', detail: '' };
    const mine = approved.get(c.gameID) ?? [];
    if (own.liveOrders(c.gameID).length + mine.length + 1 > limits.maxOrdersPerGame)
      return { ok: false, rule: 'max-orders-per-game', detail: '' };
    // Where it loses: a taker (commissionRate > 0) may fill at a better price, so its loss
    // may carry rate × stake, the stake's loss at even odds.
    const position: Position =
      c.commissionRate > 0
        ? { selection: c.selection, amount: c.size, odds: 100, commissionRate: c.commissionRate, contingent: true }
        : { selection: c.selection, amount: c.size, odds: c.odds, commissionRate: 0, contingent: true };
    if (mode === 'reducing') {
      // Lowers the matched worst case filled alone (a win at its odds, a taker's loss with
      // rate × stake), and no fills of it and our other orders leave it lower.
      const matched = own.positions(c.gameID);
      const before = worstCaseLiability(matched);
      const filled: Position[] = [
        { selection: c.selection, amount: c.size, odds: c.odds, commissionRate: c.commissionRate },
      ];
      const lossOnly = c.commissionRate * c.size - (fillMoney(c.size, c.odds, c.commissionRate).risk - c.size);
      if (lossOnly > 0)
        filled.push({ selection: c.selection, amount: lossOnly, odds: 100, commissionRate: 0, contingent: true });
      if (!(worstCaseLiability([...matched, ...filled]) > before + 1e-9))
        return { ok: false, rule: 'reducing', detail: '' };
      if (!(own.projectedLiability(c.gameID, [...mine, position]) >= before - 1e-9))
        return { ok: false, rule: 'reducing', detail: '' };
    }
    const gameAfter = own.projectedLiability(c.gameID, [...mine, position]);
    if (gameAfter < -limits.maxGameLiability - 1e-9) return { ok: false, rule: 'game-liability', detail: '' };
    let elsewhere = 0;
    for (const [g, after] of projected) if (g !== c.gameID) elsewhere += after - own.projectedLiability(g);
    const total = own.totalProjectedLiability() - own.projectedLiability(c.gameID) + gameAfter + elsewhere;
    if (total < -limits.maxTotalLiability - 1e-9) return { ok: false, rule: 'total-liability', detail: '' };
    mine.push(position);
    approved.set(c.gameID, mine);
    projected.set(c.gameID, gameAfter);
    return { ok: true };
  });
}

// The gate takes a lower bound of the worst case before the exact figure and works the exact
// one out only when the bound does not clear the limits: its verdicts must be the exact ones.
describe('risk gate', () => {
  test.prop(
    [
      fc.array(fillArb, { maxLength: 8 }),
      fc.array(restingArb, { maxLength: 8 }),
      fc.array(candidateArb, { minLength: 1, maxLength: 12 }),
      limitsArb,
      fc.constantFrom<TradingMode>('active', 'reducing'),
    ],
    { numRuns: 300 },
  )(
    'gives the verdicts of the exact checks, in a cycle of several candidates over several games',
    (fills, resting, candidates, limits, mode) => {
      const own = new OwnBook({ commissionRate: () => 0.01 });
      fills.forEach((f, i) =>
        own.addFill({
          txID: `t${i}`,
          orderID: `o${i}`,
          gameID: f.gameID,
          selection: f.selection,
          odds: f.odds,
          amount: f.amount,
          risk: f.amount,
          win: f.amount,
          origin: f.taker ? 'wager' : 'offer',
          isPostArb: false,
          strategyId: 's',
          at: 0,
        }),
      );
      resting.forEach((r, i) =>
        own.add(
          {
            clientId: `c${i}`,
            userReference: `ls1:s:c${i}`,
            orderID: `r${i}`,
            strategyId: 's',
            intentKey: null,
            gameID: r.gameID,
            selection: r.selection,
            odds: r.odds,
            bet: r.remaining,
            filled: 0,
            remaining: r.remaining,
            status: 'resting',
            isPostArb: false,
            createdAt: 0,
            updatedAt: 0,
          },
          'test',
        ),
      );
      const gate = new RiskGate(own, limits);
      gate.begin();
      const verdicts = candidates.map((c) => gate.check(c, mode));
      const expected = referenceCycle(own, limits, candidates, mode);
      expect(verdicts.map((v) => (v.ok ? 'ok' : v.rule))).toEqual(expected.map((v) => (v.ok ? 'ok' : v.rule)));
    },
  );
});
