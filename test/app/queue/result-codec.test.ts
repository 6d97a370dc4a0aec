import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { decodeResult, encodeResult } from '../../../src/app/queue/result-codec.ts';
import type { BacktestResult } from '../../../src/backtest/report/types.ts';

describe('a variant result on its way from a worker to the coordinator', () => {
  // Shaped like a result: many similar order records, numbers that must come back exactly.
  const result = {
    events: 26_745,
    orders: Array.from({ length: 5_000 }, (_, i) => ({
      id: `o-${i}`,
      price: 1.91 + (i % 7) / 100,
      size: 10,
      at: 1e12 + i,
    })),
    report: { metrics: { pnl: { total: -0.1 + 0.2 } } },
  } as unknown as BacktestResult;

  it('comes back with the same values', async () => {
    const back = decodeResult(await encodeResult(result));
    expect(back).toEqual(result);
    expect(Object.is(back.report.metrics.pnl.total, result.report.metrics.pnl.total)).toBe(true);
  });

  it('is much smaller than its serialisation', async () => {
    expect((await encodeResult(result)).byteLength).toBeLessThan(serialize(result).byteLength / 4);
  });

  it('a damaged one is refused, not misread', async () => {
    const bytes = await encodeResult(result);
    expect(() => decodeResult(bytes.subarray(0, bytes.byteLength >> 1))).toThrow();
  });
});
