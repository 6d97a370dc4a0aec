import type { Interest, LivePolicy, StrategyModule } from '../strategy/types.ts';
import type { BacktestConfig } from './sections/backtest.ts';
import type { LoggingConfig } from './sections/logging.ts';
import type { MetricsConfig } from './sections/metrics.ts';
import type { PaperConfig } from './sections/paper.ts';
import type { RecordingConfig } from './sections/recording.ts';
import type { RiskConfig } from './sections/risk.ts';
import type { VenueConfig } from './sections/venue.ts';

export type { BacktestConfig, LoggingConfig, MetricsConfig, PaperConfig, RecordingConfig, RiskConfig, VenueConfig };
export type { LogLevel } from './fields.ts';

/** One strategy instance, its module resolved and its params validated by the module's own schema. */
export interface StrategyConfig<P = unknown> {
  readonly id: string;
  /** As written in the file: a registry name or a path. */
  readonly moduleRef: string;
  readonly module: StrategyModule<P>;
  /** The module schema's output (its defaults filled in). */
  readonly params: P;
  readonly interest: Interest;
  readonly live: LivePolicy;
  readonly throttleMs: number;
  readonly enabled: boolean;
}

/** A validated run configuration. Every path in it is absolute. */
export interface RunConfig {
  /** Absolute path of the file it was loaded from. */
  readonly source: string;
  /** The file's directory, against which its relative paths were resolved. */
  readonly baseDir: string;
  readonly venue?: VenueConfig;
  readonly paper?: PaperConfig;
  readonly strategies: readonly StrategyConfig[];
  readonly risk: RiskConfig;
  readonly logging: LoggingConfig;
  readonly recording: RecordingConfig;
  /** The `/metrics` and `/status` endpoint of `run` and `paper` (off by default). */
  readonly metrics: MetricsConfig;
  /** How `linesmith backtest` simulates execution (defaults when absent). */
  readonly backtest: BacktestConfig;
}

/**
 * Finds the module a strategy entry names: `ref` is the file's `module` value, `baseDir`
 * the config file's directory (for relative paths). Throws with a message fit for the user.
 */
export type StrategyResolver = (ref: string, baseDir: string) => Promise<StrategyModule>;
