import { describe, expect, it } from 'vitest';
import { PlacementSum } from '../../src/backtest/report/placement-sum.ts';
import { createRandom } from '../../src/shared/random.ts';

describe('PlacementSum', () => {
  it('sums in placement order whatever order the orders end in, holding only what is still open behind', () => {
    for (const seed of [1, 2, 3]) {
      const random = createRandom(seed);
      const sum = new PlacementSum();
      const values: (number | null)[] = [];
      let expected = 0;
      const open: number[] = [];
      // Orders placed in runs, ended mostly in order, some late: the slots empty and fill again.
      for (let seq = 0; seq < 5_000; seq++) {
        values.push(random.float() < 0.2 ? null : random.float() * 1e3 + 1e-7 * seq);
        open.push(seq);
        while (open.length > 0 && random.float() < 0.6) {
          const at = random.float() < 0.9 ? 0 : Math.floor(random.float() * open.length);
          const [s] = open.splice(at, 1);
          sum.set(s!, values[s!]!);
        }
        if (open.length === 0) expect(sum.held).toBe(0);
      }
      for (const s of open) sum.set(s, values[s]!);
      for (const v of values) if (v !== null) expected += v;
      expect(sum.total()).toBe(expected);
      expect(sum.held).toBe(0);
    }
  });
});
