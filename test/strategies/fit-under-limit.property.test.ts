import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { worstCaseLiability } from '../../src/money/liability.ts';
import type { Position } from '../../src/money/position.ts';
import { fitUnderLimit, intentPosition, largestFit } from '../../src/strategy/liability-fit.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { oddsArb, positionArb, selectionArb } from '../support/money-arbitraries.ts';

const intentArb: fc.Arbitrary<QuoteIntent> = fc.record({
  key: fc.string({ maxLength: 4 }),
  selection: selectionArb,
  odds: oddsArb,
  size: fc.integer({ min: 1, max: 40_000 }).map((c) => c / 100),
});

/** The fit as first written: every intent sized with the exact worst case, no bound taken first. */
function referenceFit(
  positions: readonly Position[],
  intents: readonly QuoteIntent[],
  maxLiability: number,
  minSize: number,
): QuoteIntent[] {
  const bound = Math.min(-maxLiability, worstCaseLiability(positions));
  const acc: Position[] = [...positions];
  const out: QuoteIntent[] = [];
  for (const intent of intents) {
    const size = largestFit(
      intent.size,
      (s) => worstCaseLiability([...acc, intentPosition({ ...intent, size: s }, true)]) >= bound,
    );
    if (!(size >= minSize) || size <= 0) continue;
    const kept = size === intent.size ? intent : { ...intent, size };
    acc.push(intentPosition(kept, true));
    out.push(kept);
  }
  return out;
}

// fitUnderLimit skips the exact worst case while a lower bound of it already clears the
// limit; what it keeps, and at what size, must be what the exact checks alone keep.
describe('fitUnderLimit', () => {
  test.prop(
    [
      fc.array(positionArb, { maxLength: 6 }),
      fc.array(intentArb, { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 1, max: 3_000 }),
      fc.constantFrom(0, 1, 5),
    ],
    { numRuns: 400 },
  )(
    'keeps the intents and sizes of the exact checks, and the kept set stays within the limit',
    (positions, intents, maxLiability, minSize) => {
      const fitted = fitUnderLimit(positions, intents, maxLiability, minSize);
      expect(fitted).toEqual(referenceFit(positions, intents, maxLiability, minSize));
      const bound = Math.min(-maxLiability, worstCaseLiability(positions));
      expect(worstCaseLiability([...positions, ...fitted.map((i) => intentPosition(i, true))])).toBeGreaterThanOrEqual(
        bound - 1e-9,
      );
    },
  );
});
