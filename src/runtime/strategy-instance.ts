import type { GameIdentity } from '../market-model/market-model.ts';
import type { MarketType } from '../markets/types.ts';
import type { Interest, LivePolicy, StrategyModule } from '../strategy/types.ts';

/** One configured strategy: a module with its parameters, what it watches, how it plays live. */
export interface StrategyInstance {
  readonly id: string;
  readonly module: StrategyModule<unknown>;
  readonly params: unknown;
  readonly interest: Interest;
  readonly live: LivePolicy;
  /** At most one evaluation per game this often (later changes are conflated). */
  readonly throttleMs: number;
}

const matchesList = (list: readonly string[], value: string) =>
  list.length === 0 || list.some((x) => x.toLowerCase() === value.toLowerCase());

/** Whether a strategy watches a game. */
export function wantsGame(s: StrategyInstance, g: GameIdentity): boolean {
  const i = s.interest;
  if (i.gameIDs.length > 0 && !i.gameIDs.includes(g.id) && !(g.parentGameID && i.gameIDs.includes(g.parentGameID)))
    return false;
  return matchesList(i.leagues, g.league) && matchesList(i.sports, g.sport);
}

export function wantsMarket(s: StrategyInstance, type: MarketType): boolean {
  return s.interest.marketTypes.length === 0 || s.interest.marketTypes.includes(type);
}
