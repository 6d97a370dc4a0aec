import { describe, expect, it } from 'vitest';
import { gradedPages$, GradedWalker, type GradedPage } from '../../src/exchange/rest/graded-walker.ts';
import { HttpStatusError } from '../../src/exchange/errors.ts';
import type { GradedSinceResponse } from '../../src/exchange/schemas/bets.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { napper } from '../../src/shared/sleep.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { flushMicrotasks } from '../support/microtasks.ts';

const T0 = Date.UTC(2026, 2, 1, 12);

/** Let the walk's promise chain run after a clock step. */
const settle = () => flushMicrotasks();

/** A getGradedSince that answers from a script and records the virtual time of every call. */
function scripted(time: ManualTimeSource, answer: (call: number) => GradedSinceResponse | Error) {
  const calls: number[] = [];
  const fetch = () => {
    calls.push(time.clock.now());
    const a = answer(calls.length);
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
  };
  return { calls, fetch };
}

const empty = (n: number): GradedSinceResponse => ({
  graded: [],
  hasMore: false,
  cursor: `c${n}`,
  settledThrough: new Date(T0).toISOString(),
});

describe('graded walk on a virtual clock (the runtime follows it with gradedPages$)', () => {
  it('polls once per pollMs when caught up, and stops calling, with no timer left, once unsubscribed', async () => {
    const time = manualTime(T0);
    const { calls, fetch } = scripted(time, empty);
    const walker = new GradedWalker(fetch, { scheduler: time.scheduler, logger: silentLogger(), pollMs: 1_000 });
    const pages: GradedPage[] = [];
    const sub = gradedPages$(walker).subscribe((p) => pages.push(p));
    await settle();
    for (let s = 1; s <= 5; s++) {
      time.advance(1_000);
      await settle();
    }
    expect(calls).toEqual([0, 1, 2, 3, 4, 5].map((s) => T0 + s * 1_000));
    expect(pages.map((p) => p.cursor)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    sub.unsubscribe();
    await settle();
    expect(time.nextDueAt()).toBeUndefined();
    time.advance(10_000);
    await settle();
    expect(calls).toHaveLength(6);
  });

  it('waits errorDelayMs after a failed call, and takes a refused cursor as a reason to resume from settledThrough at once', async () => {
    const time = manualTime(T0);
    const { calls, fetch } = scripted(time, (n) =>
      n === 2
        ? new Error('connection reset')
        : n === 3
          ? new HttpStatusError('GET /v2/graded', 400, 'bad cursor')
          : empty(n),
    );
    const walker = new GradedWalker(fetch, {
      scheduler: time.scheduler,
      logger: silentLogger(),
      pollMs: 1_000,
      errorDelayMs: 5_000,
    });
    const sub = gradedPages$(walker).subscribe();
    await settle();
    time.advance(1_000); // call 2 fails
    await settle();
    time.advance(4_999);
    await settle();
    expect(calls).toHaveLength(2);
    time.advance(1); // call 3: cursor refused; call 4 follows at once
    await settle();
    expect(calls).toEqual([T0, T0 + 1_000, T0 + 6_000, T0 + 6_000]);
    expect(walker.stats).toMatchObject({ errors: 1, cursorResets: 1, pages: 2 });
    sub.unsubscribe();
  });

  it('completes after the first caught-up page when not following', async () => {
    const time = manualTime(T0);
    const { calls, fetch } = scripted(time, (n) => ({ ...empty(n), hasMore: n < 3 }));
    const walker = new GradedWalker(fetch, { scheduler: time.scheduler, logger: silentLogger(), follow: false });
    let done = false;
    const pages: GradedPage[] = [];
    gradedPages$(walker).subscribe({ next: (p) => pages.push(p), complete: () => (done = true) });
    await settle();
    expect(done).toBe(true);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(calls).toEqual([T0, T0, T0]);
  });
});

describe('napper', () => {
  it('resolves after its time on the scheduler, and at once (cancelling its timer) when the signal aborts', async () => {
    const time = manualTime(T0);
    const ac = new AbortController();
    const n = napper(time.scheduler, ac.signal);
    let woke = 0;
    void n.nap(1_000).then(() => (woke = time.clock.now()));
    time.advance(999);
    await settle();
    expect(woke).toBe(0);
    time.advance(1);
    await settle();
    expect(woke).toBe(T0 + 1_000);
    let early = false;
    void n.nap(60_000).then(() => (early = true));
    ac.abort();
    await settle();
    expect(early).toBe(true);
    expect(time.nextDueAt()).toBeUndefined();
    // Aborted: a later nap does not wait at all.
    let later = false;
    void n.nap(60_000).then(() => (later = true));
    await settle();
    expect(later).toBe(true);
    n.dispose();
  });

  it('listens to the signal once for any number of naps, and not at all once disposed', async () => {
    const time = manualTime(T0);
    const ac = new AbortController();
    let adds = 0;
    let removes = 0;
    const add = ac.signal.addEventListener.bind(ac.signal);
    const remove = ac.signal.removeEventListener.bind(ac.signal);
    ac.signal.addEventListener = ((...a: Parameters<typeof add>) => (adds++, add(...a))) as typeof add;
    ac.signal.removeEventListener = ((...a: Parameters<typeof remove>) => (removes++, remove(...a))) as typeof remove;
    const n = napper(time.scheduler, ac.signal);
    for (let i = 0; i < 100; i++) {
      const p = n.nap(10);
      time.advance(10);
      await p;
    }
    expect(adds).toBe(1);
    let ended = false;
    void n.nap(1_000).then(() => (ended = true));
    n.dispose();
    await settle();
    expect(ended).toBe(true);
    expect(removes).toBe(1);
    expect(time.nextDueAt()).toBeUndefined();
  });
});
