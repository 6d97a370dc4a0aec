import { StrategyIdError } from './errors.ts';

declare const strategyGameKey_: unique symbol;

/**
 * Where the runtime keeps what it knows of one strategy on one game: its evaluations,
 * throttle, memo, last intents and refusals. Built only by `strategyGameKey`, so every map
 * of the runtime keys a pair the same way: by the strategy's id and the game's.
 */
export type StrategyGameKey = string & { readonly [strategyGameKey_]: true };

export function strategyGameKey(strategyId: string, gameID: string): StrategyGameKey {
  return `${strategyId}|${gameID}` as StrategyGameKey;
}

/** The game a key names: a strategy id holds no "|" (checkStrategyIds), so the first one ends it. */
export function gameIDOf(key: StrategyGameKey): string {
  return key.slice(key.indexOf('|') + 1);
}

/** Each strategy has an id of its own, without "|", so no two pairs share a key. */
export function checkStrategyIds(strategies: readonly { readonly id: string }[]): void {
  const seen = new Set<string>();
  for (const { id } of strategies) {
    if (id.includes('|')) throw new StrategyIdError(id, 'holds "|"');
    if (seen.has(id)) throw new StrategyIdError(id, 'used twice');
    seen.add(id);
  }
}
