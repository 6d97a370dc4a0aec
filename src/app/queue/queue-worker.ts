import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { TapeIntegrityError, TapeStoreError, WorkerLaneError } from './errors.ts';
import { SWEEP_QUEUE_NAME, variantJobData, type VariantJobResult } from './job.ts';
import { OutageReporter, redisConnectionOptions, type RedisAddress } from './redis-address.ts';
import { RESULT_TTL_SECONDS, resultKey } from './result-codec.ts';
import { LocalTapeCache, PathTapeStore, RedisTapeStore, type TapeStore } from './tape-store.ts';
import { namesBuiltInStrategiesOnly } from '../../loader/module-path.mjs';
import { compiledVariantThread, VARIANT_THREAD_SOURCE, VariantLane } from './variant-lane.ts';

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
  // Threads are started and loaded before the first job is taken: a worker is a standing
  // service, and loading a thread's modules is part of starting it, not of a variant.
  // Compiled threads, unless a variant names a strategy file: its lane then restarts from source.
  const compiled = await compiledVariantThread();
  const lanes = Array.from({ length: o.concurrency }, () => new VariantLane(compiled));
  await Promise.all(lanes.map((l) => l.ready()));
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
      // A damaged tape stays damaged; a missing one may be stored again (a coordinator puts
      // it back when Redis returns empty), so that job is tried again within its attempts.
      if (err instanceof TapeIntegrityError) throw new UnrecoverableError(`${d.label}: ${err.message}`);
      if (err instanceof TapeStoreError) throw new TapeStoreError(`${d.label}: ${err.message}`);
      throw err;
    }
    const at = lanes.findIndex((l) => !l.busy);
    if (at < 0) throw new WorkerLaneError("no free lane: more jobs than the worker's concurrency");
    const script = namesBuiltInStrategiesOnly(d.configText) ? compiled : VARIANT_THREAD_SOURCE;
    const was = lanes[at]!;
    was.busy = true;
    // A thread that died between two variants (after answering) is replaced before the next;
    // so is one of the other kind than this variant needs.
    if (was.dead !== null || was.script !== script) {
      if (was.dead === null)
        notice(`thread ${at + 1} restarted ${script === compiled ? 'compiled' : 'from source, for a strategy file'}`);
      const fresh = new VariantLane(script);
      fresh.busy = true;
      lanes[at] = fresh;
      // An old thread that fails to stop must not keep the lane from its variant.
      await Promise.all([fresh.ready(), was.close().catch(() => undefined)]);
    }
    const lane = lanes[at]!;
    notice(`start ${d.label}`);
    try {
      const answer = await lane.run({
        index: d.index,
        tapePath,
        kind: d.tape.kind,
        configText: d.configText,
        configPath: d.configPath,
        overrides: d.overrides as never,
      });
      if (answer.error !== null || answer.encoded === null) {
        // A thread that died (out of memory, a crash) may do better elsewhere; a variant that threw will not.
        // Either way its thread is not reused: a failed variant may leave work behind that would fail the next.
        const died = lane.dead !== null;
        lanes[at] = new VariantLane(lane.script);
        await lane.close();
        if (died) throw new WorkerLaneError(`${d.label}: ${answer.error ?? 'no result'}`);
        throw new UnrecoverableError(`${d.label}: ${answer.error ?? 'no result'}`);
      }
      // The result goes beside the job as binary; the job's own answer stays a few bytes,
      // which BullMQ copies into the job, its event stream and every read of the job.
      const key = resultKey(String(job.id));
      await storeConnection.set(
        key,
        Buffer.from(answer.encoded.buffer, answer.encoded.byteOffset, answer.encoded.byteLength),
        'EX',
        RESULT_TTL_SECONDS,
      );
      return {
        resultKey: key,
        resultBytes: answer.encoded.byteLength,
        replayMs: answer.replayMs,
        events: answer.events,
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
      for (const l of lanes) await l.close();
      storeConnection.disconnect();
      workerConnection.disconnect();
    },
  };
}
