import { workerData, parentPort } from 'node:worker_threads';
import { builtInStrategyResolver } from './strategy-registry.ts';
import type { SweepAnswer, SweepJob, SweepWorkerData } from './sweep.ts';
import { openVariantTape, runVariant } from './variant-run.ts';

// A lane's worker: the tape is opened (or read) once, then each job is one variant with its own config.
const data = workerData as SweepWorkerData;
const tape = await openVariantTape(data.tapePath, data.kind);
const resolveStrategy = builtInStrategyResolver();

async function runJob(job: SweepJob): Promise<SweepAnswer> {
  try {
    const { result, replayMs } = await runVariant(tape, job, resolveStrategy);
    return { index: job.index, result, error: null, replayMs };
  } catch (err) {
    return { index: job.index, result: null, error: (err as Error).message, replayMs: 0 };
  }
}

// Jobs come one at a time (the lane waits for each answer), so they never overlap.
parentPort!.on('message', (job: SweepJob) => {
  void runJob(job).then((answer) => parentPort!.postMessage(answer));
});
