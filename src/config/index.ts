export { ConfigError, formatConfigIssue, type ConfigIssue } from './errors.ts';
export { DurationError, parseDuration } from '../shared/duration.ts';
export { LOG_LEVELS } from './fields.ts';
export { loadConfig, parseConfigText, type LoadConfigOptions } from './load.ts';
export { componentLogger, createRunLogger, type RunLoggerOptions } from './logging.ts';
export { defaultStrategyResolver, isModulePath, isStrategyModule, type StrategyRegistry } from './strategy-resolver.ts';
export type {
  LoggingConfig,
  LogLevel,
  MetricsConfig,
  PaperConfig,
  RecordingConfig,
  RiskConfig,
  RunConfig,
  StrategyConfig,
  StrategyResolver,
  VenueConfig,
} from './types.ts';
