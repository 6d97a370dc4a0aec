import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { strategies } from '../../strategies/index.ts';
import { parseConfigText } from '../config/load.ts';
import { defaultStrategyResolver } from '../config/strategy-resolver.ts';
import { silentLogger } from '../shared/logger.ts';
import { runBacktest } from './run.ts';
import type { SweepJob } from './sweep.ts';
import type { Tape } from './tape.ts';

// One sweep variant: the same tape, its own config. Time is measured only to report speed.
const job = workerData as SweepJob;
try {
  const config = await parseConfigText(job.configText, job.configPath, { resolveStrategy: defaultStrategyResolver(strategies) });
  const tape = deserialize(readFileSync(job.tapePath)) as Tape;
  const started = performance.now();
  const settings = {
    ...(job.seed !== undefined ? { seed: job.seed } : {}),
    ...(job.fillModel !== undefined ? { fillModel: { kind: job.fillModel, power: config.backtest.fillModel.power } } : {}),
  };
  const result = await runBacktest({ config, tape, logger: silentLogger(), settings });
  parentPort!.postMessage({ result, error: null, replayMs: performance.now() - started });
} catch (err) {
  parentPort!.postMessage({ result: null, error: (err as Error).message, replayMs: 0 });
}
