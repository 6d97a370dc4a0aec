import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { StrategyErrors, strategyErrorLines } from '../../src/runtime/strategy-errors.ts';

/** A logger whose lines are kept, parsed. */
function captured() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'trace' },
    { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) },
  );
  return { logger, lines };
}

describe('StrategyErrors', () => {
  it('logs the first stack of each distinct error, then only at 10, 100, 1000 repeats, and counts every one', () => {
    const { logger, lines } = captured();
    const errors = new StrategyErrors({ logger });
    for (let i = 0; i < 2_500; i++) {
      errors.evaluated('a');
      errors.threw('a', `g${i % 7}`, new TypeError('boom'), i);
    }
    expect(lines.filter((l) => (l['err'] as { stack?: string } | undefined)?.stack)).toHaveLength(1);
    expect(lines.map((l) => l['count']).filter(Boolean)).toEqual([10, 100, 1000]);
    const r = errors.report();
    expect(r.total).toBe(2_500);
    expect(r.strategies[0]).toMatchObject({
      strategy: 'a',
      evaluations: 2_500,
      failed: 2_500,
      errors: 2_500,
      kinds: { threw: 2_500, 'bad-result': 0, 'malformed-intent': 0 },
    });
    expect(r.strategies[0]!.distinct).toEqual([
      {
        kind: 'threw',
        error: 'TypeError: boom',
        at: expect.stringMatching(/^strategy-error-counts\.test\.ts:\d+:\d+$/) as unknown,
        count: 2_500,
        firstGame: 'g0',
        firstAt: 0,
      },
    ]);
    expect(errors.failingEveryEvaluation().map((s) => s.strategy)).toEqual(['a']);
  });

  it('counts kinds apart, keeps at most 20 distinct errors per strategy, and lists strategies without errors', () => {
    const { logger, lines } = captured();
    const errors = new StrategyErrors({ logger });
    errors.evaluated('a');
    errors.badResult('a', 'g', 'quote() returned undefined, not an array of intents', 0);
    errors.evaluated('a');
    errors.malformed(
      'a',
      'g',
      [
        { index: 0, key: 'k', problem: 'odds NaN' },
        { index: 1, key: 'j', problem: 'odds NaN' },
      ],
      1,
    );
    for (let i = 0; i < 30; i++) errors.threw('a', 'g', `message ${i}`, 2);
    errors.evaluated('b');
    const r = errors.report(['b', 'c']);
    expect(r.strategies.map((s) => s.strategy)).toEqual(['b', 'c', 'a']);
    const a = r.strategies[2]!;
    expect(a.kinds).toEqual({ threw: 30, 'bad-result': 1, 'malformed-intent': 2 });
    expect(a.distinct).toHaveLength(20);
    expect(a.otherDistinct).toBe(12);
    expect(a.distinct.find((d) => d.kind === 'malformed-intent')?.count).toBe(2);
    // 20 first occurrences plus one note that further distinct errors are counted only.
    expect(lines).toHaveLength(21);
    expect(strategyErrorLines(r, 'errors ')[0]).toBe(
      'errors 33: b none; c none; a 31 of 2 evaluations failed (threw 30, bad-result 1, malformed intents 2)',
    );
  });
});
