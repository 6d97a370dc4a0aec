import type { SchedulerLike, Subscription } from 'rxjs';
import type { GameIdentity, MarketModel } from '../market-model/market-model.ts';
import type { TradingMode } from '../market-model/types.ts';
import type { StrategyWork } from '../orders/order-manager.ts';
import { DUE_DIRTY, DUE_HELD, DUE_NONE, PairState } from './pair-state.ts';
import { strategyGameKey, type StrategyGameKey } from './strategy-game-key.ts';
import { wantsGame, type StrategyInstance } from './strategy-instance.ts';

/** The longest single wait for a look at an instant: well under a timer's ceiling. */
const LOOK_HORIZON_MS = 6 * 3_600_000;

export interface EvaluationSchedulerOptions {
  readonly strategies: readonly StrategyInstance[];
  readonly market: Pick<MarketModel, 'identity' | 'identities'>;
  readonly scheduler: SchedulerLike;
  /** The mode a strategy trades in now: a halted one is evaluated at once, throttle or not. */
  readonly halts: { modeOf(strategyId: string): TradingMode };
  /** Evaluates a pair whose throttle has run out, into `work`. An object, not a closure: called on every evaluation. */
  readonly evaluator: { evaluate(pair: PairState, mode: TradingMode, now: number, work: StrategyWork[]): void };
  /** One order-manager cycle over what the evaluations gave. */
  readonly cycle: (work: StrategyWork[]) => void;
  /** Run the loop once more, to look at the dirty pairs: a throttle or a cooldown ran out. */
  readonly wake: () => void;
}

/**
 * Which strategy–game pairs are due for an evaluation, and when: the pairs marked since the
 * last look (`#dirty`), those marked inside their throttle (`#held`, due at `#heldDue`),
 * each pair's last evaluation, and the wake-ups pending on the scheduler (the earliest held
 * pair, a strategy's ask-again, a refused game's cooldown). A pair's place in the lists is
 * kept on its PairState (`due`), so marking an already marked pair costs a field read.
 */
export class EvaluationScheduler {
  readonly #o: EvaluationSchedulerOptions;
  /** Every pair that was ever marked, by key, until its game is forgotten. */
  readonly #pairs = new Map<StrategyGameKey, PairState>();
  /**
   * Strategy–game pairs to evaluate, in the order marked: the first `#dirtyCount` of the
   * list. One list for the scheduler's life, written over from the start after each look
   * (a list per look, grown pair by pair, was most of what a look allocated).
   */
  readonly #dirty: PairState[] = [];
  #dirtyCount = 0;
  /** Pairs marked while inside their throttle (it ends at `#dueOf`), in the order held; `#heldDue` is the earliest end. */
  #held: PairState[] = [];
  #heldDue = Infinity;
  /** A halt began: held pairs of the halted strategies must pull their quotes now, throttle or not. */
  #pullHeld = false;
  readonly #watchers = new WeakMap<GameIdentity, readonly PairState[]>();
  /**
   * The identity last looked up in #watchers and its pairs: the feed sends a game's sides in
   * bursts, so most marks are of the game marked before, found here without a lookup.
   */
  #lastIdentity: GameIdentity | null = null;
  #lastPairs: readonly PairState[] = [];
  /**
   * Where a look's evaluations go, for the order-manager cycle: kept from one look to the
   * next until one evaluates something. Most looks at a busy game find its pairs inside their
   * throttle and evaluate nothing, and a list made for each of them was garbage at once.
   */
  #work: StrategyWork[] = [];
  /** When the pending wake-up for throttled evaluations fires (null: none pending). */
  #wakeAt: number | null = null;
  /** Pairs with a look-again pending for a strategy's `reevaluateEvery`. */
  readonly #askAgain = new Set<StrategyGameKey>();
  /** Games with a look-again pending after a refusal's cooldown. */
  readonly #retryScheduled = new Set<string>();
  /** Games with a look pending at an instant (lookAtGameAt): that instant, and its timer. */
  readonly #looksAt = new Map<string, { readonly at: number; readonly sub: Subscription }>();

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

