import type { SchedulerLike } from 'rxjs';
import type { GameIdentity, MarketModel } from '../market-model/market-model.ts';
import type { TradingMode } from '../market-model/types.ts';
import type { StrategyWork } from '../orders/order-manager.ts';
import { strategyGameKey, type StrategyGameKey } from './strategy-game-key.ts';
import { wantsGame, type StrategyInstance } from './strategy-instance.ts';

/** A strategy and a game whose evaluation is due or pending, under its key. */
export interface DirtyPair {
  readonly key: StrategyGameKey;
  readonly strategy: StrategyInstance;
  readonly gameID: string;
}

export interface EvaluationSchedulerOptions {
  readonly strategies: readonly StrategyInstance[];
  readonly market: Pick<MarketModel, 'identity' | 'identities'>;
  readonly scheduler: SchedulerLike;
  /** The mode a strategy trades in now: a halted one is evaluated at once, throttle or not. */
  readonly modeOf: (strategyId: string) => TradingMode;
  /** Evaluate a pair whose throttle has run out, into `work`. */
  readonly evaluate: (pair: DirtyPair, mode: TradingMode, now: number, work: StrategyWork[]) => void;
  /** One order-manager cycle over what the evaluations gave. */
  readonly cycle: (work: StrategyWork[]) => void;
  /** Whether a pair still has intents to check again (an ask-again is moot without them). */
  readonly holdsMemo: (key: StrategyGameKey) => boolean;
  /** Run the loop once more, to look at the dirty pairs: a throttle or a cooldown ran out. */
  readonly wake: () => void;
}

/**
 * Which strategy–game pairs are due for an evaluation, and when: the pairs marked since the
 * last look (`#dirty`), those marked inside their throttle (`#held`, due at `#heldDue`),
 * each pair's last evaluation, and the wake-ups pending on the scheduler (the earliest held
 * pair, a strategy's ask-again, a refused game's cooldown).
 */
export class EvaluationScheduler {
  readonly #o: EvaluationSchedulerOptions;
  /** Strategy–game pairs to evaluate. */
  readonly #dirty = new Map<StrategyGameKey, DirtyPair>();
  /** Pairs marked while inside their throttle (it ends at `#dueOf`); `#heldDue` is the earliest end. */
  readonly #held = new Map<StrategyGameKey, DirtyPair>();
  #heldDue = Infinity;
  /** A halt began: held pairs of the halted strategies must pull their quotes now, throttle or not. */
  #pullHeld = false;
  readonly #watchers = new WeakMap<GameIdentity, readonly DirtyPair[]>();
  /** When the pending wake-up for throttled evaluations fires (null: none pending). */
  #wakeAt: number | null = null;
  readonly #lastEval = new Map<StrategyGameKey, number>();
  /** Pairs with a look-again pending for a strategy's `reevaluateEvery`. */
  readonly #askAgain = new Set<StrategyGameKey>();
  /** Games with a look-again pending after a refusal's cooldown. */
  readonly #retryScheduled = new Set<string>();

  constructor(options: EvaluationSchedulerOptions) {
    this.#o = options;
  }

  /** The pairs of a game's watchers are due (a game the model does not hold has none). */
  markGame(gameID: string): void {
    const g = this.#o.market.identity(gameID);
    if (g) this.#markPairs(g);
  }

