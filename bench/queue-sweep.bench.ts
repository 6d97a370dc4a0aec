import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { runQueueSweep } from '../src/app/queue/coordinator.ts';
import { SWEEP_QUEUE_NAME } from '../src/app/queue/job.ts';
import { parseRedisAddress } from '../src/app/queue/redis-address.ts';
import { parseSweepAxis, runSweep, sweepGrid, sweepRuns } from '../src/app/sweep.ts';
import { openTape } from '../src/backtest/tape/cache.ts';
import { systemClock } from '../src/shared/clock.ts';
import { redisSkipReason, startTestRedis } from '../test/support/redis.ts';

/**
 * The queue's overhead: one 16-variant sweep of fixed-spread over one recording, run on two
 * worker threads of this process, then through Redis by two `linesmith worker` processes
 * (started and ready before the clock starts: they are a cluster's standing cost, not a
 * sweep's). Overhead = queue wall time ÷ thread wall time − 1; the goal is ≤ 10 %.
 */
export interface QueueSweepBenchResult {
  readonly variants: number;
  readonly recording: string;
  readonly threadsMs: number;
  readonly queueMs: number;
  readonly overheadPct: number;
  readonly goalOverheadPct: number;
  /** Every variant's total P&L equal between the two. */
  readonly identical: boolean;
  readonly skipped: string | null;
}

const root = resolve(fileURLToPath(import.meta.url), '../..');
const CONFIG = resolve(root, 'test/backtest/golden/fixed-spread.yaml');
const RECORDING = resolve(root, 'backtest/data/paper-seed7');

function startWorkerProcess(url: string, cacheDir: string): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['bin/linesmith.js', 'worker', '--queue', url, '--tape-cache', cacheDir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolveReady, reject) => {
    let text = '';
    proc.stderr!.on('data', (c: Buffer) => {
      text += c.toString();
      if (/taking sweep variants/.test(text)) resolveReady(proc);
    });
    proc.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${text}`)));
  });
}

export async function runQueueSweepBench(): Promise<QueueSweepBenchResult> {
  const skipped = redisSkipReason();
  const base = { variants: 16, recording: 'paper-seed7', goalOverheadPct: 10 };
  if (skipped !== null) return { ...base, threadsMs: 0, queueMs: 0, overheadPct: 0, identical: false, skipped };
  // As `linesmith backtest` does: the recording's binary tape, which both sweeps hand on as a file.
  const tapeDir = await mkdtemp(join(tmpdir(), 'ls-queue-bench-tape-'));
  const { tape } = await openTape([RECORDING], { dir: tapeDir });
  const runs = sweepRuns(
    await readFile(CONFIG, 'utf8'),
    sweepGrid(['backtest.fillModel=conservative,risk-averse', 'backtest.seed=1,2,3,4,5,6,7,8'].map(parseSweepAxis)),
  );
  const t0 = performance.now();
  const local = await runSweep(tape, runs, CONFIG, { workers: 2 });
  const threadsMs = performance.now() - t0;

  const redis = await startTestRedis();
  const dir = await mkdtemp(join(tmpdir(), 'ls-queue-bench-'));
  const workers = await Promise.all([
    startWorkerProcess(redis.url, join(dir, 'a')),
    startWorkerProcess(redis.url, join(dir, 'b')),
  ]);
  try {
    const t1 = performance.now();
    const queued = await runQueueSweep(tape, runs, CONFIG, {
      address: await parseRedisAddress(redis.url, { env: {} }),
      clock: systemClock,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      pollMs: 50,
    });
    const queueMs = performance.now() - t1;
    const identical = local.every(
      (l, i) => l.result !== null && l.result.report.metrics.pnl.total === queued[i]!.result?.report.metrics.pnl.total,
    );
    return { ...base, threadsMs, queueMs, overheadPct: (queueMs / threadsMs - 1) * 100, identical, skipped: null };
  } finally {
    for (const w of workers) w.kill('SIGKILL');
    const q = new Queue(SWEEP_QUEUE_NAME, { connection: { host: '127.0.0.1', port: redis.port } });
    await q.close();
    await redis.close();
    await rm(dir, { recursive: true, force: true });
    await rm(tapeDir, { recursive: true, force: true });
  }
}

export function describeQueueSweep(r: QueueSweepBenchResult): string {
  if (r.skipped !== null) return `distributed sweep: not measured: ${r.skipped}`;
  return (
    `distributed sweep (${r.variants} variants of fixed-spread over ${r.recording}; 2 worker threads vs 2 worker processes through Redis; goal overhead ≤ ${r.goalOverheadPct}%): ` +
    `threads ${(r.threadsMs / 1000).toFixed(2)} s, queue ${(r.queueMs / 1000).toFixed(2)} s, overhead ${r.overheadPct.toFixed(1)}% ` +
    `(goal ${r.overheadPct <= r.goalOverheadPct ? 'met' : 'not met'}); results ${r.identical ? 'identical' : 'DIFFER'}`
  );
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await runQueueSweepBench();
  console.log(describeQueueSweep(r));
  process.exit(0);
}
