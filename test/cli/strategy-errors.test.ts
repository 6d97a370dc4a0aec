import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BacktestReport } from '../../src/backtest/report/types.ts';
import { linesmith } from '../support/cli.ts';

/**
 * A broken strategy is loud and never floods: every failure is counted by strategy and kind,
 * the first stack of each distinct error is logged once, and every summary shows the counts.
 */
const FEED = 'backtest/data/paper-seed13-deep';
const THROWS = 'test/cli/fixtures/throwing.yaml';
const SOMETIMES = 'test/cli/fixtures/throwing-sometimes.yaml';
const stacks = (text: string) => (text.match(/at Object\.quote/g) ?? []).length;
const report = async (dir: string) => JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as BacktestReport;

describe('a strategy whose quote() throws', () => {
  it('backtest: one stack on stderr, counts in the summary and the reports, and a non-zero exit with a one-line reason', async () => {
    const out = await mkdtemp(join(tmpdir(), 'ls-strat-err-'));
    const r = await linesmith(['backtest', '--config', THROWS, '--feed', FEED, '--report', out, '--no-progress']);
    expect(r.code).toBe(1);
    expect(stacks(r.stderr)).toBe(1);
    expect(r.stderr.length).toBeLessThan(20_000);
    expect(r.stderr).toMatch(
      /^linesmith backtest: strategy broken failed on every one of its [\d,]+ evaluations: TypeError: fixture: the fair price is not a number$/m,
    );
    expect(r.stdout).toMatch(/strategy errors +[\d,]+: broken [\d,]+ of [\d,]+ evaluations failed \(threw [\d,]+\)/);
    const rep = await report(out);
    const broken = rep.strategyErrors.strategies.find((s) => s.strategy === 'broken')!;
    expect(broken.evaluations).toBeGreaterThan(100);
    expect(broken.failed).toBe(broken.evaluations);
    expect(broken.kinds.threw).toBe(broken.evaluations);
    expect(broken.distinct).toHaveLength(1);
    expect(broken.distinct[0]).toMatchObject({
      kind: 'threw',
      error: 'TypeError: fixture: the fair price is not a number',
      count: broken.evaluations,
    });
    expect(broken.distinct[0]!.at).toMatch(/throws\.ts:\d+/);
    expect(rep.strategyErrors.total).toBe(broken.evaluations);
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/Strategy errors/);
    expect(html).toContain('fixture: the fair price is not a number');
  }, 120_000);

  it('backtest: a strategy failing on some games is counted per strategy; --strict makes its first error fatal', async () => {
    const out = await mkdtemp(join(tmpdir(), 'ls-strat-err-'));
    const lenient = await linesmith([
      'backtest',
      '--config',
      SOMETIMES,
      '--feed',
      FEED,
      '--report',
      out,
      '--no-progress',
    ]);
    expect(lenient.code).toBe(0);
    expect(stacks(lenient.stderr)).toBe(1);
    expect(lenient.stdout).toMatch(
      /strategy errors +[\d,]+: flaky [\d,]+ of [\d,]+ evaluations failed \(threw [\d,]+\); fixed-spread none/,
    );
    const rep = await report(out);
    const flaky = rep.strategyErrors.strategies.find((s) => s.strategy === 'flaky')!;
    expect(flaky.failed).toBeGreaterThan(0);
    expect(flaky.failed).toBeLessThan(flaky.evaluations);
    expect(rep.strategyErrors.strategies.find((s) => s.strategy === 'fixed-spread')).toMatchObject({
      failed: 0,
      errors: 0,
    });
    expect(rep.metrics.orders.placed).toBeGreaterThan(0);

    const strict = await linesmith([
      'backtest',
      '--config',
      SOMETIMES,
      '--feed',
      FEED,
      '--report',
      out,
      '--no-progress',
      '--strict',
    ]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(
      /^linesmith backtest: --strict: strategy flaky threw on game \w+: RangeError: fixture: no ladder for this game$/m,
    );
    // The replay stops after the evaluation round that erred: its other games may have erred in it too.
    const stopped = (await report(out)).strategyErrors;
    expect(stopped.total).toBeGreaterThanOrEqual(1);
    expect(stopped.total).toBeLessThan(flaky.errors);
  }, 120_000);

  it("sweep: the table shows each variant's strategy errors, and a variant whose strategy failed on every evaluation fails the sweep", async () => {
    const out = await mkdtemp(join(tmpdir(), 'ls-strat-err-'));
    const r = await linesmith([
      'backtest',
      '--config',
      THROWS,
      '--feed',
      FEED,
      '--report',
      out,
      '--no-progress',
      '--sweep',
      'backtest.seed=3,4',
      '--workers',
      '2',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/strategy errors/);
    const rows = r.stdout.split('\n').filter((l) => /backtest\.seed=/.test(l));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/[\d,]+ \(broken: every evaluation\)/);
    expect(r.stderr).toMatch(/^linesmith backtest: 2 variant\(s\) had a strategy fail on every evaluation/m);
  }, 120_000);

  it('paper: the summary counts the errors, and stderr holds one stack', async () => {
    const r = await linesmith(['paper', '--config', THROWS, '--duration', '4s', '--no-status']);
    expect(stacks(r.stderr)).toBe(1);
    expect(r.stdout).toMatch(/strategy errors +[\d,]+: broken [\d,]+ of [\d,]+ evaluations failed \(threw [\d,]+\)/);
    expect(r.stdout).toMatch(
      /broken: [\d,]+× TypeError: fixture: the fair price is not a number \(at throws\.ts:\d+:\d+\)/,
    );
  }, 120_000);
});
