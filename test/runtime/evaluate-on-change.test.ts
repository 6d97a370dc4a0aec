import { describe, expect, it } from 'vitest';
import { fixedSpread } from '../../src/app/strategy-registry.ts';
import { reportJson } from '../../src/backtest/report/write.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import type { Decision } from '../../src/runtime/runtime.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import type { StrategyModule } from '../../src/strategy/types.ts';
import { firstFileTape } from '../backtest/support-replay.ts';

/**
 * Evaluate on change: a strategy is asked again only when something it read changed. The
 * same fixed-spread runs over the first file of paper-seed7 twice: once as it is, once
 * wrapped so that it reads the clock (which the runtime cannot know it ignores, so it is asked
 * on every evaluation, as every strategy was before). Both must decide the same, and the
 * first must be asked far less often: the echoes of our own orders and the throttle's
 * wake-ups that change nothing it reads no longer ask it.
 */
const tape = firstFileTape();

function counting(name: string, readsClock: boolean): { module: StrategyModule<unknown>; calls: () => number } {
  let calls = 0;
  const inner = fixedSpread as StrategyModule<unknown>;
  const module: StrategyModule<unknown> = {
    ...inner,
    name,
    quote(view, params) {
      calls++;
      if (readsClock && !(view.now >= 0)) throw new Error('a clock before the epoch');
      return inner.quote(view, params);
    },
  };
  return { module, calls: () => calls };
}

async function run(module: StrategyModule<unknown>) {
  const config = await loadConfig('test/backtest/golden/fixed-spread.yaml', {
    resolveStrategy: defaultStrategyResolver(new Map([['fixed-spread', module]])),
  });
  const decisions: Decision[] = [];
  const result = await runBacktest({
    config,
    tape: tape(),
    logger: silentLogger(),
    onDecision: (d) => decisions.push(d),
  });
  return { decisions, report: reportJson(result) };
}

/** A report without the strategies' evaluation counts: the one figure asking less must change. */
function withoutEvaluationCounts(json: string): unknown {
  const r = JSON.parse(json) as { strategyErrors: { strategies: { evaluations?: number }[] } };
  for (const s of r.strategyErrors.strategies) delete s.evaluations;
  return r;
}

describe('evaluate on change', () => {
  it('asks a strategy again only when what it reads changed, and decides the same as asking on every mark', async () => {
    const always = counting('fixed-spread', true);
    const onChange = counting('fixed-spread', false);
    const a = await run(always.module);
    const b = await run(onChange.module);
    expect(b.decisions).toEqual(a.decisions);
    expect(withoutEvaluationCounts(b.report)).toEqual(withoutEvaluationCounts(a.report));
    expect(b.report).not.toBe(a.report);
    expect(a.decisions.length).toBeGreaterThan(100);
    // Measured on this file: 3,579 asks instead of 4,731. Most of those left are the market
    // moving a book it quotes (a synthetic market busy on the main lines), which must ask.
    expect(onChange.calls()).toBeLessThan(always.calls() * 0.85);
  }, 120_000);
});

describe('a strategy that reads the clock', () => {
  const EVERY = 30_000;
  function clockProbe(seen: Map<string, number[]>, reevaluateEvery?: number): StrategyModule<unknown> {
    return {
      name: 'fixed-spread',
      description: 'reads the clock and its game id, quotes nothing',
      params: fixedSpread.params,
      ...(reevaluateEvery !== undefined ? { reevaluateEvery } : {}),
      quote(view) {
        const id = view.game.id;
        const at = seen.get(id) ?? [];
        at.push(view.now);
        seen.set(id, at);
        return [];
      },
    };
  }

  it('is asked on every look without a declaration, and once per `reevaluateEvery` with one, quiet game or not', async () => {
    const undeclared = new Map<string, number[]>();
    const declared = new Map<string, number[]>();
    await run(clockProbe(undeclared) as StrategyModule<unknown>);
    await run(clockProbe(declared, EVERY) as StrategyModule<unknown>);
    const gaps: number[] = [];
    for (const [gameID, at] of declared) {
      const every = undeclared.get(gameID) ?? [];
      // Nothing else it reads changes: asked far less often than on every look at the game.
      expect(at.length).toBeLessThan(every.length / 4);
      for (let i = 1; i < at.length; i++) gaps.push(at[i]! - at[i - 1]!);
    }
    // When its quotes are due, and then at once (one throttle at most), busy game or quiet.
    // The few others: the game went live or ended, or a halt, which it also reads.
    const due = gaps.filter((g) => g >= EVERY && g <= EVERY + 250);
    expect(gaps.length).toBeGreaterThan(50);
    expect(due.length).toBeGreaterThan(gaps.length * 0.95);
  }, 120_000);
});
