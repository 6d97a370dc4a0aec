import { describe, expect, it } from 'vitest';
import { decodeReference } from '../../src/exchange/orders/user-reference.ts';
import { StrategyOf } from '../../src/backtest/report/strategy-of.ts';

describe('StrategyOf', () => {
  it('reads every reference as decodeReference does, whatever was read before it', () => {
    const refs = [
      'ls1:mm:a1',
      'ls1:mm:a2',
      'ls1:mm:',
      'ls1:mm',
      'ls1:mm:x:y',
      'ls1:mm:x',
      'ls1:m:x',
      'ls1:mmm:x',
      'ls2:mm:x',
      'xls1:mm:x',
      'ls1::x',
      'ls1:a:b:c',
      'ls1:a:b:d',
      'ls1:a:bd',
      'ls1:a:b',
      'ls1:mm:a1',
      'ls1:clientonly',
      '',
      null,
      undefined,
      'mm:a1',
      'ls1:mm:a1',
    ];
    const of = new StrategyOf();
    // Every pair in both orders: each reference read right after each other one.
    for (const a of refs)
      for (const b of refs) {
        expect(of.read(a)).toBe(decodeReference(a)?.strategyId ?? '');
        expect(of.read(b)).toBe(decodeReference(b)?.strategyId ?? '');
      }
  });
});
