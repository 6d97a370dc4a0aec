import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReplayJsonChild, runsAsScript } from './child.ts';
import { applyReplayHeapSettings } from '../src/app/replay-heap.ts';
import { builtInStrategyResolver } from '../src/app/strategy-registry.ts';
import { runBacktest, runBacktestBuilding } from '../src/app/backtest-run.ts';
import { findTape, openTape } from '../src/backtest/tape/cache.ts';
import { minimalRead } from '../src/backtest/tape/minimal-read.ts';
import { inTimeOrder, recordingFiles } from '../src/record/reader.ts';
import { loadConfig } from '../src/config/index.ts';
import { silentLogger } from '../src/shared/logger.ts';

/**
 * Issue 20's first-run and later-run ratios at research scale: the large recording (made by
 * scripts/make-large-recording.sh, 1.7M events) against a minimal read of its files (gunzip +
 * split + JSON.parse) in the same process. paper-seed7's figures (the main backtest step) are
 * for a recording read in a fraction of a second, below `BUILD_THREAD_MIN_BYTES`, where the
 * reading and encoding share the replay's thread; here the first run reads and encodes on a
 * thread of its own while the replay runs, as every recording of research size does. One run
 * of each (a minute or more each): the minimal read is the faster of one before the configs
 * and one after them, so no ratio gains from a slow divisor.
 */
export interface LargeFirstRunFigure {
  readonly config: string;
  /** Cache check and the one pass that reads, writes the tape and replays, ms. */
  readonly firstMs: number;
  /** Tape opened and replayed, ms. */
  readonly laterMs: number;
  readonly firstRatio: number;
  readonly laterRatio: number;
  /** Whether the first run read and encoded on a thread of its own. */
  readonly buildThread: boolean;
}

export interface LargeFirstRunResult {
  readonly recording: string;
  readonly events: number;
  readonly minimalReadMs: number;
  readonly figures: readonly LargeFirstRunFigure[];
  readonly goalFirstRatio: number;
  readonly goalLaterRatio: number;
}

const root = resolve(fileURLToPath(import.meta.url), '../..');
/** The configs measured: fixed-spread's replay alone is 3x paper-seed7's minimal read already, and about four minutes here. */
export const LARGE_FIRST_RUN_CONFIGS = [
  resolve(root, 'bench/backtest-quiet.yaml'),
  resolve(root, 'config/example.yaml'),
];

export async function runLargeFirstRun(recording: string): Promise<LargeFirstRunResult> {
  applyReplayHeapSettings();
  const files = await inTimeOrder(await recordingFiles([recording]));
  const logger = silentLogger();
  const dir = mkdtempSync(join(tmpdir(), 'ls-bench-large-first-'));
  const timedMinimalRead = async () => {
    const t0 = performance.now();
    await minimalRead(files);
    return performance.now() - t0;
  };
  try {
    const minimalBefore = await timedMinimalRead();
    const runs: Omit<LargeFirstRunFigure, 'firstRatio' | 'laterRatio'>[] = [];
    let events = 0;
    for (const path of LARGE_FIRST_RUN_CONFIGS) {
      const config = await loadConfig(path, { resolveStrategy: builtInStrategyResolver() });
      const t0 = performance.now();
      const found = await findTape([recording], { dir, rebuild: true });
      if (!('build' in found)) throw new Error('a rebuild was asked for, yet the tape was reused');
      const first = await runBacktestBuilding({ config, logger }, found.build);
      const t1 = performance.now();
      const reused = await openTape([recording], { dir });
      if (reused.built !== null) throw new Error('the tape just built was not reused');
      await runBacktest({ config, tape: reused.tape, logger });
      const t2 = performance.now();
      events = first.events;
      runs.push({ config: basename(path), firstMs: t1 - t0, laterMs: t2 - t1, buildThread: found.build.onThread });
    }
    const minimalReadMs = Math.min(minimalBefore, await timedMinimalRead());
    return {
      recording: basename(resolve(recording, '..')),
      events,
      minimalReadMs,
      figures: runs.map((r) => ({
        ...r,
        firstRatio: r.firstMs / minimalReadMs,
        laterRatio: r.laterMs / minimalReadMs,
      })),
      goalFirstRatio: 2,
      goalLaterRatio: 1,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A line per config for a person reading the bench's output. */
export function describeLargeFirstRun(lf: LargeFirstRunResult): string[] {
  return lf.figures.map(
    (f) =>
      `first run over the large recording with ${f.config}: ${f.firstRatio.toFixed(2)}x its minimal read ` +
      `(${(lf.minimalReadMs / 1000).toFixed(1)} s; goal ≤ ${lf.goalFirstRatio}: ${f.firstRatio <= lf.goalFirstRatio ? 'met' : 'not met'}), ` +
      `later run ${f.laterRatio.toFixed(2)}x (goal ≤ ${lf.goalLaterRatio}: ${f.laterRatio <= lf.goalLaterRatio ? 'met' : 'not met'})` +
      `${f.buildThread ? '; read and written on a build thread' : ''}`,
  );
}

/** The step in a fresh process of its own. */
export async function runLargeFirstRunInChild(recording: string): Promise<LargeFirstRunResult> {
  return runReplayJsonChild<LargeFirstRunResult>('backtest large first run', fileURLToPath(import.meta.url), [
    recording,
  ]);
}

if (runsAsScript(import.meta.url)) {
  const recording = process.argv[2];
  if (recording === undefined) throw new Error('usage: large-first-run.ts <recording>');
  console.log(JSON.stringify(await runLargeFirstRun(resolve(recording))));
}
