import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { loadTape } from '../../src/backtest/tape.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { silentLogger } from '../../src/shared/logger.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG_PATH = join(ROOT, 'test/browser/fixtures/small.yaml');

describe('the extras report.html draws beyond report.json', () => {
  it('P&L per strategy and per league add up to the total at every sample; every game in the series is named', async () => {
    const full = await loadTape([join(ROOT, 'backtest/data/paper-seed11-drops')]);
    const tape = { ...full, items: full.items.slice(0, 3_500) };
    const text = (await readFile(CONFIG_PATH, 'utf8')).replace(
      'interest: { leagues: [NBA] }',
      'interest: { leagues: [NBA, NFL] }',
    );
    const config = await parseConfigText(text, CONFIG_PATH, { resolveStrategy: defaultStrategyResolver(strategies) });
    const { report, extras } = await runBacktest({ config, tape, logger: silentLogger() });
    expect(report.metrics.volume.fills).toBeGreaterThan(0);
    expect(Object.keys(extras.pnlByStrategy)).toEqual(['fixed-spread']);
    expect(Object.keys(extras.pnlByLeague).length).toBeGreaterThanOrEqual(1);
    for (const groups of [extras.pnlByStrategy, extras.pnlByLeague]) {
      // At each sample time: Σ over the groups with a row = the total P&L (the groups start with their first fill, when the total has moved only by them).
      const sums = new Map<number, number>();
      for (const rows of Object.values(groups)) for (const [t, v] of rows) sums.set(t!, (sums.get(t!) ?? 0) + v!);
      let compared = 0;
      for (const [t, , , total] of report.series.pnl) {
        const s = sums.get(t!);
        if (s === undefined) continue;
        expect(s).toBeCloseTo(total!, 6);
        compared++;
      }
      expect(compared).toBeGreaterThan(10);
    }
    const named = new Set(Object.keys(extras.games));
    for (const id of Object.keys(report.series.liability)) expect(named.has(id)).toBe(true);
    for (const q of report.series.quotes) expect(named.has(q.gameID)).toBe(true);
    for (const g of Object.values(extras.games)) {
      expect(g.away).not.toBe('');
      expect(g.home).not.toBe('');
      expect(g.start === null || Number.isFinite(g.start)).toBe(true);
    }
  });
});
