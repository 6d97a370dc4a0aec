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
});
