import { parentPort } from 'node:worker_threads';
import type { Tape } from '../../backtest/tape.ts';
import type { TapeFile } from '../../backtest/tape/file.ts';
import { builtInStrategyResolver } from '../strategy-registry.ts';
import { openVariantTape, runVariant } from '../variant-run.ts';
import { encodeResult } from './result-codec.ts';
import { THREAD_READY, type VariantAnswer, type VariantTask } from './variant-task.ts';

// A queue worker's thread: started with the worker, so its modules are loaded before the
// first job; the tape is opened on the first job that names it and kept while jobs keep
// naming it; each job is one variant run by the same `runVariant` as a local sweep's thread
// (sweep-worker.ts), its result encoded here, off the thread that renews the job's lock.
const resolveStrategy = builtInStrategyResolver();
let open: { path: string; tape: Tape | TapeFile } | null = null;

async function tapeAt(path: string, kind: VariantTask['kind']): Promise<Tape | TapeFile> {
  if (open?.path !== path) open = { path, tape: await openVariantTape(path, kind) };
  return open.tape;
}

async function runTask(task: VariantTask): Promise<VariantAnswer> {
  try {
    const tape = await tapeAt(task.tapePath, task.kind);
    const { result, replayMs } = await runVariant(tape, task, resolveStrategy);
    return { index: task.index, encoded: await encodeResult(result), events: result.events, error: null, replayMs };
  } catch (err) {
    return { index: task.index, encoded: null, events: 0, error: (err as Error).message, replayMs: 0 };
  }
}

// Tasks come one at a time (the lane waits for each answer), so they never overlap.
parentPort!.on('message', (task: VariantTask) => {
  void runTask(task).then((answer) => {
    // Handed over, not copied, when the bytes own their whole buffer (a pooled slice is copied).
    const e = answer.encoded;
    const whole = e !== null && e.byteOffset === 0 && e.byteLength === e.buffer.byteLength;
    parentPort!.postMessage(answer, whole ? [e.buffer as ArrayBuffer] : []);
  });
});
parentPort!.postMessage(THREAD_READY);
