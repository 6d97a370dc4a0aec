import { afterEach, describe, expect, it } from 'vitest';
import { readAccount, renderAccount } from '../../src/cli/account.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { clientFor } from '../exchange/support-rest.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * The exchange's game liability counts matched bets only, so a market maker with every
 * quote resting read "liability 0.00" beside an account exposure of thousands. Both are
 * shown, each labelled: the matched figure, and the worst case were every resting order
 * filled and lost.
 */
describe('linesmith account: liability with resting orders', () => {
  it('shows the matched-bets figure and the worst case with every resting order filled, labelled', async () => {
    t = await startTestSim();
    const g = t.game({ league: 'NBA' });
    const [away, home] = g.participants;
    const { client: maker } = await clientFor(t, 'mm', { balance: 10_000 });
    const { client: taker } = await clientFor(t, 'taker');
    await maker.place([
      { gameID: g.id, type: 'moneyline', side: home.id, odds: 120, bet: 100 },
      { gameID: g.id, type: 'moneyline', side: away.id, odds: 130, bet: 50 },
    ]);
    // Half of the home order matched: 50 matched, 50 still resting.
    await taker.place([{ gameID: g.id, type: 'moneyline', side: away.id, odds: -120, bet: 60 }]);
    const report = await readAccount(maker);
    await taker.close();
    await maker.close();
    const game = report.games[0]!;
    const matched = game.liability;
    const resting = report.openOrders.reduce((s, o) => s + o.remaining, 0);
    expect(resting).toBeGreaterThan(0);
    expect(game.restingStake).toBeCloseTo(resting, 9);
    expect(game.worstWithResting).toBeCloseTo(matched - resting, 9);
    const text = renderAccount(report);
    expect(text).toMatch(/matched bets \(exchange\)/);
    expect(text).toMatch(/with resting orders filled \(bound\)/);
    expect(text).toMatch(/exposure -?\d+\.\d\d \(the exchange's hold/);
    expect(text).toContain((matched - resting).toFixed(2));
  });
});
