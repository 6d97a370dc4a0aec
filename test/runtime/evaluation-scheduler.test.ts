import { describe, expect, it } from 'vitest';
import type { GameIdentity } from '../../src/market-model/market-model.ts';
import type { StrategyWork } from '../../src/orders/order-manager.ts';
import { EvaluationScheduler } from '../../src/runtime/evaluation-scheduler.ts';
import type { StrategyInstance } from '../../src/runtime/strategy-instance.ts';
import { VirtualScheduler } from '../../src/shared/virtual-scheduler.ts';

const strategy = (id: string): StrategyInstance => ({
  id,
  module: { name: id, description: id, params: null as never, quote: () => [] },
  params: {},
  interest: { leagues: [], sports: [], gameIDs: [], marketTypes: [] },
  live: { kind: 'keep' },
  throttleMs: 0,
});

const GAME: GameIdentity = { id: 'g1', league: 'NBA', sport: 'basketball', parentGameID: null };

describe('evaluation scheduler', () => {
  it('sends each look its own evaluations only: a look that threw leaves none of its work to the next cycle', () => {
    const cycles: string[][] = [];
    let failNext = true;
    const due = new EvaluationScheduler({
      strategies: [strategy('a'), strategy('b')],
      market: { identity: (id) => (id === GAME.id ? GAME : undefined), identities: () => [GAME][Symbol.iterator]() },
      scheduler: new VirtualScheduler(0),
      halts: { modeOf: () => 'active' },
      evaluator: {
        evaluate: (pair, mode, _now, work: StrategyWork[]) => {
          if (pair.strategy.id === 'b' && failNext) {
            failNext = false;
            throw new RangeError('evaluation failed');
          }
          work.push({ strategyId: pair.strategy.id, gameID: pair.gameID, intents: [], mode });
        },
      },
      cycle: (work) => cycles.push(work.map((w) => w.strategyId)),
      wake: () => {},
    });
    due.markGame(GAME.id);
    // a is evaluated, then b throws: no cycle runs, and b stays due.
    expect(() => due.run(0)).toThrow(RangeError);
    expect(cycles).toEqual([]);
    due.run(1);
    expect(cycles).toEqual([['b']]);
    due.markGame(GAME.id);
    due.run(2);
    due.run(3);
    expect(cycles).toEqual([['b'], ['a', 'b']]);
  });

  it('looks at a game at the instant asked for, once, even if nothing moves on it then', () => {
    const clock = new VirtualScheduler(0);
    let wakes = 0;
    const { due, looked } = looking(clock, () => wakes++);
    due.lookAtGameAt(GAME.id, 500, 0);
    due.lookAtGameAt(GAME.id, 500, 0);
    // A later instant asked for while an earlier one is pending adds nothing; an earlier one replaces it.
    due.lookAtGameAt(GAME.id, 700, 0);
    due.lookAtGameAt(GAME.id, 300, 0);
    clock.flush(299);
    due.run(299);
    expect(wakes).toBe(0);
    expect(looked).toEqual([]);
    clock.flush(300);
    expect(wakes).toBe(1);
    due.run(300);
    expect(looked).toEqual([300]);
    clock.flush(10_000);
    due.run(10_000);
    expect(looked).toEqual([300]);
  });

  it('looks at a game months ahead at its instant, waiting in steps a timer can hold', () => {
    const clock = new VirtualScheduler(0);
    const delays: number[] = [];
    const scheduler = {
      now: () => clock.now(),
      schedule: (work: () => void, delay?: number) => {
        delays.push(delay ?? 0);
        return clock.schedule(work, delay);
      },
    } as unknown as VirtualScheduler;
    const { due, looked } = looking(scheduler, () => due.run(clock.now()));
    const start = 90 * 86_400_000;
    due.lookAtGameAt(GAME.id, start, 0);
    clock.flush(start - 1);
    expect(looked).toEqual([]);
    clock.flush(start);
    expect(looked).toEqual([start]);
    expect(Math.max(...delays)).toBeLessThan(2 ** 31 - 1);
  });

  it('a stopped scheduler keeps no look pending', () => {
    const clock = new VirtualScheduler(0);
    let wakes = 0;
    const { due } = looking(clock, () => wakes++);
    due.lookAtGameAt(GAME.id, 500, 0);
    due.stop();
    expect(clock.nextDue()).toBeUndefined();
    clock.flush(1_000);
    expect(wakes).toBe(0);
  });
});

/** A scheduler of one strategy on GAME whose evaluations note when they ran (`looked`). */
function looking(scheduler: VirtualScheduler, wake: () => void) {
  const looked: number[] = [];
  const due: EvaluationScheduler = new EvaluationScheduler({
    strategies: [strategy('a')],
    market: { identity: (id) => (id === GAME.id ? GAME : undefined), identities: () => [GAME][Symbol.iterator]() },
    scheduler,
    halts: { modeOf: () => 'active' },
    evaluator: {
      evaluate: (pair, mode, now, work: StrategyWork[]) => {
        looked.push(now);
        work.push({ strategyId: pair.strategy.id, gameID: pair.gameID, intents: [], mode });
      },
    },
    cycle: () => {},
    wake,
  });
  return { due, looked };
}
