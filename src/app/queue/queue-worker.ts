import { hostname } from 'node:os';
import { serialize } from 'node:v8';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { SweepLaneWorker } from '../sweep.ts';
import { TapeIntegrityError, TapeStoreError } from './errors.ts';
import { SWEEP_QUEUE_NAME, variantJobData, type VariantJobResult } from './job.ts';
import { OutageReporter, redisConnectionOptions, type RedisAddress } from './redis-address.ts';
import { LocalTapeCache, PathTapeStore, RedisTapeStore, type TapeStore } from './tape-store.ts';

export interface QueueWorkerOptions {
  readonly address: RedisAddress;
  /** Variants run at once, each on its own worker thread. */
  readonly concurrency: number;
  /** Where fetched tapes are kept by hash. */
  readonly cacheDir: string;
  /** How long a job's lock lasts without renewal; a worker killed mid-job frees its job after about this long. */
  readonly lockMs?: number;
  /** How often stalled jobs (their worker gone) are looked for and put back on the queue. */
  readonly stalledIntervalMs?: number;
  readonly onNotice?: (line: string) => void;
}

export interface QueueWorkerHandle {
  readonly id: string;
  /** Variants this worker finished (completed or failed for good). */
  readonly finished: number;
  /** Stops taking jobs, lets the running ones finish, then disconnects. */
  close(): Promise<void>;
}

/** A slot for one running variant: a worker thread holding one tape, reused while the tape stays the same. */
class Lane {
  worker: SweepLaneWorker | null = null;
  tapePath: string | null = null;
  busy = false;

  async use(tapePath: string, kind: 'tape' | 'serialized'): Promise<SweepLaneWorker> {
    if (this.worker !== null && (this.worker.dead || this.tapePath !== tapePath)) await this.drop();
    this.worker ??= new SweepLaneWorker({ tapePath, kind });
    this.tapePath = tapePath;
    return this.worker;
  }

  async drop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.tapePath = null;
    await w?.close();
  }
}

/**
 * Take sweep variants off the queue and run each as a local sweep runs it: the tape fetched
 * once per machine and checked against its hash, the variant on a worker thread of the
 * same kind, its result sent back whole. The main thread only talks to Redis, so a long
 * replay never keeps the job's lock from being renewed.
 */
export async function startQueueWorker(o: QueueWorkerOptions): Promise<QueueWorkerHandle> {
  const id = `${hostname()}:${process.pid}`;
  const notice = o.onNotice ?? (() => {});
  const outage = new OutageReporter(o.address.display, notice);
  const connectionOptions = redisConnectionOptions(o.address, (attempt, delayMs) => outage.retrying(attempt, delayMs));
  // Tapes are read on a connection of their own: the worker's is held by blocking waits for jobs.
  const storeConnection = new Redis(connectionOptions);
  storeConnection.on('error', () => {
    // Reported through the retry strategy: once when the outage starts, once when it ends.
  });
  storeConnection.on('ready', () => outage.ready());
  const workerConnection = new Redis(connectionOptions);
  workerConnection.on('error', () => {});
  workerConnection.on('ready', () => outage.ready());
  const cache = new LocalTapeCache(o.cacheDir);
  const lanes = Array.from({ length: o.concurrency }, () => new Lane());
  let finished = 0;

  const storeOf = (ref: { kind: 'redis' } | { kind: 'path'; dir: string }): TapeStore =>
    ref.kind === 'redis' ? new RedisTapeStore(storeConnection) : new PathTapeStore(ref.dir);

  const processor = async (job: Job): Promise<VariantJobResult> => {
    const parsed = variantJobData.safeParse(job.data);
    // A job this version cannot read fails for good: retrying it elsewhere would fail the same way.
    if (!parsed.success)
      throw new UnrecoverableError(
        `job ${job.id}: not a sweep variant this worker understands: ${parsed.error.issues[0]?.message ?? 'unknown'}`,
      );
    const d = parsed.data;
    let tapePath: string;
    try {
      const got = await cache.ensure(d.tape.hash, storeOf(d.tape.store));
      if (got.fetched) notice(`tape ${d.tape.hash.slice(0, 12)} fetched into ${o.cacheDir}`);
      tapePath = got.path;
    } catch (err) {
      if (err instanceof TapeIntegrityError || err instanceof TapeStoreError)
        throw new UnrecoverableError(`${d.label}: ${err.message}`);
      throw err;
    }
    const lane = lanes.find((l) => !l.busy);
    if (lane === undefined) throw new Error("no free lane: more jobs than the worker's concurrency");
    lane.busy = true;
    notice(`start ${d.label}`);
    try {
      const thread = await lane.use(tapePath, d.tape.kind);
      const answer = await thread.run({
        index: d.index,
        configText: d.configText,
        configPath: d.configPath,
        overrides: d.overrides as never,
      });
      if (answer.error !== null || answer.result === null) {
        // A thread that died (out of memory, a crash) may do better elsewhere; a variant that threw will not.
        const died = thread.dead;
        await lane.drop();
        if (died) throw new Error(`${d.label}: ${answer.error ?? 'no result'}`);
        throw new UnrecoverableError(`${d.label}: ${answer.error ?? 'no result'}`);
      }
      return {
        result: serialize(answer.result).toString('base64'),
        replayMs: answer.replayMs,
        events: answer.result.events,
        worker: id,
      };
    } finally {
      lane.busy = false;
    }
  };

  const worker = new Worker(SWEEP_QUEUE_NAME, processor, {
    connection: workerConnection,
    concurrency: o.concurrency,
    lockDuration: o.lockMs ?? 30_000,
    stalledInterval: o.stalledIntervalMs ?? 30_000,
    maxStalledCount: 2,
  });
  worker.on('error', () => {
    // Connection trouble is reported once by the store connection's listener.
  });
  worker.on('completed', (job) => {
    finished++;
    notice(`done ${String(job.data?.label ?? job.id)}`);
  });
  worker.on('failed', (job, err) => {
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) finished++;
    notice(`failed ${String(job?.data?.label ?? job?.id ?? '?')}: ${err.message}`);
  });
  await worker.waitUntilReady();
  notice(`worker ${id} taking sweep variants from ${o.address.display} (${o.concurrency} at a time)`);
  return {
    id,
    get finished() {
      return finished;
    },
    async close() {
      await worker.close();
      for (const l of lanes) await l.drop();
      storeConnection.disconnect();
      workerConnection.disconnect();
    },
  };
}
