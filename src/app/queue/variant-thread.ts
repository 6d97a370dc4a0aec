import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { parseConfigText } from '../../config/load.ts';
import { silentLogger } from '../../shared/logger.ts';
import type { Tape } from '../../backtest/tape.ts';
import { TapeFile } from '../../backtest/tape/file.ts';
import { runBacktest } from '../backtest-run.ts';
import { builtInStrategyResolver } from '../strategy-registry.ts';
import { backtestSettings } from '../sweep.ts';
import { encodeResult } from './result-codec.ts';
import { THREAD_READY, type VariantAnswer, type VariantTask } from './variant-task.ts';

// A queue worker's thread: started with the worker, so its modules are loaded before the
// first job; the tape is opened on the first job that names it and kept while jobs keep
// naming it; each job is one variant run exactly as a local sweep's thread runs it
// (sweep-worker.ts), its result encoded here, off the thread that renews the job's lock.
// Time is measured only to report speed.
const resolveStrategy = builtInStrategyResolver();
let open: { path: string; tape: Tape | TapeFile } | null = null;

async function tapeAt(path: string, kind: VariantTask['kind']): Promise<Tape | TapeFile> {
  if (open?.path !== path)
    open = { path, tape: kind === 'tape' ? await TapeFile.open(path) : (deserialize(readFileSync(path)) as Tape) };
  return open.tape;
}

async function runTask(task: VariantTask): Promise<VariantAnswer> {
  try {
    const tape = await tapeAt(task.tapePath, task.kind);
    const config = await parseConfigText(task.configText, task.configPath, { resolveStrategy });
    const started = performance.now();
    const settings = backtestSettings(config, task.overrides);
    const result = await runBacktest({ config, tape, logger: silentLogger(), settings });
    const replayMs = performance.now() - started;
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
