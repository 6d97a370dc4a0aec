import type { MarketModel } from '../market-model/market-model.ts';
import type { GameState, TradingMode } from '../market-model/types.ts';
import type { StrategyWork } from '../orders/order-manager.ts';
import type { OwnBook } from '../orders/own-book.ts';
import type { QuoteIntent } from '../strategy/types.ts';
import type { EvaluationScheduler } from './evaluation-scheduler.ts';
import { checkIntents } from './intent-check.ts';
import { applyLivePolicy } from './live-policy.ts';
import type { RefusalMemory } from './refusal-memory.ts';
import type { PairState } from './pair-state.ts';
import { gameIDOf, type StrategyGameKey } from './strategy-game-key.ts';
import {
  mayHoldLater,
  memoHolds,
  memoOf,
  readsMayHoldLater,
  type EvaluationMemo,
  type MemoSources,
} from './strategy-memo.ts';
import type { StrategyErrors } from './strategy-errors.ts';
import { wantsMarket, type StrategyInstance } from './strategy-instance.ts';
import { LazyStrategyView, READ } from './strategy-view.ts';
import { TrackedGame } from './tracked-game.ts';

/**
 * A strategy's intents on a game changed. `priceEvents` counts the price-feed events the
 * runtime had applied: the point in the feed the decision was made at, the same in a live
 * or paper run and in a backtest of its recording.
 */
export interface Decision {
  readonly priceEvents: number;
  readonly at: number;
  readonly strategyId: string;
  readonly gameID: string;
  readonly intents: readonly QuoteIntent[];
}

export interface PairEvaluatorOptions {
  readonly market: MarketModel;
  readonly own: OwnBook;
  readonly commissionRate: () => number;
  readonly fair?: ((gameID: string) => ReadonlyMap<string, number> | null) | undefined;
  readonly refusals: RefusalMemory;
  readonly strategyErrors: StrategyErrors;
  /** Every change of a strategy's intents on a game (see `RuntimeOptions.onDecision`). */
  readonly onDecision?: ((d: Decision) => void) | undefined;
  /** The price-feed events applied so far: where in the feed a decision is made. */
  readonly priceEvents: () => number;
  /** Look at a pair again after `ms` (a strategy's `reevaluateEvery`). */
  readonly askAgainIn: EvaluationScheduler['askAgainIn'];
  /** Look at a game at an instant (its start, where a live policy changes its quotes). */
  readonly lookAtGameAt: EvaluationScheduler['lookAtGameAt'];
}

/**
 * What one evaluation of a strategy on a game does, and what it keeps between evaluations:
 * on each pair's state, its memo (what the strategy read and its intents then) and the last
 * intents reported as decisions; here, the pairs that quote and the counts of strategies
 * asked and reused.
 */
export class PairEvaluator {
  readonly #o: PairEvaluatorOptions;
  /** Where a memo's inputs are read again (see strategy-memo.ts). */
  readonly #memoSources: MemoSources;
  /** Strategy evaluations: asked (quote called) or reused (nothing it read had changed). */
  readonly #evaluations = { asked: 0, reused: 0 };
  /** Pairs whose last evaluation asked for quotes (each also says so in its `quoted`). */
  readonly #quoted = new Set<StrategyGameKey>();
  /** The memo of the answer #quote just gave (null: not to be reused), taken at once by `evaluate`. */
  #asked: EvaluationMemo | null = null;

