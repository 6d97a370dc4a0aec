/**
 * Test helpers for strategy projects: `import { backtest, sampleRecording } from 'linesmith/testing'`.
 * A backtest here is the `linesmith backtest` command without its files and output: the
 * same config loading, runtime, order manager and simulated venue, on a virtual clock.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BacktestReport, FillRow, OrderRow } from '../backtest/report/types.ts';
import { runBacktest } from '../app/backtest-run.ts';
import { backtestSettings } from '../app/sweep.ts';
import { loadTape } from '../backtest/tape.ts';
import type { FillModelKind } from '../backtest/venue/queue-model.ts';
import { loadConfig } from '../config/load.ts';
import { defaultStrategyResolver, type StrategyRegistry } from '../config/strategy-resolver.ts';
import { LinesmithError } from '../shared/errors.ts';
import { silentLogger } from '../shared/logger.ts';
import type { StrategyModule } from '../strategy/types.ts';
import { strategies as builtIn } from '../app/strategy-registry.ts';

export type { BacktestReport, FillRow, OrderRow } from '../backtest/report/types.ts';
export type { FillModelKind } from '../backtest/venue/queue-model.ts';

export interface BacktestOptions {
  /** A run config (YAML). Strategy modules given as paths resolve against its folder, as in `linesmith backtest`. */
  readonly config: string;
  /** Recordings: files or folders (`linesmith record`, `sampleRecording()`). */
  readonly feeds: readonly string[];
  /** Overrides the config's `backtest.seed`. */
  readonly seed?: number;
  /** Overrides the config's `backtest.fillModel.kind`. */
  readonly fillModel?: FillModelKind;
  /** Strategies the config may name besides the built-in ones, by their `name`. */
  readonly strategies?: readonly StrategyModule<unknown>[];
}

export interface BacktestOutcome {
  readonly report: BacktestReport;
  readonly orders: readonly OrderRow[];
  readonly fills: readonly FillRow[];
}

/** Replays `feeds` through the config's strategies; the same inputs and seed give the same report. */
export async function backtest(o: BacktestOptions): Promise<BacktestOutcome> {
  const registry: StrategyRegistry = new Map<string, StrategyModule>([
    ...builtIn,
    ...(o.strategies ?? []).map((m) => [m.name, m] as const),
  ]);
  const config = await loadConfig(o.config, { resolveStrategy: defaultStrategyResolver(registry) });
  const settings = backtestSettings(config, {
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.fillModel !== undefined ? { fillModel: o.fillModel } : {}),
  });
  const tape = await loadTape(o.feeds);
  const result = await runBacktest({ config, tape, logger: silentLogger(), settings });
  return { report: result.report, orders: result.orders, fills: result.fills };
}

/** The sample recordings that come with linesmith (backtest/data/README.md describes them). */
export const SAMPLE_RECORDINGS = ['paper-seed7', 'paper-seed11-drops', 'paper-seed13-deep'] as const;
export type SampleRecording = (typeof SAMPLE_RECORDINGS)[number];

/**
 * The folder of a sample recording shipped with linesmith. The default, `paper-seed13-deep`,
 * is 20 minutes of two games with deep books: a backtest of it takes seconds.
 */
export function sampleRecording(name: SampleRecording = 'paper-seed13-deep'): string {
  if (!SAMPLE_RECORDINGS.includes(name)) {
    throw new SampleRecordingError(
      `unknown sample recording "${String(name)}"; known: ${SAMPLE_RECORDINGS.join(', ')}`,
    );
  }
  const dir = fileURLToPath(new URL(`../../backtest/data/${name}`, import.meta.url));
  if (!existsSync(dir))
    throw new SampleRecordingError(`sample recording ${name} is missing from this linesmith installation (${dir})`);
  return dir;
}

/** An unknown sample name, or a linesmith installed without its sample recordings. */
export class SampleRecordingError extends LinesmithError {
  override readonly code = 'LS_ERR_SAMPLE_RECORDING';
}
