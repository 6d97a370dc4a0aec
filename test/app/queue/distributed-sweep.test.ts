import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runQueueSweep, tapeArtifact } from '../../../src/app/queue/coordinator.ts';
import { SWEEP_QUEUE_NAME, variantJobId } from '../../../src/app/queue/job.ts';
import { parseRedisAddress } from '../../../src/app/queue/redis-address.ts';
import { RedisTapeStore } from '../../../src/app/queue/tape-store.ts';
import { sweepGrid, sweepRuns, parseSweepAxis } from '../../../src/app/sweep.ts';
import { loadTape, type Tape } from '../../../src/backtest/tape.ts';
import { systemClock } from '../../../src/shared/clock.ts';
import { linesmith, ROOT } from '../../support/cli.ts';
import { redisSkipReason, startTestRedis, type TestRedis } from '../../support/redis.ts';

const skip = redisSkipReason();
if (skip !== null) console.warn(skip);

const CONFIG = join(ROOT, 'test/backtest/golden/fixed-spread.yaml');
const SMALL = join(ROOT, 'backtest/data/paper-seed13-deep');

/** A `linesmith worker` process with its stderr lines, as an operator starts one. */
interface WorkerProcess {
  readonly proc: ChildProcess;
  readonly lines: string[];
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

function startWorker(url: string, cacheDir: string): WorkerProcess {
  const proc = spawn(
    process.execPath,
    ['bin/linesmith.js', 'worker', '--queue', url, '--tape-cache', cacheDir, '--lock-ms', '2000'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (l: string) => void }[] = [];
  let buffer = '';
  proc.stderr!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const l of parts) {
      lines.push(l);
      for (const w of [...waiters]) {
        if (!w.pattern.test(l)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    lines,
    exited,
    waitFor(pattern, timeoutMs = 120_000) {
      const seen = lines.find((l) => pattern.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; got:\n${lines.join('\n')}`)),
          timeoutMs,
        );
        waiters.push({ pattern, resolve: (l) => (clearTimeout(t), resolve(l)) });
      });
    },
  };
}

describe.skipIf(skip !== null)('distributed sweeps through a real Redis', { timeout: 240_000 }, () => {
  let redis: TestRedis;
  let dir: string;
  const workers: WorkerProcess[] = [];
  let small: Tape;
  beforeAll(async () => {
    redis = await startTestRedis();
    dir = await mkdtemp(join(tmpdir(), 'ls-dist-sweep-'));
    small = await loadTape([SMALL]);
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) {
      w.proc.kill('SIGKILL');
      await w.exited;
    }
    const q = new Queue(SWEEP_QUEUE_NAME, { connection: { port: redis.port, host: '127.0.0.1' } });
    await q.obliterate({ force: true }).catch(() => {});
    await q.close();
  });
  afterAll(async () => {
    await redis?.close();
  });

  const runsOf = async (axes: string[]) =>
    sweepRuns(await readFile(CONFIG, 'utf8'), sweepGrid(axes.map(parseSweepAxis)));
  const sweep = async (tape: Tape, axes: string[], extra: { sweepId?: string; pollMs?: number } = {}) =>
    runQueueSweep(tape, await runsOf(axes), CONFIG, {
      address: await parseRedisAddress(redis.url, { env: {} }),
      clock: systemClock,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      pollMs: 100,
      ...extra,
    });

  it('writes the same per-variant report.json as the local sweep, with two worker processes', async () => {
    workers.push(startWorker(redis.url, join(dir, 'c1')), startWorker(redis.url, join(dir, 'c2')));
    await Promise.all(workers.map((w) => w.waitFor(/taking sweep variants/)));
    const args = [
      'backtest',
      '--config',
      CONFIG,
      '--feed',
      SMALL,
      '--sweep',
      'backtest.fillModel=conservative,risk-averse',
      '--no-progress',
    ];
    const [local, queued] = await Promise.all([
      linesmith([...args, '--report', join(dir, 'local')], { timeoutMs: 200_000 }),
      linesmith([...args, '--queue', redis.url, '--report', join(dir, 'queued')], { timeoutMs: 200_000 }),
    ]);
    expect(local.code, local.stderr).toBe(0);
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stderr).toMatch(
      /sweep sweep-[0-9a-f]{16}: 2 variant\(s\) on queue redis:\/\/127\.0\.0\.1:\d+\/0, tape [0-9a-f]{12}/,
    );
    const variants = (await readdir(join(dir, 'local'))).filter((d) => d.startsWith('variant-')).sort();
    expect(variants).toHaveLength(2);
    expect((await readdir(join(dir, 'queued'))).filter((d) => d.startsWith('variant-')).sort()).toEqual(variants);
    for (const v of variants) {
      const a = await readFile(join(dir, 'local', v, 'report.json'));
      const b = await readFile(join(dir, 'queued', v, 'report.json'));
      expect(b.equals(a), `${v}/report.json differs`).toBe(true);
    }
    // Both workers took jobs, and each fetched the tape once.
    for (const w of workers) expect(w.lines.filter((l) => /fetched into/.test(l))).toHaveLength(1);
    expect(workers.map((w) => w.lines.filter((l) => / done /.test(l)).length).reduce((a, b) => a + b)).toBe(2);
  });

  it('hears of finished jobs without polling, and results travel beside the jobs, not inside them', async () => {
    const w = startWorker(redis.url, join(dir, 'e1'));
    workers.push(w);
    await w.waitFor(/taking sweep variants/);
    const started = performance.now();
    // A poll interval far longer than the test: only BullMQ's events can end the wait.
    const outcomes = await sweep(small, ['backtest.seed=21,22'], { sweepId: 'by-events', pollMs: 600_000 });
    expect(outcomes.map((o) => o.error)).toEqual([null, null]);
    expect(performance.now() - started).toBeLessThan(200_000);
    // The job's own answer is a few hundred bytes: BullMQ copies it into the job, its event
    // stream and every read of the job, so the multi-megabyte result is stored beside it.
    const q = new Queue(SWEEP_QUEUE_NAME, { connection: { port: redis.port, host: '127.0.0.1' } });
    const job = await q.getJob(variantJobId('by-events', 0));
    await q.close();
    expect(JSON.stringify(job?.returnvalue).length).toBeLessThan(1_000);
  });

  it('a worker killed mid-job has its job finished by another; every variant once', async () => {
    const victim = startWorker(redis.url, join(dir, 'k1'));
    workers.push(victim);
    await victim.waitFor(/taking sweep variants/);
    const result = sweep(small, ['backtest.fillModel=conservative,risk-averse']);
    await victim.waitFor(/start backtest\.fillModel=/);
    victim.proc.kill('SIGKILL');
    await victim.exited;
    const rescuer = startWorker(redis.url, join(dir, 'k2'));
    workers.push(rescuer);
    const outcomes = await result;
    expect(outcomes.map((o) => o.error)).toEqual([null, null]);
    expect(outcomes.map((o) => o.variant)).toEqual([
      { 'backtest.fillModel': 'conservative' },
      { 'backtest.fillModel': 'risk-averse' },
    ]);
    const rescuerId = (await rescuer.waitFor(/worker \S+ taking/)).match(/worker (\S+) taking/)![1];
    expect(outcomes.every((o) => o.worker === rescuerId)).toBe(true);
  });

  it('a coordinator started again with the same sweep id collects what finished', async () => {
    const w = startWorker(redis.url, join(dir, 'r1'));
    workers.push(w);
    await w.waitFor(/taking sweep variants/);
    const first = await sweep(small, ['backtest.seed=1,2,3'], { sweepId: 'resume-me' });
    expect(first.map((o) => o.error)).toEqual([null, null, null]);
    // The worker says 'done' once BullMQ has marked the job, which the coordinator may see
    // first: the count starts once all three lines are in.
    for (const seed of [1, 2, 3]) await w.waitFor(new RegExp(` done backtest\\.seed=${seed}\\b`));
    const doneBefore = w.lines.filter((l) => / done /.test(l)).length;
    const again = await sweep(small, ['backtest.seed=1,2,3'], { sweepId: 'resume-me' });
    expect(again.map((o) => o.result?.report.metrics.pnl.total)).toEqual(
      first.map((o) => o.result?.report.metrics.pnl.total),
    );
    // Nothing ran twice: the second coordinator found every result already there.
    expect(w.lines.filter((l) => / done /.test(l)).length).toBe(doneBefore);
  });

  it('a variant that fails is reported with its error once, never retried; a corrupt tape fails its jobs', async () => {
    const w = startWorker(redis.url, join(dir, 'f1'));
    workers.push(w);
    await w.waitFor(/taking sweep variants/);
    const runs = await runsOf(['backtest.seed=1,2']);
    // A variant whose config cannot load on the worker (the coordinator's own check bypassed).
    const broken = [runs[0]!, { ...runs[1]!, configText: `${runs[1]!.configText}\nbogusTopLevelKey: 1\n` }];
    const outcomes = await runQueueSweep(small, broken, CONFIG, {
      address: await parseRedisAddress(redis.url, { env: {} }),
      clock: systemClock,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      pollMs: 100,
    });
    expect(outcomes[0]!.error).toBeNull();
    expect(outcomes[1]!.error).toMatch(/bogusTopLevelKey/);
    // The coordinator hears of the failure as the worker logs it: the line is waited for, then counted.
    await w.waitFor(/failed backtest\.seed=2/);
    expect(w.lines.filter((l) => /failed backtest\.seed=2/.test(l))).toHaveLength(1);

    // The tape stored under its hash is then damaged before any worker fetched it.
    const client = new Redis({ port: redis.port, host: '127.0.0.1' });
    const other = { ...small, items: small.items.slice(0, 2_000) };
    const hash = await new RedisTapeStore(client).put((await tapeArtifact(other)).bytes);
    await client.set(`linesmith:tape:${hash}:0`, Buffer.from('not a tape'));
    client.disconnect();
    const corrupt = await sweep(other, ['backtest.seed=5']);
    expect(corrupt[0]!.error).toMatch(/corrupt tape/);
  });

  it('workers and the coordinator wait out a Redis outage and say so', async () => {
    const w = startWorker(redis.url, join(dir, 'o1'));
    workers.push(w);
    await w.waitFor(/taking sweep variants/);
    await redis.stop(true);
    await w.waitFor(/unreachable; retrying/, 30_000);
    expect(w.proc.exitCode).toBeNull();
    await redis.start();
    await w.waitFor(/is back/, 30_000);
    expect(w.lines.filter((l) => /unreachable/.test(l))).toHaveLength(1);
    w.proc.kill('SIGKILL');

    // The coordinator loses Redis while it waits (no worker yet), says so, and carries on:
    // the restarted Redis kept nothing, so it puts the tape and the jobs back.
    const notices: string[] = [];
    const pending = runQueueSweep(small, await runsOf(['backtest.seed=9']), CONFIG, {
      address: await parseRedisAddress(redis.url, { env: {} }),
      clock: systemClock,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      pollMs: 100,
      onNotice: (l) => notices.push(l),
    });
    await expect.poll(() => notices.some((l) => /^sweep /.test(l)), { timeout: 30_000 }).toBe(true);
    await redis.stop(true);
    await expect.poll(() => notices.some((l) => /unreachable; retrying/.test(l)), { timeout: 30_000 }).toBe(true);
    await redis.start();
    await expect.poll(() => notices.some((l) => /is back/.test(l)), { timeout: 30_000 }).toBe(true);
    const rescuer = startWorker(redis.url, join(dir, 'o2'));
    workers.push(rescuer);
    const outcomes = await pending;
    expect(outcomes[0]!.error).toBeNull();
  });

  it('runs built-in strategies on compiled threads and a strategy file on a thread restarted from source', async () => {
    const w = startWorker(redis.url, join(dir, 'k1'));
    workers.push(w);
    await w.waitFor(/taking sweep variants/);
    const own = join(ROOT, 'test/backtest/fixtures/exiting-post-arb.yaml');
    const args = ['backtest', '--config', own, '--feed', SMALL, '--sweep', 'backtest.seed=1,2', '--no-progress'];
    const [local, queued] = await Promise.all([
      linesmith([...args, '--report', join(dir, 'own-local')], { timeoutMs: 200_000 }),
      linesmith([...args, '--queue', redis.url, '--report', join(dir, 'own-queued')], { timeoutMs: 200_000 }),
    ]);
    expect(local.code, local.stderr).toBe(0);
    expect(queued.code, queued.stderr).toBe(0);
    for (const v of ['variant-001', 'variant-002']) {
      const a = await readFile(join(dir, 'own-local', v, 'report.json'));
      const b = await readFile(join(dir, 'own-queued', v, 'report.json'));
      expect(b.equals(a), `${v}/report.json differs`).toBe(true);
    }
    expect(w.lines.some((l) => /thread \d restarted from source, for a strategy file/.test(l))).toBe(true);
    // A built-in strategy's variant afterwards goes back to a compiled thread.
    expect((await sweep(small, ['backtest.seed=5']))[0]!.error).toBeNull();
    expect(w.lines.some((l) => /thread \d restarted compiled/.test(l))).toBe(true);
  });

  it('a worker stopped with SIGTERM finishes its running variant, then exits 0', async () => {
    const w = startWorker(redis.url, join(dir, 's1'));
    workers.push(w);
    await w.waitFor(/taking sweep variants/);
    const result = sweep(small, ['backtest.seed=11']);
    await w.waitFor(/start backtest\.seed=11/);
    w.proc.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    expect(w.lines.some((l) => /done backtest\.seed=11/.test(l))).toBe(true);
    expect((await result)[0]!.error).toBeNull();
  });
});
