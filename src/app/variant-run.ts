import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import type { Tape } from '../backtest/tape.ts';
import { TapeFile } from '../backtest/tape/file.ts';
import { parseConfigText } from '../config/load.ts';
import { silentLogger } from '../shared/logger.ts';
import { runBacktest, type BacktestResult } from './backtest-run.ts';
import type { StrategyResolver } from '../config/types.ts';
import { backtestSettings, type SweepOverrides, type SweepWorkerData } from './sweep.ts';

/**
 * One variant of a sweep, run the same way wherever it runs: a local sweep's thread
 * (sweep-worker.ts) and a queue worker's thread (queue/variant-thread.ts) both call this,
 * which is what makes their reports byte-identical.
 */
export interface VariantSpec {
  readonly configText: string;
  readonly configPath: string;
  readonly overrides: SweepOverrides;
}

/** The tape a variant thread replays: the binary tape file, or a serialized in-memory tape. */
export async function openVariantTape(path: string, kind: SweepWorkerData['kind']): Promise<Tape | TapeFile> {
  return kind === 'tape' ? await TapeFile.open(path) : (deserialize(readFileSync(path)) as Tape);
}

/** Parse the variant's config and replay the tape with its overrides; time is measured only to report speed. */
export async function runVariant(
  tape: Tape | TapeFile,
  spec: VariantSpec,
  resolveStrategy: StrategyResolver,
): Promise<{ readonly result: BacktestResult; readonly replayMs: number }> {
  const config = await parseConfigText(spec.configText, spec.configPath, { resolveStrategy });
  const started = performance.now();
  const settings = backtestSettings(config, spec.overrides);
  const result = await runBacktest({ config, tape, logger: silentLogger(), settings });
  return { result, replayMs: performance.now() - started };
}
