import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../src/shared/json-chunks.ts';

const joined = (v: unknown, depth: number) => [...jsonChunks(v, depth)].join('');

/** JSON-like values with what JSON.stringify treats specially: undefined, functions, toJSON, getters, boxes. */
const awkward = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(undefined, () => 1, Number.NaN, -0, Infinity, new Date(0), new Number(3), new String('s')),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 5 }),
    tie('value').map((inner) => ({ toJSON: (k: string) => ({ k, inner }) })),
    tie('value').map((inner) => {
      const o = {};
      Object.defineProperty(o, 'got', { enumerable: true, get: () => inner });
      Object.defineProperty(o, 'hidden', { enumerable: false, value: 1 });
      return o;
    }),
  ),
})).value;

describe('jsonChunks', () => {
  test.prop([awkward, fc.integer({ min: 0, max: 6 })], { numRuns: 400 })(
    'joins to exactly what JSON.stringify writes, at any depth',
    (value, depth) => {
      expect(joined(value, depth)).toBe(JSON.stringify(value) ?? '');
    },
  );

  it('yields the parts of a large array separately below the depth it opens', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => [i, i / 3]);
    const chunks = [...jsonChunks({ series: { a: rows, b: rows } }, 3)];
    expect(chunks.length).toBeGreaterThan(2000);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(64);
    expect(chunks.join('')).toBe(JSON.stringify({ series: { a: rows, b: rows } }));
  });
});
