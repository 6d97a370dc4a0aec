import { fixedSpread, inventorySkew, postArb } from '../app/strategy-registry.ts';
import type { StrategyInstance } from '../runtime/strategy-instance.ts';
import type { Interest } from '../strategy/types.ts';

const interest = (leagues: string[], marketTypes: Interest['marketTypes'] = []): Interest => ({
  leagues,
  sports: [],
  gameIDs: [],
  marketTypes,
});

/**
 * The soak's three strategies, as config/example.yaml runs them: fixed-spread on NBA and
 * NFL, inventory-skew on NHL and MLB moneylines, post-arb everywhere (live games too).
 * Params through each module's own schema, as the config loader does.
 */
export function soakStrategies(): StrategyInstance[] {
  return [
    {
      id: 'spread',
      module: fixedSpread,
      params: fixedSpread.params.parse({}),
      interest: interest(['NBA', 'NFL'], ['moneyline', 'spread', 'total']),
      live: { kind: 'pull' },
      throttleMs: 250,
    },
    {
      id: 'skew',
      module: inventorySkew,
      params: inventorySkew.params.parse({}),
      interest: interest(['NHL', 'MLB'], ['moneyline']),
      live: { kind: 'widen', probabilityPoints: 0.03 },
      throttleMs: 500,
    },
    {
      id: 'arb',
      module: postArb,
      params: postArb.params.parse({}),
      interest: interest([]),
      live: { kind: 'keep' },
      throttleMs: 1_000,
    },
  ];
}
