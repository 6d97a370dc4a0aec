import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../src/backtest/report/write.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { loadTape, type Tape } from '../../src/backtest/tape.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { strategies } from '../../src/app/strategy-registry.ts';

// Every golden report has commissionPaid 0: the built-in strategies take only with postArb,
// which pays no commission. Here a fixture strategy takes the away side of each game's
// moneyline with a 10 fillAndKill at a 2 % rate, on two NBA games of paper-seed11-drops.
/** Ends 110–120: the away side we back loses. */
const SETTLED = '0000000b000000000000000a';
/** Still before its start when the recording ends: no result. */
const OPEN = '0000000b00000000000058d3';
const RATE = 0.02;
const STAKE = 10;
const CONFIG = `
strategies:
  - id: taker
    module: ./taker.ts
    params: { stake: ${STAKE}, side: 1 }
    interest: { games: ['${SETTLED}', '${OPEN}'] }
risk:
  maxGameLiability: 500
  maxTotalLiability: 5000
  maxOrderSize: 100
  maxOrdersPerGame: 40
backtest:
  latency: { kind: fixed, ms: 50 }
  commission: ${RATE}
`;

let tape: Tape;
beforeAll(async () => {
  tape = await loadTape(['backtest/data/paper-seed11-drops']);
});

async function backtest(t: Tape) {
  const config = await parseConfigText(CONFIG, join('test/backtest/fixtures', 'taker.yaml'), {
    resolveStrategy: defaultStrategyResolver(strategies),
  });
  return runBacktest({ config, tape: t, logger: silentLogger() });
}

describe('taker commission, end to end', () => {
  it(
    'a fillAndKill pays the account’s rate: each fill row carries its fee for a win and for a ' +
      'loss, the report accrues it while the game is open and pays it on the result',
    async () => {
      const full = await backtest(tape);
      const { fills, report } = full;
      expect(fills.map((f) => [f.gameID, f.origin, f.isPostArb, f.selection, f.odds, f.amount])).toEqual([
        [SETTLED, 'wager', false, 'away', 232, STAKE],
        [OPEN, 'wager', false, 'away', 462, STAKE],
      ]);
      expect(full.orders.map((o) => [o.gameID, o.orderType, o.bet, o.filled, o.status])).toEqual([
        [SETTLED, 'fillAndKill', STAKE, STAKE, 'filled'],
        [OPEN, 'fillAndKill', STAKE, STAKE, 'filled'],
      ]);
      // Feeds §4: the rate applies to the lesser of stake and win on a loss, to the win on a
      // win. At plus odds the win is the larger: a loss costs rate × stake.
      const [settled, open] = fills;
      expect(settled!.commissionOnLoss).toBeCloseTo(RATE * STAKE, 12); // 0.20
      expect(settled!.commissionOnWin).toBeCloseTo(RATE * STAKE * 2.32, 12); // 0.464
      expect(settled!.risk).toBeCloseTo(STAKE + RATE * STAKE, 12); // 10.20
      expect(settled!.win).toBeCloseTo(STAKE * 2.32 * (1 - RATE), 12); // 22.736
      expect(open!.commissionOnLoss).toBeCloseTo(RATE * STAKE, 12);
      expect(open!.commissionOnWin).toBeCloseTo(RATE * STAKE * 4.62, 12); // 0.924

      const m = report.metrics;
      expect(m.volume).toEqual({ fills: 2, makerFills: 0, takerFills: 2, maker: 0, taker: 2 * STAKE });
      expect(m.orders.postArb).toBe(0);
      // The settled game's bet lost: it paid the commission of a loss, and its P&L is its risk.
      expect(m.pnl.commissionPaid).toBeCloseTo(RATE * STAKE, 12);
      expect(m.pnl.settled).toBeCloseTo(-(STAKE + RATE * STAKE), 12);
      // The open game's fill accrues the larger of its two fees (here the one of a win).
      expect(m.pnl.commissionAccrued).toBeCloseTo(RATE * STAKE * 4.62, 12);
      expect(report.games.map((g) => [g.gameID, g.settlement, g.takerVolume, g.makerVolume])).toEqual([
        [SETTLED, 'settled', STAKE, 0],
        [OPEN, 'marked', STAKE, 0],
      ]);

      // fills.csv carries the same fees.
      const dir = await mkdtemp(join(tmpdir(), 'ls-commission-'));
      try {
        const paths = await writeReport(dir, full);
        const [header, ...rows] = (await readFile(paths.fills, 'utf8'))
          .trim()
          .split('\n')
          .map((l) => l.split(','));
        const col = (name: string) => header!.indexOf(name);
        expect(
          rows.map((r) => [
            r[col('gameID')],
            r[col('origin')],
            r[col('amount')],
            r[col('risk')],
            r[col('commissionOnWin')],
            r[col('commissionOnLoss')],
          ]),
        ).toEqual(
          fills.map((f) => [
            f.gameID,
            'wager',
            String(STAKE),
            String(f.risk),
            String(f.commissionOnWin),
            String(f.commissionOnLoss),
          ]),
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('before the settled game’s result the same fill is accrued, not paid', async () => {
    const at = tape.items.findIndex((it) => it.kind === 'result' && it.gameID === SETTLED);
    expect(at).toBeGreaterThan(0);
    const { fills, report } = await backtest({ ...tape, items: tape.items.slice(0, at) });
    expect(fills.map((f) => [f.gameID, f.odds, f.amount])).toEqual([[SETTLED, 232, STAKE]]);
    expect(report.metrics.pnl.commissionPaid).toBe(0);
    expect(report.metrics.pnl.settled).toBe(0);
    expect(report.metrics.pnl.commissionAccrued).toBeCloseTo(RATE * STAKE * 2.32, 12);
    expect(report.games.map((g) => [g.gameID, g.settlement])).toEqual([[SETTLED, 'marked']]);
  });
});
