import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { runQueueSweep } from '../src/app/queue/coordinator.ts';
import { parseRedisAddress } from '../src/app/queue/redis-address.ts';
import { parseSweepAxis, runSweep, sweepGrid, sweepRuns, type SweepOutcome } from '../src/app/sweep.ts';
import { openTape } from '../src/backtest/tape/cache.ts';
import { systemClock } from '../src/shared/clock.ts';
import { redisSkipReason, startTestRedis } from '../test/support/redis.ts';

/**
 * The queue's overhead: one 16-variant sweep of fixed-spread over one recording, run on two
 * worker threads of this process, then through Redis by two `linesmith worker` processes.
 * The pair runs several times, alternately (threads, queue, threads, queue, …), so a
 * machine whose load changes over a minute weighs on both the same; the figure is the
 * median of each and their ratio: overhead = median queue wall time ÷ median threads wall
 * time − 1; the goal is ≤ 10 %.
 *
 * The workers are started fresh before each queue run and are ready (their threads loaded)
 * before the clock starts: in real use they are standing services, not part of a sweep.
 * Everything a sweep does is inside the clock: storing the tape in Redis (emptied between
 * runs), each worker fetching it into an empty cache and checking its hash, every variant,
 * and every result coming back.
 *
 * Wall time on a shared machine moves with everyone else's load, so the CPU time each side
 * spends is measured too (threads: this process; queue: this process, both workers and
 * redis-server), which moves much less: its ratio says what the queue costs in work.
 */
export interface QueueSweepBenchResult {
  readonly variants: number;
  readonly recording: string;
  /** How many times each of the two ran. */
  readonly runs: number;
  /** Medians. */
  readonly threadsMs: number;
  readonly queueMs: number;
  /** Every run's wall time, in the order they ran (threads and queue alternating). */
  readonly threadsRunsMs: readonly number[];
  readonly queueRunsMs: readonly number[];
  readonly overheadPct: number;
  /** Medians of the CPU time (user + system) each side spent, and their ratio − 1; null where /proc is not readable. */
  readonly threadsCpuMs: number | null;
  readonly queueCpuMs: number | null;
  readonly cpuOverheadPct: number | null;
  readonly goalOverheadPct: number;
  /** Every variant's total P&L equal between the two, in every run. */
  readonly identical: boolean;
  readonly skipped: string | null;
}

const root = resolve(fileURLToPath(import.meta.url), '../..');
const CONFIG = resolve(root, 'test/backtest/golden/fixed-spread.yaml');
const RECORDING = resolve(root, 'backtest/data/paper-seed7');
export const DEFAULT_QUEUE_BENCH_RUNS = 3;

