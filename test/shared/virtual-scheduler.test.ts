import { describe, expect, it } from 'vitest';
import { interval, take, timer, type SchedulerAction } from 'rxjs';
import { manualTime } from '../../src/shared/time.ts';

describe('manual time', () => {
  it('runs actions in due order, then scheduling order, and stands at the target time', () => {
    const time = manualTime(1_000);
    const seen: string[] = [];
    time.scheduler.schedule(() => seen.push(`b@${time.clock.now()}`), 20);
    time.scheduler.schedule(() => seen.push(`a@${time.clock.now()}`), 10);
    time.scheduler.schedule(() => seen.push(`c@${time.clock.now()}`), 20);
    expect(time.nextDueAt()).toBe(1_010);
    time.advanceTo(1_015);
    expect(seen).toEqual(['a@1010']);
    expect(time.clock.now()).toBe(1_015);
    time.advance(100);
    expect(seen).toEqual(['a@1010', 'b@1020', 'c@1020']);
    expect(time.nextDueAt()).toBeUndefined();
  });

  it('runs posted work in the same queue as scheduled actions: due order, then the order of the calls', () => {
    const time = manualTime(1_000);
    const seen: string[] = [];
    time.post(() => seen.push(`p1@${time.clock.now()}`), 20);
    time.scheduler.schedule(() => seen.push(`s1@${time.clock.now()}`), 20);
    time.post(() => seen.push(`p0@${time.clock.now()}`), 10);
    const dropped = time.scheduler.schedule(() => seen.push('never'), 10);
    time.post(() => seen.push(`p2@${time.clock.now()}`), 20);
    time.post(() => seen.push(`now@${time.clock.now()}`), -5);
    dropped.unsubscribe();
    expect(time.nextDueAt()).toBe(1_000);
    time.advance(100);
    expect(seen).toEqual(['now@1000', 'p0@1010', 'p1@1020', 's1@1020', 'p2@1020']);
    expect(time.nextDueAt()).toBeUndefined();
  });

  it('hands posted work its arguments, also when a work posts again from inside a run', () => {
    const time = manualTime(0);
    const seen: string[] = [];
    const note = (what: string, n: number) => seen.push(`${what}${n}@${time.clock.now()}`);
    const again = (what: string, n: number) => {
      note(what, n);
      if (n < 3) time.post(again, 5, what, n + 1);
    };
    time.post(note, 10, 'x', 1);
    time.post(again, 0, 'y', 1);
    time.post((n: number) => seen.push(`one${n}`), 20, 7);
    time.advance(30);
    expect(seen).toEqual(['y1@0', 'y2@5', 'x1@10', 'y3@10', 'one7']);
    // The entries that ran are used again: the next posts still get their own arguments.
    for (let i = 0; i < 100; i++) time.post(note, i % 3, 'z', i);
    seen.length = 0;
    time.advance(5);
    expect(seen).toHaveLength(100);
    expect(seen.slice(0, 3)).toEqual(['z0@30', 'z3@30', 'z6@30']);
    expect(seen.at(-1)).toBe('z98@32');
  });

  it('counts the actions that ran, not posted work nor an action unsubscribed before it was due', () => {
    const time = manualTime(1_000);
    time.post(() => undefined, 5);
    time.scheduler.schedule(() => undefined, 10);
    time.scheduler.schedule(() => undefined, 10).unsubscribe();
    time.scheduler.schedule(
      function (this: SchedulerAction<unknown>, n?: unknown) {
        if ((n as number) < 2) this.schedule((n as number) + 1, 10);
      },
      20,
      0,
    );
    expect(time.actionsRun()).toBe(0);
    time.advanceTo(1_005);
    expect(time.actionsRun()).toBe(0);
    time.advanceTo(1_010);
    expect(time.actionsRun()).toBe(1);
    time.advance(100);
    // The rescheduling action ran three times: at 1020, 1030 and 1040.
    expect(time.actionsRun()).toBe(4);
  });

  it('runs work scheduled during a flush when it falls due before the target', () => {
    const time = manualTime(0);
    const seen: number[] = [];
    time.scheduler.schedule(() => {
      seen.push(time.clock.now());
      time.scheduler.schedule(() => seen.push(time.clock.now()), 5);
    }, 5);
    time.advanceTo(10);
    expect(seen).toEqual([5, 10]);
  });

  it('forgets an unsubscribed action', () => {
    const time = manualTime(0);
    let ran = false;
    const sub = time.scheduler.schedule(() => (ran = true), 5);
    sub.unsubscribe();
    expect(time.nextDueAt()).toBeUndefined();
    time.advance(10);
    expect(ran).toBe(false);
  });

  // RxJS's own VirtualTimeScheduler nests one subscription per period: after enough periods,
  // unsubscribing the interval overflowed the stack (a backtest of hours of 1 s ticks did).
  it('keeps an interval of 200,000 periods flat: it counts right and unsubscribes without a stack overflow', () => {
    const time = manualTime(0);
    let n = 0;
    const sub = interval(1_000, time.scheduler).subscribe(() => n++);
    time.advance(200_000 * 1_000);
    expect(n).toBe(200_000);
    expect(() => sub.unsubscribe()).not.toThrow();
    time.advance(10_000);
    expect(n).toBe(200_000);
  });

  it('drives rxjs timers and take() as the real scheduler would', () => {
    const time = manualTime(0);
    const seen: number[] = [];
    timer(100, 50, time.scheduler)
      .pipe(take(3))
      .subscribe((v) => seen.push(v * 1000 + time.clock.now()));
    time.advance(1_000);
    expect(seen).toEqual([100, 1_150, 2_200]);
  });

  it('refuses to go back in time', () => {
    const time = manualTime(100);
    expect(() => time.advanceTo(50)).toThrow(RangeError);
  });
});
