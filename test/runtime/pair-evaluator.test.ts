import { describe, expect, it } from 'vitest';
import type { Game } from '../../src/exchange/schemas/game.ts';
import { MarketModel } from '../../src/market-model/market-model.ts';
import type { StrategyWork } from '../../src/orders/order-manager.ts';
import { OwnBook } from '../../src/orders/own-book.ts';
import { PairEvaluator, sameIntents } from '../../src/runtime/pair-evaluator.ts';
import { PairState } from '../../src/runtime/pair-state.ts';
import { RefusalMemory } from '../../src/runtime/refusal-memory.ts';
import { StrategyErrors } from '../../src/runtime/strategy-errors.ts';
import { strategyGameKey } from '../../src/runtime/strategy-game-key.ts';
import type { StrategyInstance } from '../../src/runtime/strategy-instance.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';

const GAME: Game = {
  id: 'g1',
  league: 'NBA',
  sport: 'basketball',
  start: '2030-01-01T00:00:00.000Z',
  participants: [
    { id: 'a', longName: 'Away', shortName: 'AW', homeAway: 'away' },
    { id: 'h', longName: 'Home', shortName: 'HO', homeAway: 'home' },
  ],
} as Game;

const home = { type: 'moneyline', team: 'home' } as const;
const intent = (odds: number, extra: Record<string, unknown> = {}): QuoteIntent => ({
  key: 'moneyline:0',
  selection: { ...home },
  odds,
  size: 10,
  orderType: 'post',
  ...extra,
});

/** An evaluator over one game whose strategy reads the clock (so it is asked on every look) and answers `answer()`, a new list each time. */
function evaluating(answer: () => QuoteIntent[]) {
  const market = new MarketModel(null);
  market.upsertGame(GAME, 0);
  const own = new OwnBook({ commissionRate: () => 0.01 });
  const evaluator = new PairEvaluator({
    market,
    own,
    commissionRate: () => 0.01,
    refusals: new RefusalMemory(),
    strategyErrors: new StrategyErrors({ logger: silentLogger() }),
    priceEvents: () => 0,
    askAgainIn: () => {},
    lookAtGameAt: () => {},
  });
  const s: StrategyInstance = {
    id: 's1',
    module: {
      name: 'probe',
      description: 'reads the clock',
      params: null as never,
      quote: (view) => (view.now >= 0 ? answer() : []),
    },
    params: {},
    interest: { leagues: [], sports: [], gameIDs: [], marketTypes: [] },
    live: { kind: 'keep' },
    throttleMs: 0,
  };
  const pair = new PairState(strategyGameKey(s.id, GAME.id), s, GAME.id);
  let now = 0;
  return (): StrategyWork => {
    const work: StrategyWork[] = [];
    evaluator.evaluate(pair, 'active', ++now, work);
    return work[0]!;
  };
}

describe('pair evaluator', () => {
  it('hands an answer equal to the last one over as that very list (in the same work), and any other answer as given', () => {
    let next = () => [
      intent(120),
      intent(-130, { key: 'moneyline:1', selection: { type: 'moneyline', team: 'away' } }),
    ];
    const look = evaluating(() => next());
    const firstWork = look();
    const first = firstWork.intents;
    // Asked again (it read the clock): a new list, equal field by field, selections copied.
    expect(look().intents).toBe(first);
    // The work handed to the cycle is the same record too: nothing in it changed.
    expect(look()).toBe(firstWork);
    // One field of one intent moved: the new list is handed over.
    next = () => [intent(121), intent(-130, { key: 'moneyline:1', selection: { type: 'moneyline', team: 'away' } })];
    const moved = look().intents;
    expect(moved).not.toBe(first);
    expect(moved[0]!.odds).toBe(121);
    expect(look().intents).toBe(moved);
    // Nothing, twice: the first empty list stands for the second.
    next = () => [];
    const none = look().intents;
    expect(none).toEqual([]);
    expect(look().intents).toBe(none);
  });

  it('tells lists apart by every field, a field of its own included, and by length', () => {
    expect(sameIntents([intent(120)], [intent(120)])).toBe(true);
    expect(sameIntents([], [])).toBe(true);
    expect(sameIntents([intent(120)], [intent(120), intent(120)])).toBe(false);
    expect(sameIntents([intent(120)], [intent(120, { size: 11 })])).toBe(false);
    expect(sameIntents([intent(120)], [intent(120, { orderType: 'postArb' })])).toBe(false);
    expect(sameIntents([intent(120)], [intent(120, { toleranceCents: 3 })])).toBe(false);
    expect(sameIntents([intent(120, { note: 'a' })], [intent(120, { note: 'b' })])).toBe(false);
    expect(sameIntents([intent(120)], [intent(120, { selection: { type: 'moneyline', team: 'away' } })])).toBe(false);
    expect(sameIntents([intent(120)], [intent(120, { selection: { ...home, extra: 1 } })])).toBe(false);
    expect(sameIntents([intent(Number.NaN)], [intent(Number.NaN)])).toBe(true);
  });
});