  /** A pair's game left the model: nothing is kept or due for it (its state, memo included, is dropped). */
  forget(key: StrategyGameKey): void {
    const p = this.#pairs.get(key);
    if (p === undefined) return;
    this.#pairs.delete(key);
    if (p.due === DUE_DIRTY) {
      const i = this.#dirty.indexOf(p);
      this.#dirty.copyWithin(i, i + 1, this.#dirtyCount);
      this.#dirtyCount--;
    } else if (p.due === DUE_HELD) {
      this.#held.splice(this.#held.indexOf(p), 1);
      if (this.#held.length === 0) this.#heldDue = Infinity;
    }
    p.due = DUE_NONE;
    p.memo = null;
  }

  #markPairs(g: GameIdentity): void {
    const pairs = this.#pairsOf(g);
    for (let i = 0; i < pairs.length; i++) {
      const p = pairs[i]!;
      if (p.due === DUE_NONE) {
        p.due = DUE_DIRTY;
        this.#dirty[this.#dirtyCount++] = p;
      }
    }
  }

  /**
   * The strategies that watch a game, as their pairs: worked out once per identity (the model
   * keeps the object while the game's identity holds) rather than on every price event, which
   * would match interest lists and build keys each time. A pair already known under its key
   * (the game's identity changed) is the same object, with its throttle and memo.
   */
  #pairsOf(g: GameIdentity): readonly PairState[] {
    if (g === this.#lastIdentity) return this.#lastPairs;
    const pairs = this.#watchers.get(g) ?? this.#watch(g);
    this.#lastIdentity = g;
    this.#lastPairs = pairs;
    return pairs;
  }

