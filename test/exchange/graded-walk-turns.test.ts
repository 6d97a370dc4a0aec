import { describe, expect, it } from 'vitest';
import { GradedWalker } from '../../src/exchange/rest/graded-walker.ts';
import { HttpStatusError } from '../../src/exchange/errors.ts';
import type { GradedSinceResponse } from '../../src/exchange/schemas/bets.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';

/**
 * A deterministic replay interleaves the graded walk with every other promise chain by
 * microtask turn: the turn its call goes out, the turn its page is handed over, the turn its
 * next wait is scheduled (timers due at the same instant run in the order they were
 * scheduled). These tests pin those turns, counted from the moment the walk is woken, so
 * the walk's code can change without moving a replay's decisions.
 */

const T0 = Date.UTC(2026, 2, 1, 12);
const SETTLED = Promise.resolve();

const answer = (n: number, over: Partial<GradedSinceResponse> = {}): GradedSinceResponse => ({
  graded: [],
  hasMore: false,
  cursor: `c${n}`,
  settledThrough: new Date(T0).toISOString(),
  ...over,
});

/**
 * Counts microtask turns from `start()`: a callback queued once per turn, after whatever was
 * queued before it. `log` notes what happened at the current count; a wait scheduled on the
 * clock is noted at the turn it first shows.
 */
function turns(time: ManualTimeSource) {
  const log: string[] = [];
  let turn = 0;
  let waiting = false;
  const tick = (): void => {
    turn++;
    const due = time.nextDueAt() !== undefined;
    if (due && !waiting) log.push(`wait@${turn}`);
    waiting = due;
    if (turn < 12) void SETTLED.then(tick);
  };
  return {
    log,
    note: (what: string) => log.push(`${what}@${turn}`),
    start: () => {
      turn = 0;
      waiting = time.nextDueAt() !== undefined;
      void SETTLED.then(tick);
    },
    done: async () => {
      for (let i = 0; i < 14; i++) await null;
    },
  };
}

function walkWith(time: ManualTimeSource, reply: (call: number) => GradedSinceResponse | Error, follow = true) {
  const t = turns(time);
  let calls = 0;
  const fetch = () => {
    t.note(`call${++calls}`);
    const a = reply(calls);
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
  };
  const walker = new GradedWalker(fetch, {
    scheduler: time.scheduler,
    logger: silentLogger(),
    pollMs: 1_000,
    errorDelayMs: 5_000,
    follow,
  });
  const ac = new AbortController();
  t.start();
  const walk = walker
    .walk((p) => t.note(`page:${p.cursor}`), ac.signal)
    .then(
      () => t.note('ended'),
      (err: unknown) => t.note(`failed:${String(err)}`),
    );
  return { t, ac, walk };
}

describe('graded walk: the microtask turns a replay depends on', () => {
  it('calls at once, hands the page over three turns after its answer and starts the next wait in that turn; woken, calls in the next turn', async () => {
    const time = manualTime(T0);
    const { t, ac } = walkWith(time, (n) => answer(n));
    await t.done();
    expect(t.log).toEqual(['call1@0', 'page:c1@3', 'wait@4']);
    t.log.length = 0;
    time.advance(1_000);
    t.start();
    await t.done();
    expect(t.log).toEqual(['call2@0', 'page:c2@3', 'wait@4']);
    ac.abort();
  });

  it('follows hasMore in the page turn, and a walk that does not follow ends one turn after its last page', async () => {
    const time = manualTime(T0);
    const { t, walk } = walkWith(time, (n) => answer(n, { hasMore: n < 2 }), false);
    await t.done();
    await walk;
    expect(t.log).toEqual(['call1@0', 'page:c1@3', 'call2@3', 'page:c2@6', 'ended@8']);
  });

  it('calls again two turns after a refused cursor', async () => {
    const time = manualTime(T0);
    const { t, ac } = walkWith(time, (n) =>
      n === 2 ? new HttpStatusError('GET /v2/graded', 400, 'bad cursor') : answer(n),
    );
    await t.done();
    t.log.length = 0;
    time.advance(1_000);
    t.start();
    await t.done();
    expect(t.log).toEqual(['call2@0', 'call3@2', 'page:c3@5', 'wait@6']);
    ac.abort();
  });

  it('ends three turns after a call that failed because the walk was aborted', async () => {
    const time = manualTime(T0);
    const t = turns(time);
    const ac = new AbortController();
    const walker = new GradedWalker(
      () => {
        t.note('call');
        ac.abort();
        return Promise.reject(new Error('aborted'));
      },
      { scheduler: time.scheduler, logger: silentLogger() },
    );
    t.start();
    const walk = walker.walk(() => t.note('page'), ac.signal).then(() => t.note('ended'));
    await t.done();
    await walk;
    expect(t.log).toEqual(['call@0', 'ended@4']);
  });

  it('waits errorDelayMs after a failed call and calls again two turns after the wait', async () => {
    const time = manualTime(T0);
    const { t } = walkWith(time, (n) => (n === 2 ? new Error('connection reset') : answer(n)));
    await t.done();
    time.advance(1_000);
    t.start();
    t.log.length = 0;
    await t.done();
    expect(t.log).toEqual(['call2@0', 'wait@2']);
    t.log.length = 0;
    time.advance(5_000);
    t.start();
    await t.done();
    expect(t.log).toEqual(['call3@1', 'page:c3@4', 'wait@5']);
  });

  it('rejects three turns after a failed call when not following, and ends two turns after an abort wakes it', async () => {
    const time = manualTime(T0);
    const failing = walkWith(time, () => new Error('down'), false);
    await failing.t.done();
    await failing.walk;
    expect(failing.t.log).toEqual(['call1@0', 'failed:Error: down@4']);

    const aborted = walkWith(time, (n) => answer(n));
    await aborted.t.done();
    aborted.t.log.length = 0;
    aborted.t.start();
    aborted.ac.abort();
    await aborted.t.done();
    await aborted.walk;
    expect(aborted.t.log).toEqual(['ended@3']);
    expect(time.nextDueAt()).toBeUndefined();
  });
});
