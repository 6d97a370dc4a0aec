import type { RunConfig } from '../config/types.ts';
import type { RiskLimits } from '../orders/risk-gate.ts';
import type { RuntimeOptions } from '../runtime/runtime.ts';
import type { StrategyInstance } from '../runtime/strategy-instance.ts';

/** The enabled strategies of a config, as the runtime runs them. */
export function strategiesOf(config: Pick<RunConfig, 'strategies'>): StrategyInstance[] {
  return config.strategies
    .filter((s) => s.enabled)
    .map((s) => ({
      id: s.id,
      module: s.module,
      params: s.params,
      interest: s.interest,
      live: s.live,
      throttleMs: s.throttleMs,
    }));
}

/**
 * What a run decides about its runtime: which strategies, under which limits, how it
 * heartbeats and how it treats orders it finds at start. A run's config gives it
 * (`policyOf`); the soak, which has no config file, gives its own.
 */
export interface RuntimePolicy {
  readonly strategies: readonly StrategyInstance[];
  readonly limits: RiskLimits;
  readonly usePostArb: boolean;
  readonly heartbeatSeconds: number;
  readonly cancelUnknownOrdersAtStart: boolean;
}

/** Where the runtime runs: the venue, clock, scheduler, logger, run id and the optional hooks. */
export type RuntimeWiring = Omit<RuntimeOptions, keyof RuntimePolicy | 'gateway'> & {
  readonly gateway?: RuntimeOptions['gateway'];
};

export function policyOf(config: Pick<RunConfig, 'strategies' | 'risk'>): RuntimePolicy {
  const risk = config.risk;
  return {
    strategies: strategiesOf(config),
    limits: risk,
    usePostArb: risk.usePostArb,
    heartbeatSeconds: risk.heartbeatSeconds,
    cancelUnknownOrdersAtStart: risk.cancelUnknownOrdersAtStart,
  };
}

/** The one place a runtime's options are put together: live and paper sessions, the backtest and the soak all build them here. */
export function runtimeOptions(policy: RuntimePolicy, wiring: RuntimeWiring): RuntimeOptions {
  return { gateway: 'rest', ...policy, ...wiring };
}
