import type { QuoteIntent } from '../strategy/types.ts';

const NOTHING_BLOCKED: ReadonlySet<string> = new Set();

/**
 * The intents that sit out a while before they are sent again: after a risk or exchange
 * rejection, and after a fill-and-kill or fill-or-kill, so a strategy that keeps asking for
 * the same refused order does not send it on every cycle. Keyed per strategy, game and
 * intent key; the intent cycle reads it, and the cycle and the gateway's answers write it.
 */
export class IntentCooldowns {
  /** How long a key waits after a rejection before it is sent again. */
  readonly ms: number;
  /** key `${strategy}|${game}|${intentKey}` → time until which it is not sent. */
  readonly #until = new Map<string, number>();
  /** The latest time any cooldown runs until: once past it, nothing is blocked, with no key to spell per intent. */
  #cooledUntil = -Infinity;

  constructor(ms: number) {
    this.ms = ms;
  }

  /** The intents of a strategy's game that sit out a cooldown now; most cycles have none. */
  blocked(strategyId: string, gameID: string, intents: readonly QuoteIntent[], now: number): ReadonlySet<string> {
    if (this.#until.size === 0 || this.#cooledUntil <= now) return NOTHING_BLOCKED;
    let blocked: Set<string> | null = null;
    for (const i of intents) {
      if ((this.#until.get(coolKey(strategyId, gameID, i.key)) ?? -Infinity) > now) (blocked ??= new Set()).add(i.key);
    }
    return blocked ?? NOTHING_BLOCKED;
  }

  /** The key is not sent again before `now` plus the cooldown. */
  cool(strategyId: string, gameID: string, key: string, now: number): void {
    const until = now + this.ms;
    this.#until.set(coolKey(strategyId, gameID, key), until);
    if (until > this.#cooledUntil) this.#cooledUntil = until;
    if (this.#until.size > 10_000) for (const [k, t] of this.#until) if (t <= now) this.#until.delete(k);
  }
}

function coolKey(strategyId: string, gameID: string, key: string): string {
  return `${strategyId}|${gameID}|${key}`;
}
