import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { QueueConfigError } from '../app/queue/errors.ts';
import { applyReplayHeapSettings } from '../app/replay-heap.ts';
import { startQueueWorker } from '../app/queue/queue-worker.ts';
import { parseRedisAddress } from '../app/queue/redis-address.ts';
import { usageError } from './exit-codes.ts';

interface WorkerOptions {
  readonly queue: string;
  readonly queueCredentials?: string;
  readonly concurrency?: string;
  readonly tapeCache?: string;
  readonly lockMs?: string;
}

const usage = (message: string): void => usageError('worker', message);

const stamp = () => new Date().toISOString().slice(11, 19);

async function worker(o: WorkerOptions): Promise<void> {
  const concurrency = o.concurrency !== undefined ? Number(o.concurrency) : 1;
  if (!(Number.isSafeInteger(concurrency) && concurrency >= 1 && concurrency <= 64))
    return usage(`--concurrency must be a whole number from 1 to 64, got ${JSON.stringify(o.concurrency)}`);
  const lockMs = o.lockMs !== undefined ? Number(o.lockMs) : 30_000;
  if (!(Number.isSafeInteger(lockMs) && lockMs >= 1_000))
    return usage(`--lock-ms must be a whole number of at least 1000, got ${JSON.stringify(o.lockMs)}`);
  let address;
  try {
    address = await parseRedisAddress(
      o.queue,
      o.queueCredentials !== undefined ? { credentialsFile: o.queueCredentials } : {},
    );
  } catch (err) {
    if (err instanceof QueueConfigError) return usage(err.message);
    throw err;
  }
  // Every variant it takes is a replay: the heap's growth is set for them all.
  applyReplayHeapSettings();
  const cacheDir = resolve(o.tapeCache ?? join(homedir(), '.cache', 'linesmith', 'tapes'));
  const handle = await startQueueWorker({
    address,
    concurrency,
    cacheDir,
    lockMs,
    stalledIntervalMs: lockMs,
    onNotice: (line) => process.stderr.write(`${stamp()} ${line}\n`),
  });
  // SIGTERM or Ctrl-C: no new jobs; the running ones finish and report, then the process ends.
  // A second signal ends it at once: its jobs' locks lapse and other workers take them.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(
        `${stamp()} ${signal} again: stopping now; running variants go back to the queue when their locks lapse\n`,
      );
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`${stamp()} ${signal}: finishing the running variants, taking no more\n`);
    void handle.close().then(() => {
      process.stderr.write(`${stamp()} worker ${handle.id} stopped after ${handle.finished} variant(s)\n`);
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description(
      'run sweep variants for `linesmith backtest --sweep … --queue URL` coordinators, on this machine, until stopped',
    )
    .requiredOption(
      '--queue <url>',
      'redis://HOST:PORT[/DB] or rediss://… (TLS); the password from LINESMITH_REDIS_PASSWORD or --queue-credentials',
    )
    .option('--queue-credentials <file>', 'YAML or JSON file with the Redis password (and username), mode 600')
    .option(
      '--concurrency <n>',
      'variants run at once, each on its own thread (default 1; one per core is the most that helps)',
    )
    .option('--tape-cache <dir>', 'where fetched tapes are kept by hash (default ~/.cache/linesmith/tapes)')
    .option(
      '--lock-ms <ms>',
      'job lock: a worker that dies mid-job frees its job for others after about this long (default 30000)',
    )
    .addHelpText(
      'after',
      '\nExample:\n  LINESMITH_REDIS_PASSWORD=… linesmith worker --queue rediss://redis.internal:6380 --concurrency 2\n',
    )
    .action((o: WorkerOptions) => worker(o));
}
