import { defaultStrategyResolver } from '../config/strategy-resolver.ts';
import type { StrategyResolver } from '../config/types.ts';
import type { StrategyModule } from '../strategy/types.ts';
import { fixedSpread } from '../../strategies/fixed-spread.ts';
import { inventorySkew } from '../../strategies/inventory-skew.ts';
import { postArb } from '../../strategies/post-arb.ts';

export { fixedSpread, inventorySkew, postArb };

/**
 * Every strategy by its `name`, which is what config refers to. Params are `unknown` here:
 * the runtime parses them with the module's own schema before calling `quote`.
 */
export const strategies: ReadonlyMap<string, StrategyModule<unknown>> = new Map<string, StrategyModule<unknown>>(
  [fixedSpread, inventorySkew, postArb].map((m) => [m.name, m]),
);

/**
 * How run configs name strategies: these by name, or a path to the user's own. Here rather
 * than in src/cli so the sweep worker resolves as the CLI does without loading the CLI.
 */
export function builtInStrategyResolver(): StrategyResolver {
  return defaultStrategyResolver(strategies);
}

export function strategyByName(name: string): StrategyModule<unknown> | undefined {
  return strategies.get(name);
}
