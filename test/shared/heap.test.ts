import { describe, expect, it } from 'vitest';
import { TimerHeap } from '../../src/shared/heap.ts';
import { createRandom } from '../../src/shared/random.ts';

describe('TimerHeap', () => {
  it('pops by time, and items of one time in the order they were pushed, however pushes and pops interleave', () => {
    const random = createRandom(7);
    for (let round = 0; round < 50; round++) {
      const heap = new TimerHeap<{ at: number; n: number }>();
      // The reference: every item pushed and not yet popped, sorted by time then push order.
      const waiting: { at: number; n: number }[] = [];
      let n = 0;
      for (let step = 0; step < 400; step++) {
        if (random.int(0, 2) > 0 || waiting.length === 0) {
          // Few distinct times, so many items share one.
          const item = { at: random.int(0, 20), n: n++ };
          heap.push(item);
          waiting.push(item);
        } else {
          waiting.sort((a, b) => a.at - b.at || a.n - b.n);
          expect(heap.peek()).toBe(waiting[0]);
          expect(heap.pop()).toBe(waiting.shift());
        }
        expect(heap.size).toBe(waiting.length);
      }
      waiting.sort((a, b) => a.at - b.at || a.n - b.n);
      const rest: { at: number; n: number }[] = [];
      for (let x = heap.pop(); x !== undefined; x = heap.pop()) rest.push(x);
      expect(rest).toEqual(waiting);
      expect(heap.peek()).toBeUndefined();
    }
  });
});
