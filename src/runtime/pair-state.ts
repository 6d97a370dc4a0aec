import type { StrategyWork } from '../orders/order-manager.ts';
import type { QuoteIntent } from '../strategy/types.ts';
import type { StrategyGameKey } from './strategy-game-key.ts';
import type { StrategyInstance } from './strategy-instance.ts';
import type { EvaluationMemo } from './strategy-memo.ts';
import type { StrategyErrors } from './strategy-errors.ts';

/** Where a pair stands in the evaluation scheduler: nothing pending. */
export const DUE_NONE = 0;
/** Marked since the last look: in the scheduler's dirty list. */
export const DUE_DIRTY = 1;
/** Marked inside its throttle: in the scheduler's held list until the throttle ends. */
export const DUE_HELD = 2;
export type PairDue = typeof DUE_NONE | typeof DUE_DIRTY | typeof DUE_HELD;

/**
 * What the runtime keeps of one strategy on one game: one object per pair for the runtime's
 * life (or until its game is forgotten), which the scheduler's lists hold and the evaluator
 * reads and writes. On the object rather than in maps keyed by the pair's key: a busy feed
 * marks and looks at the same pairs on nearly every event, and each look went through
 * several lookups by string.
 */
export class PairState {
  readonly key: StrategyGameKey;
  readonly strategy: StrategyInstance;
  readonly gameID: string;
  /** Where the pair stands in the scheduler's lists. */
  due: PairDue = DUE_NONE;
  /** When it was last evaluated (-Infinity: never): its throttle runs from here. */
  lastEval = -Infinity;
  /** What the strategy read at its last evaluation, and its intents then: reused while that holds (null: none to reuse). */
  memo: EvaluationMemo | null = null;
  /** The game start a look is asked for (NaN: none), so one is asked once per start time. */
  startLook = NaN;
  /** Its last evaluation asked for quotes. */
  quoted = false;
  /**
   * The intents its last evaluation handed to the order manager (null: none yet). An answer
   * equal to them is handed over as this very array: the order manager takes the same array
   * at the same version of the pair's orders as served already, and plans it only once.
   */
  handed: readonly QuoteIntent[] | null = null;
  /**
   * The work its last evaluation handed to the order-manager cycle (null: none yet): handed
   * again while its intents and mode are the same (the cycle reads a work, never keeps it),
   * which most evaluations are, since an equal answer is handed over as the same list.
   */
  work: StrategyWork | null = null;
  /** Its last intents, as JSON, when decisions are reported (null: none reported yet). */
  lastIntents: string | null = null;
  /** Its strategy's count of evaluations in StrategyErrors, once asked for (null: not yet). */
  evaluationCount: ReturnType<StrategyErrors['evaluationCount']> | null = null;

  constructor(key: StrategyGameKey, strategy: StrategyInstance, gameID: string) {
    this.key = key;
    this.strategy = strategy;
    this.gameID = gameID;
  }
}
