import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { RequestBudget } from '../../src/exchange/rest/request-budget.ts';
import { restBackoff } from '../../src/exchange/rest/backoff.ts';
import { backoffDelay } from '../../src/shared/backoff.ts';
import { retryAfterMs } from '../../src/exchange/rest/retry-after.ts';
import { RollingWindow } from '../../src/shared/rolling-window.ts';
import { manualTime } from '../../src/shared/time.ts';

const T0 = Date.UTC(2026, 0, 1);
const flush = (): Promise<void> => new Promise<void>((r) => setImmediate(r));

function budget(options: ConstructorParameters<typeof RequestBudget>[0] = {}) {
  const time = manualTime(T0);
  return { time, b: new RequestBudget({ clock: time.clock, scheduler: time.scheduler, ...options }) };
}

describe('RequestBudget', () => {
  it('refuses a request already withdrawn without spending a slot on it', async () => {
    const time = manualTime(0);
    const budget = new RequestBudget({ clock: time.clock, scheduler: time.scheduler });
    const ac = new AbortController();
    ac.abort('kill switch');
    await expect(budget.acquire(null, ac.signal)).rejects.toBe('kill switch');
    expect(budget.stats.admitted).toBe(0);
  });

  it('admits 2,700 requests per rolling minute at the default 0.9 headroom, then waits for the oldest to leave', async () => {
    const { time, b } = budget();
    expect(b.limits).toEqual({ global: 2700, gradedSince: 9, graded: 54 });
    for (let i = 0; i < 2700; i++) {
      await b.acquire();
      if (i % 900 === 899) time.advance(10_000); // three bursts, at 0 s, 10 s and 20 s
    }
    let admitted = false;
    void b.acquire().then(() => (admitted = true));
    await flush();
    expect(admitted).toBe(false);
    time.advance(60_000 - 30_000 - 1); // the first burst leaves the window at 60 s
    await flush();
    expect(admitted).toBe(false);
    time.advance(1);
    await flush();
    expect(admitted).toBe(true);
  });

  it('keeps getGradedSince to 9 per 5 s without holding back other requests', async () => {
    const { time, b } = budget();
    for (let i = 0; i < 9; i++) await b.acquire('gradedSince');
    const order: string[] = [];
    void b.acquire('gradedSince').then(() => order.push('graded'));
    void b.acquire().then(() => order.push('plain'));
    await flush();
    expect(order).toEqual(['plain']);
    time.advance(5_000);
    await flush();
    expect(order).toEqual(['plain', 'graded']);
  });

  it('pauses everything after a global 429 for Retry-After', async () => {
    const { time, b } = budget();
    b.pause('global', 1_000);
    let done = false;
    void b.acquire().then(() => (done = true));
    time.advance(999);
    await flush();
    expect(done).toBe(false);
    time.advance(1);
    await flush();
    expect(done).toBe(true);
  });

  it('rejects an aborted wait and forgets it', async () => {
    const { time, b } = budget({ global: { limit: 1, windowMs: 1_000 }, headroom: 1 });
    await b.acquire();
    const ac = new AbortController();
    const p = b.acquire(null, ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    time.advance(1_000);
    await b.acquire(); // the slot went to this one, not the aborted waiter
  });

  test.prop(
    [
      fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 300 }),
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 100, max: 2_000 }),
    ],
    {
      numRuns: 200,
    },
  )('never admits more than the limit in any rolling window (property)', async (gaps, limit, windowMs) => {
    const { time, b } = budget({ global: { limit, windowMs }, headroom: 1 });
    const admittedAt: number[] = [];
    const pending: Promise<void>[] = [];
    // Step through due instants one at a time so each admission is stamped with its own time.
    const advance = (ms: number) => time.advanceToSettling(time.clock.now() + ms, flush);
    for (const gap of gaps) {
      await advance(gap);
      pending.push(b.acquire().then(() => void admittedAt.push(time.clock.now())));
      await flush();
    }
    await advance(windowMs * gaps.length);
    await Promise.all(pending);
    expect(admittedAt).toHaveLength(gaps.length);
    for (let i = limit; i < admittedAt.length; i++)
      expect(admittedAt[i]! - admittedAt[i - limit]!).toBeGreaterThanOrEqual(windowMs);
  });
});

describe('RollingWindow', () => {
  it('frees a slot exactly when the oldest event leaves the window', () => {
    const w = new RollingWindow(2, 100);
    w.record(0);
    w.record(10);
    expect(w.freeAt(50)).toBe(100);
    w.record(100);
    expect(w.freeAt(100)).toBe(110);
  });
});

describe('backoff and Retry-After', () => {
  it('grows exponentially, stays within [cap/2, cap], and never exceeds maxMs', () => {
    const policy = restBackoff({ baseMs: 100, maxMs: 1_000, maxAttempts: 5 });
    for (const [retry, cap] of [
      [1, 100],
      [2, 200],
      [4, 800],
      [9, 1_000],
    ] as const) {
      expect(backoffDelay(retry, policy, () => 0.999999999)).toBeCloseTo(cap / 2, 3);
      expect(backoffDelay(retry, policy, () => 0)).toBe(cap);
    }
  });

  it('reads delta-seconds and HTTP dates', () => {
    expect(retryAfterMs('2', 0)).toBe(2_000);
    expect(retryAfterMs(new Date(T0 + 3_000).toUTCString(), T0)).toBe(3_000);
    expect(retryAfterMs(undefined, 0, 700)).toBe(700);
    expect(retryAfterMs('soon', 0, 700)).toBe(700);
  });
});