  /** The pairs of a game's watchers, worked out for an identity not seen before. */
  #watch(g: GameIdentity): readonly PairState[] {
    const pairs: PairState[] = [];
    for (const s of this.#o.strategies) {
      if (!wantsGame(s, g)) continue;
      const key = strategyGameKey(s.id, g.id);
      let p = this.#pairs.get(key);
      if (p === undefined) {
        p = new PairState(key, s, g.id);
        this.#pairs.set(key, p);
      }
      pairs.push(p);
    }
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
    const held = this.#held;
    const scanHeld = held.length > 0 && (now >= this.#heldDue || this.#pullHeld);
    const dirty = this.#dirty;
    if (this.#dirtyCount === 0 && !scanHeld) {
      // A wake-up that fired before the earliest held pair is due (it was asked for an
      // earlier one, since evaluated) must leave the next one armed: marks on held pairs
      // do not reach #dirty, so no other event would.
      if (held.length > 0) this.#wakeIn(now, this.#heldDue - now);
      return;
    }
    this.#pullHeld = false;
    // A look that threw midway left what it evaluated here; that work is dropped, as the
    // cycle it was for never ran.
    if (this.#work.length > 0) this.#work = [];
    const work = this.#work;
    if (scanHeld) this.#scanHeld(now, work);
    // Pairs marked while this walk evaluates are walked too (their index is past the end yet).
    let i = 0;
    try {
      for (; i < this.#dirtyCount; i++) {
        const p = dirty[i]!;
        if (this.#visit(p, now, work)) {
          p.due = DUE_NONE;
          continue;
        }
        p.due = DUE_HELD;
        held.push(p);
        this.#heldDue = Math.min(this.#heldDue, this.#dueOf(p));
      }
    } finally {
      // A throw leaves the pair that threw and those after it dirty, for the next look. The
      // list is only written over, never cut: setting its length is a call into the runtime.
      if (i >= this.#dirtyCount) this.#dirtyCount = 0;
      else {
        dirty.copyWithin(0, i, this.#dirtyCount);
        this.#dirtyCount -= i;
      }
    }
    if (work.length > 0) {
      // A new list for the next look before the cycle: the cycle may keep this one.
      this.#work = [];
      this.#o.cycle(work);
    }
    if (held.length > 0) this.#wakeIn(now, this.#heldDue - now);
  }

  /** Visit the held pairs: those whose throttle ran out (or whose strategy halted) are evaluated and leave the list. */
  #scanHeld(now: number, work: StrategyWork[]): void {
    const held = this.#held;
    // Kept in a local until the scan is through: a throw midway leaves the old, earlier value.
    let due = Infinity;
    let kept = 0;
    let i = 0;
    try {
      for (; i < held.length; i++) {
        const p = held[i]!;
        if (this.#visit(p, now, work)) p.due = DUE_NONE;
        else {
          held[kept++] = p;
          due = Math.min(due, this.#dueOf(p));
        }
      }
      this.#heldDue = due;
    } finally {
      // The list keeps its order; after a throw, the pair that threw and those after it stay held.
      if (i < held.length) held.copyWithin(kept, i);
      // Setting the length is a call into the runtime: only when a pair left the list.
      const length = kept + (held.length - i);
      if (length !== held.length) held.length = length;
    }
  }

  /** Evaluate one pair into `work`, unless its throttle holds it (false). */
  #visit(pair: PairState, now: number, work: StrategyWork[]): boolean {
    const mode = this.#o.halts.modeOf(pair.strategy.id);
    if (this.#dueOf(pair) > now && mode !== 'halted') return false;
    pair.lastEval = now;
    this.#o.evaluator.evaluate(pair, mode, now, work);
    return true;
  }

  /** When a pair's throttle ends: its last evaluation is unchanged while it is held. */
  #dueOf(p: PairState): number {
    return p.lastEval + p.strategy.throttleMs;
  }

  /**
   * One pending wake-up at a time, the earliest asked for: a busy game whose evaluations
   * are throttled asks on every event, and a wake-up re-arms for the next held pair.
   */
  #wakeIn(now: number, wait: number): void {
    const at = now + wait;
    if (this.#wakeAt !== null && this.#wakeAt <= at) return;
    this.#wakeAt = at;
    this.#o.scheduler.schedule(this.#woken, wait, at);
  }

  /** A wake-up asked for `at` fired (one function for every wake-up: its instant is its state). */
  readonly #woken = (at?: number): void => {
    if (this.#wakeAt === at) this.#wakeAt = null;
    this.#o.wake();
  };

  /**
   * A strategy that reads the clock and declared how long its quotes stay good is looked at
   * again then, even if nothing else moves on its game; one wake-up per pair at a time. Moot
   * when the pair no longer holds intents to check again (its game was forgotten meanwhile).
   */
  askAgainIn(pair: PairState, ms: number): void {
    const key = pair.key;
    if (this.#askAgain.has(key)) return;
    this.#askAgain.add(key);
    this.#o.scheduler.schedule(() => {
      this.#askAgain.delete(key);
      const p = this.#pairs.get(key);
      if (p === undefined || p.memo === null) return;
      if (p.due === DUE_NONE) {
        p.due = DUE_DIRTY;
        this.#dirty[this.#dirtyCount++] = p;
      }
      this.#o.wake();
    }, ms);
  }

  /**
   * A game is looked at at instant `at` even if nothing moves on it then (its start, where a
   * live policy changes what its strategies may quote). One pending look per game, the
   * earliest; one further off than LOOK_HORIZON_MS waits in steps of it, since a timer's
   * delay has a ceiling (about 24.8 days in Node) and a game may be listed months ahead.
   */
  lookAtGameAt(gameID: string, at: number, now: number): void {
    const pending = this.#looksAt.get(gameID);
    if (pending !== undefined) {
      if (pending.at <= at) return;
      pending.sub.unsubscribe();
    }
    const wait = Math.max(0, at - now);
    const step = Math.min(wait, LOOK_HORIZON_MS);
    const sub = this.#o.scheduler.schedule(() => {
      this.#looksAt.delete(gameID);
      if (wait > step) {
        this.lookAtGameAt(gameID, at, now + step);
        return;
      }
      this.markGame(gameID);
      this.#o.wake();
    }, step);
    this.#looksAt.set(gameID, { at, sub });
  }

  /** Drops the looks pending at an instant: a stopped runtime keeps no timer alive for a game's start. */
  stop(): void {
    for (const l of this.#looksAt.values()) l.sub.unsubscribe();
    this.#looksAt.clear();
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
