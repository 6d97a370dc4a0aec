import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BacktestConfigError } from '../../src/backtest/errors.ts';
import { reportJson, variantFolder, writeSweepReport } from '../../src/backtest/report/write.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import {
  applyVariant,
  parseSweepAxis,
  runSweep,
  sweepGrid,
  sweepRuns,
  sweepWorkerScript,
} from '../../src/app/sweep.ts';
import { loadTape, type Tape } from '../../src/backtest/tape.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { strategies } from '../../src/app/strategy-registry.ts';

const CONFIG = 'test/backtest/golden/post-arb.yaml';

describe('sweep grid', () => {
  it('parses key=v1,v2 and makes a grid of several keys, first key slowest', () => {
    const a = parseSweepAxis('strategies.post-arb.params.minEdge=0.01,0.02');
    const b = parseSweepAxis('backtest.fillModel=conservative,probabilistic');
    expect(sweepGrid([a, b])).toEqual([
      { 'strategies.post-arb.params.minEdge': '0.01', 'backtest.fillModel': 'conservative' },
      { 'strategies.post-arb.params.minEdge': '0.01', 'backtest.fillModel': 'probabilistic' },
      { 'strategies.post-arb.params.minEdge': '0.02', 'backtest.fillModel': 'conservative' },
      { 'strategies.post-arb.params.minEdge': '0.02', 'backtest.fillModel': 'probabilistic' },
    ]);
    for (const bad of ['nokey', '=1', 'a.b=', 'a..b=1', 'a=1,,2'])
      expect(() => parseSweepAxis(bad)).toThrow(BacktestConfigError);
  });

  it('sets values by path, lists addressed by entry id, numbers as numbers', () => {
    const text = applyVariant(readFileSync(CONFIG, 'utf8'), {
      'strategies.post-arb.params.minEdge': '0.03',
      'backtest.latency.ms': '10',
      'backtest.latency.kind': 'fixed',
    });
    const doc = parse(text) as { strategies: { params: { minEdge: unknown } }[]; backtest: { latency: unknown } };
    expect(doc.strategies[0]!.params.minEdge).toBe(0.03);
    // Keys are set one by one into what is there: the old lognormal keys stay, and validation refuses the mix.
    expect(doc.backtest.latency).toEqual({ kind: 'fixed', medianMs: 40, sigma: 0.5, ms: 10 });
    expect(() => applyVariant(readFileSync(CONFIG, 'utf8'), { 'strategies.nobody.params.x': '1' })).toThrow(
      /no entry with id "nobody"/,
    );
  });
});

