import type { RegisterDeps } from '../register.ts';
import { DEFAULT_SCENARIO } from './default-scenario.ts';
import { startSyntheticMarket } from './market.ts';
import { parseScenario } from './scenario.ts';

/**
 * Mount the synthetic market when traders are on: the given scenario (validated again
 * here, so a bad object fails at start with a ScenarioError) or the built-in default.
 * The market stops when the simulator closes.
 */
export function registerMarket(deps: RegisterDeps): void {
  if (!deps.traders) return;
  const scenario =
    deps.scenario === undefined ? parseScenario(DEFAULT_SCENARIO, 'default scenario') : parseScenario(deps.scenario);
  const market = startSyntheticMarket(deps.ctx, scenario);
  deps.ctx.hooks.onClose.push(() => market.stop());
}
