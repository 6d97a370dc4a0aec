import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { reportJson } from '../../src/backtest/report/write.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { backtestSettings } from '../../src/app/sweep.ts';
import { loadTape, type Tape } from '../../src/backtest/tape.ts';
import type { FillModelKind } from '../../src/backtest/venue/queue-model.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { silentLogger } from '../../src/shared/logger.ts';

/**
 * Golden masters: the report of each sample recording and strategy is pinned. A change in
 * strategies, order manager, engine or execution model that moves any figure fails here;
 * when the change is meant, `UPDATE_GOLDEN=1 npx vitest run test/backtest/golden.test.ts`
 * rewrites the files, and the diff of their metrics shows what moved.
 */
const GOLDEN = 'test/backtest/golden';
const RECORDINGS = ['paper-seed7', 'paper-seed11-drops', 'paper-seed13-deep'] as const;
const STRATEGIES = ['fixed-spread', 'inventory-skew', 'post-arb'] as const;
const update = process.env['UPDATE_GOLDEN'] === '1';

const tapes = new Map<string, Tape>();
beforeAll(async () => {
  for (const r of RECORDINGS) tapes.set(r, await loadTape([join('backtest/data', r)]));
});

/** Runs at the config's own seed, kept: the determinism checks reuse the golden runs. */
const runs = new Map<string, ReturnType<typeof backtest>>();
function pinnedRun(recording: string, strategy: string) {
  const key = `${recording}--${strategy}`;
  let run = runs.get(key);
  if (!run) runs.set(key, (run = backtest(recording, strategy)));
  return run;
}

async function backtest(recording: string, strategy: string, seed?: number, fillModel?: FillModelKind) {
  const config = await loadConfig(join(GOLDEN, `${strategy}.yaml`), {
    resolveStrategy: defaultStrategyResolver(strategies),
  });
  const settings = backtestSettings(config, {
    ...(seed !== undefined ? { seed } : {}),
    ...(fillModel !== undefined ? { fillModel } : {}),
  });
  return runBacktest({ config, tape: tapes.get(recording)!, logger: silentLogger(), settings });
}

/** The pin of a run: compared metrics first (a mismatch says what moved), then the hash of every byte. */
function checkPinned(name: string, result: Awaited<ReturnType<typeof backtest>>): void {
  const json = reportJson(result);
  const pinned = {
    sha256: createHash('sha256').update(json).digest('hex'),
    metrics: result.report.metrics,
    execution: result.report.execution,
    games: result.report.games.length,
  };
  const file = join(GOLDEN, `${name}.json`);
  if (update) writeFileSync(file, `${JSON.stringify(pinned, null, 2)}\n`);
  // A missing pin fails: writing it here would compare the run with itself.
  expect(existsSync(file), `${file} is missing: pin it with UPDATE_GOLDEN=1`).toBe(true);
  const want = JSON.parse(readFileSync(file, 'utf8')) as typeof pinned;
  expect(pinned.metrics).toEqual(want.metrics);
  expect(pinned.execution).toEqual(want.execution);
  expect(pinned.sha256).toBe(want.sha256);
}

describe('backtest golden masters', () => {
  for (const recording of RECORDINGS) {
    for (const strategy of STRATEGIES) {
      it(`${recording} × ${strategy}: the report is the pinned one`, async () => {
        checkPinned(`${recording}--${strategy}`, await pinnedRun(recording, strategy));
      });
    }
  }

  // The golden configs use risk-averse; the deep-book sample is where the other two part from it.
  it('paper-seed13-deep × fixed-spread under each fill model: three pinned reports, three different results', async () => {
    const byModel = new Map<FillModelKind, Awaited<ReturnType<typeof backtest>>>([
      ['risk-averse', await pinnedRun('paper-seed13-deep', 'fixed-spread')],
    ]);
    for (const model of ['conservative', 'probabilistic'] as const) {
      const result = await backtest('paper-seed13-deep', 'fixed-spread', undefined, model);
      expect((result.report.run.fillModel as { kind: string }).kind).toBe(model);
      checkPinned(`paper-seed13-deep--fixed-spread--${model}`, result);
      byModel.set(model, result);
    }
    const settled = [...byModel.values()].map((r) => r.report.metrics.pnl.settled);
    expect(new Set(settled).size).toBe(3);
    // Conservative never fills at our own price: it cannot fill more than the queue models.
    const fills = (m: FillModelKind) => byModel.get(m)!.report.metrics.volume.fills;
    expect(fills('conservative')).toBeLessThanOrEqual(Math.min(fills('risk-averse'), fills('probabilistic')));
  });
});

describe('backtest orders', () => {
  it('every order row names what it backs, and every order that reached the book its id (takers filled in full too)', async () => {
    for (const strategy of STRATEGIES) {
      const { orders, fills } = await pinnedRun('paper-seed7', strategy);
      expect(orders.length).toBeGreaterThan(0);
      for (const o of orders) {
        expect(o.selection, `${strategy}: ${JSON.stringify(o)}`).not.toBe('');
        // A refused order, or a fill-and-kill that met nothing, never had an id.
        if (!o.status.startsWith('rejected') && o.status !== 'killed')
          expect(o.orderID, `${strategy}: ${JSON.stringify(o)}`).not.toBe('');
      }
      // The engine's own selection of a filled order, on its fills, is the one the row names.
      const byId = new Map(orders.map((o) => [o.orderID, o]));
      for (const f of fills) {
        const o = byId.get(f.orderID);
        expect(o, `${strategy}: fill ${f.txID} of an order without a row`).toBeDefined();
        expect(o!.selection).toBe(f.selection);
      }
    }
  });
});

describe('backtest determinism', () => {
  it('the same recording, config and seed give a byte-identical report; another latency seed gives another', async () => {
    const a = reportJson(await pinnedRun('paper-seed7', 'fixed-spread'));
    const b = reportJson(await backtest('paper-seed7', 'fixed-spread'));
    expect(b).toBe(a);
    const c = reportJson(await backtest('paper-seed7', 'fixed-spread', 99));
    expect(c).not.toBe(a);
  });

  it('does something worth pinning: orders, fills, settled and marked games', async () => {
    const r = (await pinnedRun('paper-seed7', 'fixed-spread')).report;
    expect(r.metrics.orders.placed).toBeGreaterThan(50);
    expect(r.metrics.volume.fills).toBeGreaterThan(0);
    expect(r.games.some((g) => g.settlement === 'settled')).toBe(true);
    expect(r.series.pnl.length).toBeGreaterThan(100);
    expect(r.metrics.maxLiability).toBeLessThanOrEqual(0);
    // Liability rows are [t, worst case with resting orders, matched bets only]: resting
    // orders can only deepen the worst case, and a market maker always has some resting.
    const rows = Object.values(r.series.liability).flat();
    expect(rows.every((row) => row[1]! <= row[2]! + 1e-9)).toBe(true);
    expect(rows.some((row) => row[1]! < row[2]! - 1)).toBe(true);
  });
});
