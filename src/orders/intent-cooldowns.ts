import type { QuoteIntent } from '../strategy/types.ts';

const NOTHING_BLOCKED: ReadonlySet<string> = new Set();

/** Keys held past this many: the ones whose cooldown has run are forgotten. */
const PRUNE_ABOVE = 10_000;

/** One strategy's cooldowns on one game. */
interface GameCooldowns {
  /** intent key → time until which it is not sent. */
  readonly until: Map<string, number>;
  /** The latest of them: once past it, nothing of this game is blocked. */
  cooledUntil: number;
}

/**
 * The intents that sit out a while before they are sent again: after a risk or exchange
 * rejection, and after a fill-and-kill or fill-or-kill, so a strategy that keeps asking for
 * the same refused order does not send it on every cycle. Kept per strategy, game and
 * intent key; the intent cycle reads it, and the cycle and the gateway's answers write it.
 *
 * Kept by strategy and game rather than by one spelt key: the cycle asks for every game it
 * plans, and with many games some cooldown somewhere is nearly always running, so a
 * question about a game with none answers from two lookups, with no key spelt per intent.
 */
export class IntentCooldowns {
  /** How long a key waits after a rejection before it is sent again. */
  readonly ms: number;
  /** strategy → game → its cooldowns. */
  readonly #byStrategy = new Map<string, Map<string, GameCooldowns>>();
  #size = 0;
  /** The latest time any cooldown runs until: once past it, nothing is blocked. */
  #cooledUntil = -Infinity;

  constructor(ms: number) {
    this.ms = ms;
  }

  /** How many keys it holds, run out or not (at most `PRUNE_ABOVE` and those still running). */
  get size(): number {
    return this.#size;
  }

  /** The intents of a strategy's game that sit out a cooldown now; most cycles have none. */
  blocked(strategyId: string, gameID: string, intents: readonly QuoteIntent[], now: number): ReadonlySet<string> {
    if (this.#size === 0 || this.#cooledUntil <= now) return NOTHING_BLOCKED;
    const game = this.#byStrategy.get(strategyId)?.get(gameID);
    if (game === undefined || game.cooledUntil <= now) return NOTHING_BLOCKED;
    let blocked: Set<string> | null = null;
    for (const i of intents) {
      if ((game.until.get(i.key) ?? -Infinity) > now) (blocked ??= new Set()).add(i.key);
    }
    return blocked ?? NOTHING_BLOCKED;
  }

  /** The key is not sent again before `now` plus the cooldown. */
  cool(strategyId: string, gameID: string, key: string, now: number): void {
    const until = now + this.ms;
    let games = this.#byStrategy.get(strategyId);
    if (games === undefined) this.#byStrategy.set(strategyId, (games = new Map()));
    let game = games.get(gameID);
    if (game === undefined) games.set(gameID, (game = { until: new Map(), cooledUntil: -Infinity }));
    const held = game.until.size;
    game.until.set(key, until);
    this.#size += game.until.size - held;
    if (until > game.cooledUntil) game.cooledUntil = until;
    if (until > this.#cooledUntil) this.#cooledUntil = until;
    if (this.#size > PRUNE_ABOVE) this.#prune(now);
  }

  /** Forgets every key whose cooldown has run by `now`, and the games left with none. */
  #prune(now: number): void {
    for (const [strategyId, games] of this.#byStrategy) {
      for (const [gameID, game] of games) {
        for (const [k, t] of game.until) {
          if (t > now) continue;
          game.until.delete(k);
          this.#size--;
        }
        if (game.until.size === 0) games.delete(gameID);
      }
      if (games.size === 0) this.#byStrategy.delete(strategyId);
    }
  }
}