  constructor(options: PairEvaluatorOptions) {
    this.#o = options;
    this.#memoSources = {
      market: options.market,
      own: options.own,
      commissionRate: options.commissionRate,
      activity: (gameID, now) => options.market.activity(gameID, now),
      fair: (gameID) => options.fair?.(gameID) ?? null,
      refusals: (strategyId, gameID, now) => options.refusals.of(strategyId, gameID, now),
    };
  }

  /** Strategy evaluations since start: asked (quote called) or reused. */
  get evaluations(): { readonly asked: number; readonly reused: number } {
    return this.#evaluations;
  }

  /** How many games some strategy quotes on now. */
  get quotedGames(): number {
    return new Set([...this.#quoted].map(gameIDOf)).size;
  }

  /** The pair's game left the model (its state, with its memo, is dropped by the scheduler). */
  forget(key: StrategyGameKey): void {
    this.#quoted.delete(key);
  }

  /**
   * Evaluate one pair, its throttle run out, into `work`. The strategy is
   * asked only when something it read last time changed (`#memos`): otherwise its last
   * intents stand, which is what asking it would give. The order manager still sees the
   * pair, as on every evaluation: its plan also moves with what the strategy does not read.
   */
  evaluate(pair: PairState, mode: TradingMode, now: number, work: StrategyWork[]): void {
    const s = pair.strategy;
    const gameID = pair.gameID;
    const memo = pair.memo;
    if (
      memo !== null &&
      mode !== 'halted' &&
      memoHolds(memo, this.#memoSources, s.id, gameID, now, mode, s.module.reevaluateEvery)
    ) {
      this.#evaluations.reused++;
      work.push(workOf(pair, memo.intents, mode));
      return;
    }
    if (memo !== null) pair.memo = null;
    const game = this.#o.market.game(gameID);
    if (!game) return;
    let intents: readonly QuoteIntent[] = NO_INTENTS;
    let asked: EvaluationMemo | null = null;
    if (mode !== 'halted') {
      this.#evaluations.asked++;
      intents = this.#quote(pair, game, now, mode);
      asked = this.#asked;
      this.#asked = null;
    }
    intents = applyLivePolicy(s.live, game, intents, now);
    // Quotes that the policy pulls or widens in play are looked at again just after the start,
    // even if nothing moves on the game then: neither the exchange's expiry nor its live flag is relied on.
    if (intents.length > 0 && s.live.kind !== 'keep' && game.start > now && pair.startLook !== game.start) {
      pair.startLook = game.start;
      this.#o.lookAtGameAt(gameID, game.start + START_LOOK_DELAY_MS, now);
    }
    if (intents.length > 0 && s.interest.marketTypes.length > 0 && !allWanted(s, intents))
      intents = intents.filter((i) => wantsMarket(s, i.selection.type));
    // Decisions are reported on the answer as given (its JSON text is what a recording keeps).
    const answered = intents;
    const handed = pair.handed;
    if (handed !== null && handed !== intents && sameIntents(handed, intents)) intents = handed;
    else pair.handed = intents;
    if (asked !== null && s.module.readsOutsideView !== true && mayHoldLater(asked, s.module.reevaluateEvery)) {
      asked.intents = intents;
      pair.memo = asked;
      if ((asked.reads & READ.now) !== 0 && s.module.reevaluateEvery !== undefined)
        this.#o.askAgainIn(pair, s.module.reevaluateEvery);
    }
    if (intents.length > 0) {
      if (!pair.quoted) {
        pair.quoted = true;
        this.#quoted.add(pair.key);
      }
    } else if (pair.quoted) {
      pair.quoted = false;
      this.#quoted.delete(pair.key);
    }
    if (this.#o.onDecision) this.#decided(pair, answered, now);
    work.push(workOf(pair, intents, mode));
  }

  #decided(pair: PairState, intents: readonly QuoteIntent[], now: number): void {
    const text = JSON.stringify(intents);
    if (pair.lastIntents === text) return;
    pair.lastIntents = text;
    this.#o.onDecision!({
      priceEvents: this.#o.priceEvents(),
      at: now,
      strategyId: pair.strategy.id,
      gameID: pair.gameID,
      intents,
    });
  }

  /**
   * Ask the strategy, through a view that notes what it reads; the memo of what it read is
   * left in `#asked`. It is null when the answer must not be reused: it threw, or returned
   * something malformed (asked again, it fails again, and that is counted and logged each time),
   * or what it read cannot hold at a later instant (mayHoldLater).
   */
  #quote(pair: PairState, game: GameState, now: number, mode: TradingMode): readonly QuoteIntent[] {
    const s = pair.strategy;
    const gameID = game.id;
    const tracked = new TrackedGame(game);
    const view = new LazyStrategyView(
      this.#o.own,
      s.id,
      now,
      tracked,
      mode,
      this.#o.commissionRate(),
      this.#memoSources,
    );
    (pair.evaluationCount ??= this.#o.strategyErrors.evaluationCount(s.id)).evaluations++;
    try {
      // Checked here, inside the try: what the strategy returned is read by the live policy,
      // the planner and the risk checks, and a bad value there would throw out of the loop.
      // A failure means no quotes for this game this time; StrategyErrors counts and logs it.
      const checked = checkIntents(s.module.quote(view, s.params));
      if (!checked.ok) {
        this.#o.strategyErrors.badResult(s.id, gameID, checked.problem, now);
        return NO_INTENTS;
      }
      if (checked.dropped.length > 0) {
        this.#o.strategyErrors.malformed(s.id, gameID, checked.dropped, now);
        return checked.intents;
      }
      // Built only when it could be kept: most evaluations of a strategy that reads its
      // game's activity (or the clock, without reevaluateEvery) would drop it at once.
      if (s.module.readsOutsideView !== true && readsMayHoldLater(view.reads, s.module.reevaluateEvery))
        this.#asked = memoOf(view, tracked, checked.intents, this.#o.own, s.id);
      return checked.intents;
    } catch (err) {
      this.#o.strategyErrors.threw(s.id, gameID, err, now);
      return NO_INTENTS;
    }
  }
}

