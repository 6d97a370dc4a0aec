import type { StrategyModule } from '../src/strategy/types.ts';
import { fixedSpread } from './fixed-spread.ts';
import { inventorySkew } from './inventory-skew.ts';
import { postArb } from './post-arb.ts';

export { fixedSpread, inventorySkew, postArb };

/**
 * Every strategy by its `name`, which is what config refers to. Params are `unknown` here:
 * the runtime parses them with the module's own schema before calling `quote`.
 */
export const strategies: ReadonlyMap<string, StrategyModule<unknown>> = new Map<string, StrategyModule<unknown>>(
  [fixedSpread, inventorySkew, postArb].map((m) => [m.name, m]),
);

export function strategyByName(name: string): StrategyModule<unknown> | undefined {
  return strategies.get(name);
}