function startWorkerProcess(url: string, cacheDir: string): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['bin/linesmith.js', 'worker', '--queue', url, '--tape-cache', cacheDir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolveReady, reject) => {
    let text = '';
    const onData = (c: Buffer) => {
      text += c.toString();
      if (!/taking sweep variants/.test(text)) return;
      proc.stderr!.off('data', onData);
      proc.stderr!.resume();
      resolveReady(proc);
    };
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${text}`)));
  });
}

async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((done) => {
          if (w.exitCode !== null || w.signalCode !== null) return done();
          w.once('exit', () => done());
          w.kill('SIGKILL');
        }),
    ),
  );
}

/** CPU time (user + system, every thread) of a process so far, from /proc; null where there is none. */
function procCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** Linux's USER_HZ, the unit of /proc's CPU times, is 100 on every architecture Node supports. */
const CLOCK_TICKS = 100;

async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const get = (k: string) => Number(new RegExp(`${k}:([0-9.]+)`).exec(info)?.[1] ?? 0);
  return (get('used_cpu_user') + get('used_cpu_sys')) * 1000;
}

const ownCpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const samePnl = (a: readonly SweepOutcome[], b: readonly SweepOutcome[]) =>
  a.length === b.length &&
  a.every((l, i) => l.result !== null && l.result.report.metrics.pnl.total === b[i]!.result?.report.metrics.pnl.total);

export async function runQueueSweepBench(
  runs = DEFAULT_QUEUE_BENCH_RUNS,
  onRun?: (line: string) => void,
): Promise<QueueSweepBenchResult> {
  const skipped = redisSkipReason();
  const base = { variants: 16, recording: 'paper-seed7', goalOverheadPct: 10, runs };
  if (skipped !== null)
    return {
      ...base,
      threadsMs: 0,
      queueMs: 0,
      threadsRunsMs: [],
      queueRunsMs: [],
      overheadPct: 0,
      threadsCpuMs: null,
      queueCpuMs: null,
      cpuOverheadPct: null,
      identical: false,
      skipped,
    };
  // As `linesmith backtest` does: the recording's binary tape, which both sweeps hand on as a file.
  const tapeDir = await mkdtemp(join(tmpdir(), 'ls-queue-bench-tape-'));
  const { tape } = await openTape([RECORDING], { dir: tapeDir });
  const sweep = sweepRuns(
    await readFile(CONFIG, 'utf8'),
    sweepGrid(['backtest.fillModel=conservative,risk-averse', 'backtest.seed=1,2,3,4,5,6,7,8'].map(parseSweepAxis)),
  );
  const redis = await startTestRedis();
  const admin = new Redis({ host: '127.0.0.1', port: redis.port });
  const address = await parseRedisAddress(redis.url, { env: {} });
  const dir = await mkdtemp(join(tmpdir(), 'ls-queue-bench-'));
  const threadsRunsMs: number[] = [];
  const queueRunsMs: number[] = [];
  const threadsCpu: number[] = [];
  const queueCpu: (number | null)[] = [];
  let identical = true;
  let workers: ChildProcess[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      const c0 = ownCpuMs();
      const t0 = performance.now();
      const local = await runSweep(tape, sweep, CONFIG, { workers: 2 });
      threadsRunsMs.push(performance.now() - t0);
      threadsCpu.push(ownCpuMs() - c0);

      // A fresh start for each queue run: nothing in Redis, fresh workers with empty tape caches.
      await admin.flushall();
      workers = await Promise.all([
        startWorkerProcess(redis.url, join(dir, `${run}-a`)),
        startWorkerProcess(redis.url, join(dir, `${run}-b`)),
      ]);
      const cpuOf = async () => {
        const ws = workers.map((w) => procCpuMs(w.pid));
        return ws.includes(null)
          ? null
          : ownCpuMs() + (await redisCpuMs(admin)) + ws.reduce<number>((a, b) => a + b!, 0);
      };
      const c1 = await cpuOf();
      const t1 = performance.now();
      const queued = await runQueueSweep(tape, sweep, CONFIG, {
        address,
        sweepId: `bench-${run}`,
        clock: systemClock,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      });
      queueRunsMs.push(performance.now() - t1);
      const c2 = await cpuOf();
      queueCpu.push(c1 === null || c2 === null ? null : c2 - c1);
      await stopWorkers(workers);
      workers = [];
      identical &&= samePnl(local, queued);
      onRun?.(
        `  run ${run}/${runs}: threads ${(threadsRunsMs.at(-1)! / 1000).toFixed(2)} s (CPU ${(threadsCpu.at(-1)! / 1000).toFixed(2)} s), ` +
          `queue ${(queueRunsMs.at(-1)! / 1000).toFixed(2)} s (CPU ${queueCpu.at(-1) == null ? '?' : (queueCpu.at(-1)! / 1000).toFixed(2)} s)`,
      );
    }
    const threadsMs = median(threadsRunsMs);
    const queueMs = median(queueRunsMs);
    const threadsCpuMs = median(threadsCpu);
    const queueCpuMs = queueCpu.includes(null) ? null : median(queueCpu as number[]);
    return {
      ...base,
      threadsMs,
      queueMs,
      threadsRunsMs,
      queueRunsMs,
      overheadPct: (queueMs / threadsMs - 1) * 100,
      threadsCpuMs,
      queueCpuMs,
      cpuOverheadPct: queueCpuMs === null ? null : (queueCpuMs / threadsCpuMs - 1) * 100,
      identical,
      skipped: null,
    };
  } finally {
    await stopWorkers(workers);
    admin.disconnect();
    await redis.close();
    await rm(dir, { recursive: true, force: true });
    await rm(tapeDir, { recursive: true, force: true });
  }
}

export function describeQueueSweep(r: QueueSweepBenchResult): string {
  if (r.skipped !== null) return `distributed sweep: not measured: ${r.skipped}`;
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return (
    `distributed sweep (${r.variants} variants of fixed-spread over ${r.recording}; 2 worker threads vs 2 worker processes through Redis, ` +
    `the workers started and ready before the clock, the tape's store and fetch inside it; ` +
    `${r.runs} runs of each, alternating; medians; goal overhead ≤ ${r.goalOverheadPct}%): ` +
    `threads ${s(r.threadsMs)} s, queue ${s(r.queueMs)} s, overhead ${r.overheadPct.toFixed(1)}% ` +
    `(goal ${r.overheadPct <= r.goalOverheadPct ? 'met' : 'not met'}; runs: threads ${r.threadsRunsMs.map(s).join(', ')} s; ` +
    `queue ${r.queueRunsMs.map(s).join(', ')} s); ` +
    (r.cpuOverheadPct === null
      ? ''
      : `CPU time (medians, every process): threads ${s(r.threadsCpuMs!)} s, queue ${s(r.queueCpuMs!)} s, ${r.cpuOverheadPct.toFixed(1)}% more; `) +
    `results ${r.identical ? 'identical' : 'DIFFER'}`
  );
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: String(DEFAULT_QUEUE_BENCH_RUNS) } } });
  const r = await runQueueSweepBench(Number(values.runs), (line) => console.log(line));
  console.log(describeQueueSweep(r));
  process.exit(0);
}
