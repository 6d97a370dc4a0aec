import type { Refusal } from '../market-model/types.ts';
import { strategyGameKey, type StrategyGameKey } from './strategy-game-key.ts';

/** How long a strategy's view keeps a refusal. */
const REFUSAL_MEMORY_MS = 60_000;

/** The most refusals kept per strategy and game: the oldest go first. */
const REFUSALS_KEPT = 20;

const NO_REFUSALS: readonly Refusal[] = [];

/**
 * The refusals (the risk gate's or the exchange's) of each strategy's orders on each game,
 * for its view: a strategy that sees why its last orders were refused can quote otherwise.
 * A refusal is shown for a minute, and at most the last 20 per pair are kept.
 */
export class RefusalMemory {
  readonly #byPair = new Map<StrategyGameKey, Refusal[]>();

  remember(strategyId: string, gameID: string, r: Refusal): void {
    const k = strategyGameKey(strategyId, gameID);
    const list = this.#byPair.get(k) ?? [];
    list.push(r);
    if (list.length > REFUSALS_KEPT) list.shift();
    this.#byPair.set(k, list);
  }

  /** The pair's refusals still shown at `now`, oldest first (a copy: the view keeps it). */
  of(strategyId: string, gameID: string, now: number): readonly Refusal[] {
    const list = this.#byPair.size === 0 ? undefined : this.#byPair.get(strategyGameKey(strategyId, gameID));
    if (!list) return NO_REFUSALS;
    while (list.length > 0 && list[0]!.at < now - REFUSAL_MEMORY_MS) list.shift();
    return [...list];
  }

  /** The pair's game left the model. */
  forget(key: StrategyGameKey): void {
    this.#byPair.delete(key);
  }
}
