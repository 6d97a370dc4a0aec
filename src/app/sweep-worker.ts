import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { builtInStrategyResolver } from './strategy-registry.ts';
import { parseConfigText } from '../config/load.ts';
import { silentLogger } from '../shared/logger.ts';
import { runBacktest } from './backtest-run.ts';
import { backtestSettings, type SweepAnswer, type SweepJob, type SweepWorkerData } from './sweep.ts';
import type { Tape } from '../backtest/tape.ts';
import { TapeFile } from '../backtest/tape/file.ts';

// A lane's worker: the tape is opened (or read) once, then each job is one variant with its own config.
// Time is measured only to report speed.
const data = workerData as SweepWorkerData;
const tape =
  data.kind === 'tape' ? await TapeFile.open(data.tapePath) : (deserialize(readFileSync(data.tapePath)) as Tape);
const resolveStrategy = builtInStrategyResolver();

async function runJob(job: SweepJob): Promise<SweepAnswer> {
  try {
    const config = await parseConfigText(job.configText, job.configPath, { resolveStrategy });
    const started = performance.now();
    const settings = backtestSettings(config, job.overrides);
    const result = await runBacktest({ config, tape, logger: silentLogger(), settings });
    return { index: job.index, result, error: null, replayMs: performance.now() - started };
  } catch (err) {
    return { index: job.index, result: null, error: (err as Error).message, replayMs: 0 };
  }
}

// Jobs come one at a time (the lane waits for each answer), so they never overlap.
parentPort!.on('message', (job: SweepJob) => {
  void runJob(job).then((answer) => parentPort!.postMessage(answer));
});
