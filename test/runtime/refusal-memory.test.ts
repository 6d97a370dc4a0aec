import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../src/market-model/types.ts';
import { RefusalMemory } from '../../src/runtime/refusal-memory.ts';
import { strategyGameKey } from '../../src/runtime/strategy-game-key.ts';

const refusal = (at: number, intentKey = 'k'): Refusal => ({
  source: 'exchange',
  reason: 'INSUFFICIENT_FUNDS',
  intentKey,
  detail: 'no money',
  at,
});

describe('RefusalMemory', () => {
  it("shows a pair's refusals for a minute, to that pair only", () => {
    const m = new RefusalMemory();
    expect(m.of('s', 'g', 0)).toEqual([]);
    m.remember('s', 'g', refusal(1_000));
    m.remember('s', 'g', refusal(30_000));
    expect(m.of('s', 'g', 60_000).map((r) => r.at)).toEqual([1_000, 30_000]);
    expect(m.of('s', 'g', 61_001).map((r) => r.at)).toEqual([30_000]);
    expect(m.of('t', 'g', 61_001)).toEqual([]);
    expect(m.of('s', 'h', 61_001)).toEqual([]);
  });

  it('keeps the last 20 of a pair, and nothing once its game is forgotten', () => {
    const m = new RefusalMemory();
    for (let i = 0; i < 25; i++) m.remember('s', 'g', refusal(i, `k${i}`));
    const shown = m.of('s', 'g', 25);
    expect(shown).toHaveLength(20);
    expect(shown[0]!.intentKey).toBe('k5');
    m.forget(strategyGameKey('s', 'g'));
    expect(m.of('s', 'g', 25)).toEqual([]);
  });
});
