import { describe, expect, it } from 'vitest';
import { textBatches } from '../../src/shared/text-batches.ts';

describe('textBatches', () => {
  it('joins pieces into batches of at least the size, the last shorter, none empty, the text unchanged', () => {
    const pieces = ['ab', 'c', 'defg', '', 'h', 'ij'];
    const batches = [...textBatches(pieces, 3)];
    expect(batches).toEqual(['abc', 'defg', 'hij']);
    expect([...textBatches(['abcd', 'e'], 3)]).toEqual(['abcd', 'e']);
    expect([...textBatches(['', ''], 3)]).toEqual([]);
    expect([...textBatches([], 3)]).toEqual([]);
  });
});
