import { describe, expect, it } from 'vitest';
import { applyLevelFlows, type FillModelConfig, type QueuedOrder } from '../../src/backtest/venue/queue-model.ts';

const conservative: FillModelConfig = { kind: 'conservative', power: 2 };
const riskAverse: FillModelConfig = { kind: 'risk-averse', power: 2 };
const probabilistic: FillModelConfig = { kind: 'probabilistic', power: 2 };

const order = (id: string, rank: number, front: number, capacity: number, seq = 1): QueuedOrder => ({
  id,
  rank,
  seq,
  front,
  capacity,
});
const fills = (out: ReturnType<typeof applyLevelFlows>) => Object.fromEntries(out.map((f) => [f.order.id, f.stake]));

describe('queue models', () => {
  it('fill from volume that traded through our price in every model, up to our capacity', () => {
    for (const m of [conservative, riskAverse, probabilistic]) {
      const o = order('a', 110, 0, 30);
      // A taker accepted rank 105, worse than our 110: it would have taken ours first.
      expect(fills(applyLevelFlows(m, [o], [{ rank: 105, traded: 50, cancelled: 0, sizeAfter: 0 }]))).toEqual({
        a: 30,
      });
    }
  });

  it('never fill from trades at a better price than ours', () => {
    const o = order('a', 100, 0, 30);
    expect(applyLevelFlows(riskAverse, [o], [{ rank: 105, traded: 50, cancelled: 0, sizeAfter: 0 }])).toEqual([]);
  });

  it('use each traded unit once across our orders, best price first, then time', () => {
    const a = order('a', 110, 0, 20, 2);
    const b = order('b', 108, 0, 20, 1);
    const c = order('c', 110, 0, 20, 3);
    expect(
      fills(applyLevelFlows(conservative, [a, b, c], [{ rank: 100, traded: 50, cancelled: 0, sizeAfter: 0 }])),
    ).toEqual({ a: 20, c: 20, b: 10 });
  });

  it('conservative: trades at our own price never fill us', () => {
    const o = order('a', 110, 0, 30);
    expect(applyLevelFlows(conservative, [o], [{ rank: 110, traded: 100, cancelled: 0, sizeAfter: 0 }])).toEqual([]);
  });

  it('risk-averse: trades at our price eat the queue ahead first; cancels do not move us up, but the estimate is capped to the level', () => {
    const o = order('a', 110, 100, 30);
    expect(applyLevelFlows(riskAverse, [o], [{ rank: 110, traded: 60, cancelled: 0, sizeAfter: 40 }])).toEqual([]);
    expect(o.front).toBe(40);
    // 20 cancelled from a level of 40: we cannot tell where from, so we stay at 20 ahead (the cap).
    applyLevelFlows(riskAverse, [o], [{ rank: 110, traded: 0, cancelled: 20, sizeAfter: 20 }]);
    expect(o.front).toBe(20);
    // 35 trades: 20 ahead of us, then 15 fill us.
    expect(fills(applyLevelFlows(riskAverse, [o], [{ rank: 110, traded: 35, cancelled: 0, sizeAfter: 0 }]))).toEqual({
      a: 15,
    });
    expect(o.front).toBe(0);
  });

  it('risk-averse: our later order at the same price stands behind the earlier one', () => {
    const a = order('a', 110, 10, 5, 1);
    const b = order('b', 110, 30, 50, 2);
    // 20 trade: 10 ahead of a, 5 fill a, 5 come off b's queue (the orders that joined between).
    expect(
      fills(applyLevelFlows(riskAverse, [a, b], [{ rank: 110, traded: 20, cancelled: 0, sizeAfter: 100 }])),
    ).toEqual({ a: 5 });
    expect(b.front).toBe(15);
  });

  it('probabilistic: a cancel comes off the queue ahead by front^n / (front^n + back^n)', () => {
    const o = order('a', 110, 30, 10);
    // Level was 100 (30 ahead, 70 behind); 50 cancelled. Share ahead: 900 / (900 + 4900).
    applyLevelFlows(probabilistic, [o], [{ rank: 110, traded: 0, cancelled: 50, sizeAfter: 50 }]);
    expect(o.front).toBeCloseTo(30 - (50 * 900) / (900 + 4900), 10);
    const lin = order('b', 110, 30, 10);
    applyLevelFlows(
      { kind: 'probabilistic', power: 1 },
      [lin],
      [{ rank: 110, traded: 0, cancelled: 50, sizeAfter: 50 }],
    );
    expect(lin.front).toBeCloseTo(30 - 50 * 0.3, 10);
    // The risk-averse model would not have moved us at all.
    const ra = order('c', 110, 30, 10);
    applyLevelFlows(riskAverse, [ra], [{ rank: 110, traded: 0, cancelled: 50, sizeAfter: 50 }]);
    expect(ra.front).toBe(30);
  });
});
