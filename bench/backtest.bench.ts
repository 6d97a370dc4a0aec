import { runJsonChild } from './child.ts';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInStrategyResolver } from '../src/app/strategy-registry.ts';
import { runBacktest } from '../src/app/backtest-run.ts';
import { loadTape } from '../src/backtest/tape.ts';
import { loadConfig } from '../src/config/index.ts';
import { silentLogger } from '../src/shared/logger.ts';
import { runVenueActionBench, type VenueActionFigure } from './venue-actions.ts';

/**
 * Backtest throughput: a recording read and parsed into a tape (`loadTape`: gunzip, JSON,
 * the live price feed's frame checks, the snapshots' schema), then replayed through the
 * runtime, strategies, order manager and simulated venue (`runBacktest`). Reported per
 * config: events replayed per second (replay only), the parse-only time, and how many
 * times the parse-only time the whole backtest takes, (load + replay) / load. Each figure
 * is the best of `runs` runs (the first run also warms the JIT up).
 */
export interface BacktestBenchFigure {
  readonly config: string;
  readonly events: number;
  readonly loadMs: number;
  readonly replayMs: number;
  readonly eventsPerSecond: number;
  /** (best load + best replay) / best load. */
  readonly ratio: number;
}

export interface BacktestBenchResult {
  readonly recording: string;
  readonly runs: number;
  readonly figures: readonly BacktestBenchFigure[];
  readonly goalEventsPerSecond: number;
  readonly goalRatio: number;
  /** CPU µs per place or cancel through the simulated venue, each boundary, and the engine alone (bench/venue-actions.ts). */
  readonly venueActions: readonly VenueActionFigure[];
  readonly goalUsPerAction: number;
}

const root = resolve(fileURLToPath(import.meta.url), '../..');
export const BACKTEST_RECORDING = resolve(root, 'backtest/data/paper-seed7');
export const BACKTEST_CONFIGS = [resolve(root, 'test/backtest/golden/fixed-spread.yaml'), resolve(root, 'config/example.yaml')];

export async function runBacktestBench(options: { runs?: number; recording?: string; configs?: readonly string[] } = {}): Promise<BacktestBenchResult> {
  const runs = options.runs ?? 3;
  const recording = options.recording ?? BACKTEST_RECORDING;
  const logger = silentLogger();
  const figures: BacktestBenchFigure[] = [];
  for (const path of options.configs ?? BACKTEST_CONFIGS) {
    const config = await loadConfig(path, { resolveStrategy: builtInStrategyResolver() });
    let loadMs = Infinity;
    let replayMs = Infinity;
    let events = 0;
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const tape = await loadTape([recording]);
      const t1 = performance.now();
      const result = await runBacktest({ config, tape, logger });
      const t2 = performance.now();
      loadMs = Math.min(loadMs, t1 - t0);
      replayMs = Math.min(replayMs, t2 - t1);
      events = result.events;
    }
    figures.push({ config: basename(path), events, loadMs, replayMs, eventsPerSecond: (events / replayMs) * 1000, ratio: (loadMs + replayMs) / loadMs });
  }
  const venueActions = await runVenueActionBench();
  return { recording: basename(recording), runs, figures, goalEventsPerSecond: 1_000_000, goalRatio: 2, venueActions, goalUsPerAction: 5 };
}

/**
 * The same in a fresh process (its best-of-3 figures are still warm ones): in the process that ran the
 * other benchmarks first, their garbage and JIT state made the replay a third slower and
 * the parse faster.
 */
export async function runBacktestBenchInChild(): Promise<BacktestBenchResult> {
  return runJsonChild<BacktestBenchResult>('backtest', fileURLToPath(import.meta.url));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `--step venue-actions` runs only the per place or cancel micro-bench (bench/venue-actions.ts).
  if (process.argv.includes('venue-actions')) console.log(JSON.stringify(await runVenueActionBench()));
  else console.log(JSON.stringify(await runBacktestBench()));
}
