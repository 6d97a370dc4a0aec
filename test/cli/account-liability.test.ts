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
    // Home loses: the matched 50 and the resting 50 on home are lost, the away order (which
    // would win) counts nothing as it may not fill: -100. Home wins: +60 matched, -50 away.
    // The exact worst case is -100, not the -150 of every resting order lost at once.
    expect(game.worstWithResting).toBeCloseTo(-100, 9);
    expect(game.worstWithResting).toBeGreaterThan(matched - resting);
    const text = renderAccount(report);
    expect(text).toMatch(/matched bets \(exchange\)/);
    expect(text).toMatch(/worst case, resting filled/);
    expect(text).toMatch(/exposure -?\d+\.\d\d \(the exchange's hold/);
    expect(text).toContain('-100.00');
  });

  it("reads a resting total's side to count it where it loses", async () => {
    t = await startTestSim();
    const g = t.game({ league: 'NBA' });
    const { client: maker } = await clientFor(t, 'mm2', { balance: 10_000 });
    // Both sides of one total at +110, 50 each (they do not cross): whatever the score,
    // exactly one of them loses.
    await maker.place([
      { gameID: g.id, type: 'total', side: 'over', number: 210.5, odds: 110, bet: 50 },
      { gameID: g.id, type: 'total', side: 'under', number: 210.5, odds: 110, bet: 50 },
    ]);
    const report = await readAccount(maker);
    await maker.close();
    expect(report.games[0]!.restingStake).toBeCloseTo(100, 9);
    expect(report.games[0]!.worstWithResting).toBeCloseTo(-50, 9);
  });
});