describe('sweep on worker threads', () => {
  let tape: Tape;
  beforeAll(async () => {
    tape = await loadTape(['backtest/data/paper-seed11-drops']);
  });
  /** The report of the same config text run in this process, to compare a worker's with. */
  const inProcess = async (text: string, path: string) => {
    const config = await parseConfigText(text, path, { resolveStrategy: defaultStrategyResolver(strategies) });
    return reportJson(await runBacktest({ config, tape, logger: silentLogger() }));
  };

  it('runs each variant in a worker over one serialised tape, with the same result as in process', async () => {
    const text = readFileSync(CONFIG, 'utf8');
    const variants = sweepGrid([parseSweepAxis('backtest.fillModel=conservative,risk-averse')]);
    const out = await runSweep(tape, sweepRuns(text, variants), CONFIG, { workers: 2 });
    expect(out.map((o) => o.error)).toEqual([null, null]);
    expect(reportJson(out[1]!.result!)).toBe(await inProcess(applyVariant(text, variants[1]!), CONFIG));
    expect(out[0]!.result!.report.run.fillModel).toEqual({ kind: 'conservative', power: 2 });
  }, 60_000);

  it('runs its workers compiled for built-in strategies (as the test above did), from source for a strategy file', async () => {
    const builtIn = sweepRuns(readFileSync(CONFIG, 'utf8'), sweepGrid([parseSweepAxis('backtest.seed=1,2')]));
    expect(String(await sweepWorkerScript(builtIn))).toMatch(
      /node_modules\/\.cache\/linesmith\/compiled\/.*\/main\.mjs$/,
    );
    const path = 'test/backtest/fixtures/exiting-post-arb.yaml';
    const own = sweepRuns(readFileSync(path, 'utf8'), sweepGrid([parseSweepAxis('backtest.seed=1,2')]));
    expect(String(await sweepWorkerScript(own))).toMatch(/src\/app\/sweep-worker\.mjs$/);
  });

  it('with a report folder, each worker writes its variant there as it runs and hands back a summary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linesmith-sweep-'));
    try {
      const text = readFileSync(CONFIG, 'utf8');
      const variants = sweepGrid([parseSweepAxis('backtest.fillModel=bogus,conservative')]);
      const out = await runSweep(tape, sweepRuns(text, variants), CONFIG, { workers: 1, reportDir: dir });
      expect(out[0]!.error).toMatch(/fillModel/);
      expect(out[0]!.reportDir).toBeNull();
      const ran = out[1]!;
      expect(ran.reportDir).toBe(join(dir, variantFolder(1)));
      // A failed variant leaves no folder.
      expect(readdirSync(dir)).toEqual([variantFolder(1)]);
      const config = await parseConfigText(applyVariant(text, variants[1]!), CONFIG, {
        resolveStrategy: defaultStrategyResolver(strategies),
      });
      const whole = await runBacktest({ config, tape, logger: silentLogger() });
      const written = (name: string) => readFileSync(join(ran.reportDir!, name), 'utf8');
      expect(written('report.json')).toBe(reportJson(whole));
      const orders = written('orders.csv').trimEnd().split('\n');
      expect(orders.length - 1).toBe(whole.orders.length);
      expect(written('fills.csv').trimEnd().split('\n').length - 1).toBe(whole.fills.length);
      // The summary carries what the sweep's table and page read, and no rows.
      expect(ran.result!.orders).toHaveLength(0);
      expect(ran.result!.fills).toHaveLength(0);
      expect(ran.result!.report.metrics).toEqual(whole.report.metrics);
      expect(ran.result!.report.series.pnl).toEqual(whole.report.series.pnl);
      const sweep = await writeSweepReport(dir, out);
      expect(sweep.variants).toEqual([null, join(ran.reportDir!, 'report.html')]);
      expect(written('report.html')).toContain(whole.fills[0]!.gameID);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a failed variant fails alone; variants that follow on one reused worker give the reports of fresh runs', async () => {
    const text = readFileSync(CONFIG, 'utf8');
    const variants = sweepGrid([parseSweepAxis('backtest.fillModel=bogus,conservative,risk-averse,conservative')]);
    const out = await runSweep(tape, sweepRuns(text, variants), CONFIG, { workers: 1 });
    // The bad variant fails inside its worker; the lane goes on with a fresh one.
    expect(out[0]!.error).toMatch(/fillModel/);
    expect(out.slice(1).map((o) => o.error)).toEqual([null, null, null]);
    // Nothing of one run leaks into the next one on the same worker.
    expect(reportJson(out[3]!.result!)).toBe(reportJson(out[1]!.result!));
    expect(reportJson(out[1]!.result!)).toBe(await inProcess(applyVariant(text, variants[1]!), CONFIG));
  }, 60_000);

  it('a worker that dies mid-variant fails only that variant; the lane goes on with a fresh worker', async () => {
    const path = 'test/backtest/fixtures/exiting-post-arb.yaml';
    const text = readFileSync(path, 'utf8');
    const variants = sweepGrid([parseSweepAxis('strategies.arb.params.exitCode=0,3,0')]);
    const out = await runSweep(tape, sweepRuns(text, variants), path, { workers: 1 });
    expect(out.map((o) => o.error)).toEqual([null, 'worker exited with code 3', null]);
    expect(reportJson(out[2]!.result!)).toBe(reportJson(out[0]!.result!));
    expect(reportJson(out[0]!.result!)).toBe(await inProcess(text, path));
  }, 60_000);

  it("keeps each worker thread's heap under its ceiling: a variant that outgrows it fails alone", async () => {
    const text = readFileSync(CONFIG, 'utf8');
    const variants = sweepGrid([parseSweepAxis('backtest.fillModel=conservative')]);
    const starved = await runSweep(tape, sweepRuns(text, variants), CONFIG, { workers: 1, threadHeapMb: 4 });
    expect(starved[0]!.result).toBeNull();
    expect(starved[0]!.error).toMatch(/memory limit/);
    const roomy = await runSweep(tape, sweepRuns(text, variants), CONFIG, { workers: 1, threadHeapMb: 256 });
    expect(roomy[0]!.error).toBeNull();
  }, 60_000);

  it('applies the CLI overrides (seed, fill model) to every variant', async () => {
    const runs = sweepRuns(readFileSync(CONFIG, 'utf8'), sweepGrid([parseSweepAxis('backtest.power=3')]));
    const [out] = await runSweep(tape, runs, CONFIG, {
      overrides: { seed: 5, fillModel: 'probabilistic' },
      workers: 1,
    });
    expect(out!.error).toBeNull();
    expect(out!.result!.report.run.seed).toBe(5);
    expect(out!.result!.report.run.fillModel).toEqual({ kind: 'probabilistic', power: 3 });
  }, 60_000);
});
