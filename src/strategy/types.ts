import type { z } from 'zod';
import type { MarketType, Selection } from '../markets/types.ts';
import type { StrategyView } from '../market-model/types.ts';

export const INTENT_ORDER_TYPES = ['post', 'postArb', 'limit', 'fillAndKill', 'fillOrKill'] as const;
export type IntentOrderType = (typeof INTENT_ORDER_TYPES)[number];

/**
 * One order a strategy wants resting (or, for fillAndKill/fillOrKill, sent once) now. The
 * set a strategy returns is the whole desired state for the game: whatever is not in it is
 * cancelled by the order manager.
 */
export interface QuoteIntent {
  /**
   * Stable within (strategy, game): the same key next time means "the same quote, maybe
   * moved", so the order manager can keep or replace one order instead of churning.
   */
  readonly key: string;
  /** What we back. */
  readonly selection: Selection;
  /** Our American odds (maker view). */
  readonly odds: number;
  /** Our stake: the risk we put up. */
  readonly size: number;
  /** Default `post`. The order manager may send a `post` as `postArb` when that pays. */
  readonly orderType?: IntentOrderType;
  readonly expirationMinutes?: number;
  /**
   * Keep a resting order for this key if its odds are within this many cents of American
   * odds (|Δ| on the ±100-continuous scale) and its remaining size within `sizeTolerance`
   * (a fraction) of `size`; otherwise it is replaced. Default 0: any change replaces.
   */
  readonly toleranceCents?: number;
  readonly sizeTolerance?: number;
}

/** Which games and markets a strategy instance wants; empty lists mean "any". */
export interface Interest {
  readonly leagues: readonly string[];
  readonly sports: readonly string[];
  readonly gameIDs: readonly string[];
  readonly marketTypes: readonly MarketType[];
}

/**
 * A strategy: a pure function from the model's view of one game to the quotes it wants
 * there. It never calls the API, never mutates the view, and does not know whether it runs
 * live, on paper or in a backtest. Pure matters: the runtime reuses its last answer while
 * nothing it read of the view changed (src/runtime/strategy-memo.ts), so an answer must not
 * depend on anything outside the view and params (a counter, a random draw, the machine's clock).
 */
export interface StrategyModule<P = unknown> {
  readonly name: string;
  readonly description: string;
  /** Parameters, validated from config; the schema documents them. */
  readonly params: z.ZodType<P>;
  quote(view: StrategyView, params: P): readonly QuoteIntent[];
  /**
   * For a strategy whose quotes move with the clock (it reads `view.now`): how long, in
   * runtime ms, its quotes stay good with nothing else changed. The runtime asks a strategy
   * again only when something it read changed (its books, its orders or fills, refusals,
   * mode, …); a strategy that reads `now` without this is asked on every look at the game,
   * one that declares it is asked again once this long passed since it was last asked,
   * and a game at rest is looked at then (a quote that depends on the time to start moves
   * on time alone).
   */
  readonly reevaluateEvery?: number;
  /**
   * True for a strategy whose quotes depend on something outside its view and params (state
   * of its own, another source): the runtime then asks it on every look at the game, and
   * never reuses an earlier answer.
   */
  readonly readsOutsideView?: boolean;
}

/** How a strategy instance treats games in play (the runtime applies it around `quote`). */
export type LivePolicy =
  | { readonly kind: 'pull' }
  | { readonly kind: 'keep' }
  | { readonly kind: 'widen'; readonly probabilityPoints: number };
