import type { TradingMode } from '../market-model/types.ts';
import { STARTING, type HaltReason } from './halt-reason.ts';

/** The strictest of several modes wins. */
const MODE_RANK: Readonly<Record<TradingMode, number>> = { active: 0, reducing: 1, halted: 2 };

/**
 * Why the runtime may not trade, and the modes it trades in: the process's own (halted while
 * any reason holds), the operator's word on the whole process, and the operator's word on
 * each strategy. A runtime starts halted for `STARTING`. Once it is held for good (a kill
 * switch or a clean stop), lifting the last reason no longer makes it active.
 */
export class HaltRegistry {
  readonly #reasons = new Set<HaltReason>([STARTING]);
  #mode: TradingMode = 'halted';
  #operatorMode: TradingMode = 'active';
  readonly #strategyModes = new Map<string, TradingMode>();
  #heldForGood = false;

  /** The process's mode: `halted` while any reason holds, else `active`. */
  get mode(): TradingMode {
    return this.#mode;
  }

  /** The reasons that hold now, in the order they were first given. */
  get reasons(): readonly HaltReason[] {
    return [...this.#reasons];
  }

  /** Hold for `reason` too. True when this halt stopped a runtime that was trading. */
  halt(reason: HaltReason): boolean {
    const before = this.#mode;
    this.#reasons.add(reason);
    this.#mode = 'halted';
    return before !== 'halted';
  }

  /** Lift `reason`. True when it was the last one and the runtime trades again. */
  lift(reason: HaltReason): boolean {
    if (!this.#reasons.delete(reason)) return false;
    if (this.#reasons.size > 0 || this.#heldForGood) return false;
    this.#mode = 'active';
    return true;
  }

  /** From now on no lift makes the runtime active again: it was killed or is stopping. */
  holdForGood(): void {
    this.#heldForGood = true;
  }

  /** The operator's word on one strategy, or without `strategyId` on the whole process. */
  setOperatorMode(mode: TradingMode, strategyId?: string): void {
    if (strategyId === undefined) this.#operatorMode = mode;
    else this.#strategyModes.set(strategyId, mode);
  }

  /** The mode a strategy trades in now: the strictest of the process's, the operator's and its own. */
  modeOf(strategyId: string): TradingMode {
    let m: TradingMode = this.#mode;
    if (MODE_RANK[this.#operatorMode] > MODE_RANK[m]) m = this.#operatorMode;
    // Asked on every evaluation; most runs never set a strategy's own mode.
    if (this.#strategyModes.size === 0) return m;
    const own = this.#strategyModes.get(strategyId);
    if (own !== undefined && MODE_RANK[own] > MODE_RANK[m]) m = own;
    return m;
  }
}
