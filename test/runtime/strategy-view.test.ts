import { describe, expect, it } from 'vitest';
import type { OwnBook } from '../../src/orders/own-book.ts';
import type { GameState } from '../../src/market-model/types.ts';
import { LazyStrategyView, type ViewInputs } from '../../src/runtime/strategy-view.ts';
import { viewWith } from '../../src/strategy/view-with.ts';

/** An own book that answers with fixed values and counts what it was asked. */
function countingBook() {
  const calls: string[] = [];
  const book = {
    activity: (g: string, now: number) => (
      calls.push(`activity ${g} ${now}`),
      { takerArrivalsPerMinute: 2, volumePerMinute: 9 }
    ),
    fair: (g: string) => (calls.push(`fair ${g}`), null),
    refusals: (s: string, g: string, now: number) => (calls.push(`refusals ${s} ${g} ${now}`), []),
    liveOrders: (g: string, s: string) => (calls.push(`orders ${g} ${s}`), [{ clientId: 'o1' }]),
    fills: (g: string, s: string) => (calls.push(`fills ${g} ${s}`), [{ fillId: 'f1' }]),
    positions: (g: string, s: string) => (calls.push(`positions ${g} ${s}`), [{ risk: 1 }]),
    positionsLiability: (g: string, s: string) => (calls.push(`liability ${g} ${s}`), -12.5),
    projectedLiability: (g: string) => (calls.push(`account ${g}`), -40),
  };
  return { calls, book: book as unknown as OwnBook, inputs: book };
}

const game = { id: 'g1' } as GameState;
const view = (own: OwnBook, inputs: ViewInputs) => new LazyStrategyView(own, 's1', 5, game, 'active', 0.01, inputs);

describe('a strategy’s view', () => {
  it('reads the own book only for what the strategy reads, once each, for its own game and strategy', () => {
    const { calls, book, inputs } = countingBook();
    const v = view(book, inputs);
    expect(v.now).toBe(5);
    expect(v.game).toBe(game);
    expect(calls).toEqual([]);
    expect(v.liability).toBe(-12.5);
    expect(v.liability).toBe(-12.5);
    expect(calls).toEqual(['liability g1 s1']);
    expect(v.orders).toEqual([{ clientId: 'o1' }]);
    expect(v.orders).toBe(v.orders);
    expect(v.fills).toBe(v.fills);
    expect(v.positions).toBe(v.positions);
    expect(v.accountLiability).toBe(-40);
    expect(v.accountLiability).toBe(-40);
    expect(calls).toEqual(['liability g1 s1', 'orders g1 s1', 'fills g1 s1', 'positions g1 s1', 'account g1']);
    calls.length = 0;
    expect(v.activity).toEqual({ takerArrivalsPerMinute: 2, volumePerMinute: 9 });
    expect(v.activity).toBe(v.activity);
    expect(v.fair).toBeNull();
    expect(v.fair).toBeNull();
    expect(v.refusals).toBe(v.refusals);
    expect(calls).toEqual(['activity g1 5', 'fair g1', 'refusals s1 g1 5']);
  });

  it('passes through viewWith with the changed fields replaced and the others still read lazily', () => {
    const { calls, book, inputs } = countingBook();
    const inner = viewWith(view(book, inputs), { fair: new Map([['ml', 0.6]]), liability: -1 });
    expect(calls).toEqual([]);
    expect(inner.fair?.get('ml')).toBe(0.6);
    expect(inner.liability).toBe(-1);
    expect(inner.now).toBe(5);
    expect(calls).toEqual([]);
    expect(inner.accountLiability).toBe(-40);
    expect(inner.orders).toEqual([{ clientId: 'o1' }]);
    expect(calls).toEqual(['account g1', 'orders g1 s1']);
    // Spreading drops what is worked out on first read: why viewWith exists.
    expect('liability' in { ...view(book, inputs) }).toBe(false);
  });
});
