import fc from 'fast-check';
import { expect, it } from 'vitest';
import { mutatedValue, toText, fuzzRuns } from './support.ts';

// Found by CI: two steps could put one shared constant inside itself, and the body could not be written.
it('a mutated value is always writable as text, and mutations do not change the shared constants', () => {
  const before = toText(fc.sample(mutatedValue({ a: [1, { b: 2 }] }), { numRuns: 1, seed: 1 }));
  fc.assert(
    fc.property(mutatedValue({ a: [1, { b: 2 }], c: 'x' }), (v) => {
      if (v !== undefined) expect(typeof toText(v)).toBe('string');
    }),
    { numRuns: fuzzRuns(50_000) },
  );
  expect(toText(fc.sample(mutatedValue({ a: [1, { b: 2 }] }), { numRuns: 1, seed: 1 }))).toBe(before);
});