const NO_INTENTS: readonly QuoteIntent[] = Object.freeze([]);

/**
 * How long after a game's start its quotes are looked at. The exchange expires the orders
 * placed before the start at the start: a look at that very instant edits orders it is
 * expiring (refused, "order is expired"), while a moment later their expiry has been seen and
 * the in-play quotes are placed afresh. An order it does not expire is pulled or widened then.
 */
const START_LOOK_DELAY_MS = 1_000;

/** The pair's work for these intents and mode: the one handed last when they are the same (see PairState.work). */
function workOf(pair: PairState, intents: readonly QuoteIntent[], mode: TradingMode): StrategyWork {
  const last = pair.work;
  if (last !== null && last.intents === intents && last.mode === mode) return last;
  return (pair.work = { strategyId: pair.strategy.id, gameID: pair.gameID, intents, mode });
}

/** Whether two lists of intents ask for the same orders: the same length, and each intent the same field by field. */
export function sameIntents(a: readonly QuoteIntent[], b: readonly QuoteIntent[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameIntent(a[i]!, b[i]!)) return false;
  return true;
}

/**
 * Every field of `a` the same in `b` (its selection by identity or field by field), and as
 * many fields: a strategy may put fields of its own on an intent, and they count too.
 */
function sameIntent(a: QuoteIntent, b: QuoteIntent): boolean {
  if (a === b) return true;
  let n = 0;
  for (const k in a) {
    n++;
    const x = a[k as keyof QuoteIntent];
    const y = b[k as keyof QuoteIntent];
    if (!Object.is(x, y) && !(k === 'selection' && sameFlat(x, y))) return false;
  }
  for (const _ in b) n--;
  return n === 0;
}

/** Two flat objects with the same fields and values (a selection). */
function sameFlat(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    n++;
    if (!Object.is(x[k], y[k])) return false;
  }
  for (const _ in y) n--;
  return n === 0;
}

/** Whether every intent is in a market the strategy watches (a loop: asked on every evaluation that quotes). */
function allWanted(s: StrategyInstance, intents: readonly QuoteIntent[]): boolean {
  for (let i = 0; i < intents.length; i++) if (!wantsMarket(s, intents[i]!.selection.type)) return false;
  return true;
}