  /** Every pair of every game the model holds is due. */
  markAll(): void {
    for (const g of this.#o.market.identities()) this.#markPairs(g);
  }

  /** A halt began: the next look visits the held pairs too, so halted strategies pull their quotes at once. */
  pullHeld(): void {
    this.#pullHeld = true;
  }

  /** A pair's game left the model: nothing is kept or due for it. */
  forget(key: StrategyGameKey): void {
    this.#dirty.delete(key);
    this.#held.delete(key);
    if (this.#held.size === 0) this.#heldDue = Infinity;
    this.#lastEval.delete(key);
  }

  #markPairs(g: GameIdentity): void {
    for (const p of this.#pairsOf(g)) if (!this.#dirty.has(p.key) && !this.#held.has(p.key)) this.#dirty.set(p.key, p);
  }

  /**
   * The strategies that watch a game, as the pairs the dirty set holds: worked out once per
   * identity (the model keeps the object while the game's identity holds) rather than on
   * every price event, which would match interest lists and build keys each time.
   */
  #pairsOf(g: GameIdentity): readonly DirtyPair[] {
    const known = this.#watchers.get(g);
    if (known !== undefined) return known;
    const pairs: DirtyPair[] = [];
    for (const s of this.#o.strategies)
      if (wantsGame(s, g)) pairs.push({ key: strategyGameKey(s.id, g.id), strategy: s, gameID: g.id });
    this.#watchers.set(g, pairs);
    return pairs;
  }

  /**
   * Evaluate the pairs that are due, then one order-manager cycle. A pair inside its
   * throttle waits in `#held` and is looked at again only when the earliest of them is due
   * (or a halt needs its quotes pulled now): a busy feed marks the same throttled pairs on
   * nearly every event, and scanning them all each time cost more than the evaluations
   * themselves. Held pairs were marked before any pair in `#dirty`, so visiting them first
   * keeps the order of marking.
   */
  run(now: number): void {
    const scanHeld = this.#held.size > 0 && (now >= this.#heldDue || this.#pullHeld);
    if (this.#dirty.size === 0 && !scanHeld) {
      // A wake-up that fired before the earliest held pair is due (it was asked for an
      // earlier one, since evaluated) must leave the next one armed: marks on held pairs
      // do not reach #dirty, so no other event would.
      if (this.#held.size > 0) this.#wakeIn(now, this.#heldDue - now);
      return;
    }
    this.#pullHeld = false;
    const work: StrategyWork[] = [];
    if (scanHeld) {
      // Kept in a local until the scan is through: a throw midway leaves the old, earlier value.
      let due = Infinity;
      // Deleting the entry being visited is safe while iterating a Map. Values, not entries:
      // a pair holds its key, and an entry walk makes a pair array per held pair.
      for (const p of this.#held.values()) {
        if (this.#visit(p, now, work)) this.#held.delete(p.key);
        else due = Math.min(due, this.#dueOf(p));
      }
      this.#heldDue = due;
    }
    for (const p of this.#dirty.values()) {
      if (this.#visit(p, now, work)) continue;
      this.#held.set(p.key, p);
      this.#heldDue = Math.min(this.#heldDue, this.#dueOf(p));
    }
    this.#dirty.clear();
    if (work.length > 0) this.#o.cycle(work);
    if (this.#held.size > 0) this.#wakeIn(now, this.#heldDue - now);
  }

  /** Evaluate one pair into `work`, unless its throttle holds it (false). */
  #visit(pair: DirtyPair, now: number, work: StrategyWork[]): boolean {
    const mode = this.#o.modeOf(pair.strategy.id);
    if (this.#dueOf(pair) > now && mode !== 'halted') return false;
    this.#lastEval.set(pair.key, now);
    this.#o.evaluate(pair, mode, now, work);
    return true;
  }

  /** When a pair's throttle ends: its last evaluation is unchanged while it is held. */
  #dueOf(p: DirtyPair): number {
    return (this.#lastEval.get(p.key) ?? -Infinity) + p.strategy.throttleMs;
  }

  /**
   * One pending wake-up at a time, the earliest asked for: a busy game whose evaluations
   * are throttled asks on every event, and a wake-up re-arms for the next held pair.
   */
  #wakeIn(now: number, wait: number): void {
    const at = now + wait;
    if (this.#wakeAt !== null && this.#wakeAt <= at) return;
    this.#wakeAt = at;
    this.#o.scheduler.schedule(() => {
      if (this.#wakeAt === at) this.#wakeAt = null;
      this.#o.wake();
    }, wait);
  }

  /**
   * A strategy that reads the clock and declared how long its quotes stay good is looked at
   * again then, even if nothing else moves on its game; one wake-up per pair at a time.
   */
  askAgainIn(pair: DirtyPair, ms: number): void {
    if (this.#askAgain.has(pair.key)) return;
    this.#askAgain.add(pair.key);
    this.#o.scheduler.schedule(() => {
      this.#askAgain.delete(pair.key);
      if (!this.#o.holdsMemo(pair.key)) return;
      if (!this.#dirty.has(pair.key) && !this.#held.has(pair.key)) this.#dirty.set(pair.key, pair);
      this.#o.wake();
    }, ms);
  }

  /** A refused key sits out its cooldown (`ms`); then the game is looked at again even if nothing else moves. */
  retryGameAfter(gameID: string, ms: number): void {
    if (this.#retryScheduled.has(gameID)) return;
    this.#retryScheduled.add(gameID);
    this.#o.scheduler.schedule(() => {
      this.#retryScheduled.delete(gameID);
      this.markGame(gameID);
      this.#o.wake();
    }, ms);
  }
}
