import { createHash } from 'node:crypto';
import { serialize } from 'node:v8';
import { Job, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { Clock } from '../../shared/clock.ts';
import { variantLabel, type SweepOutcome, type SweepOverrides, type SweepRun } from '../sweep.ts';
import { readFile } from 'node:fs/promises';
import type { BacktestResult } from '../../backtest/report/types.ts';
import type { Tape } from '../../backtest/tape.ts';
import { TapeFile } from '../../backtest/tape/file.ts';
import { SWEEP_QUEUE_NAME, variantJobId, variantJobResult, type VariantJobData, type VariantJobResult } from './job.ts';
import { OutageReporter, redisConnectionOptions, type RedisAddress } from './redis-address.ts';
import { decodeResult } from './result-codec.ts';
import { PathTapeStore, RedisTapeStore, type TapeStore } from './tape-store.ts';

/** What the coordinator shows while it waits: variants done, events replayed by every worker, time so far. */
export interface QueueSweepProgress {
  readonly done: number;
  readonly total: number;
  readonly events: number;
  readonly elapsedMs: number;
  readonly workers: number;
}

export interface QueueSweepOptions {
  readonly address: RedisAddress;
  /** Names the sweep; the same id again resumes it. Default: a hash of the tape, config, variants and overrides. */
  readonly sweepId?: string;
  /** Share the tape as a file in this directory (every worker must read it) instead of in Redis. */
  readonly tapeDir?: string;
  readonly overrides?: SweepOverrides;
  /** Tries per variant before it is reported failed (a stalled job counts against BullMQ's own stall limit). */
  readonly attempts?: number;
  /**
   * Longest wait between two looks at the jobs' states (default 1000 ms). The coordinator
   * looks as soon as BullMQ's event stream says a job finished; this bounds the wait when
   * an event is missed (Redis restarted, the stream trimmed) and paces re-adding lost jobs.
   */
  readonly pollMs?: number;
  /** Wall time for the progress line and the rates: injected, as everywhere. */
  readonly clock: Clock;
  /** Waits between polls; injected so the loop holds no timer of its own. */
  readonly sleep: (ms: number) => Promise<void>;
  readonly onProgress?: (p: QueueSweepProgress) => void;
  /** Lines for the operator: the sweep id, the tape, Redis going away and coming back. */
  readonly onNotice?: (line: string) => void;
}

export interface QueueSweepOutcome extends SweepOutcome {
  /** The worker that ran it (`host:pid`), or null for a failure no worker answered. */
  readonly worker: string | null;
}

/** The default sweep id: the same tape, config, variants and overrides give the same id, so running the command again resumes. */
export function defaultSweepId(
  tapeHash: string,
  runs: readonly SweepRun[],
  configPath: string,
  overrides: SweepOverrides,
): string {
  const h = createHash('sha256');
  h.update(tapeHash).update('\0').update(configPath).update('\0').update(JSON.stringify(overrides));
  for (const r of runs) h.update('\0').update(r.configText);
  return `sweep-${h.digest('hex').slice(0, 16)}`;
}

/** A tape as workers receive it: its bytes, and how a sweep lane reads them. */
export interface TapeArtifact {
  readonly bytes: Buffer;
  readonly kind: 'tape' | 'serialized';
}

/**
 * The bytes every worker replays, as the local sweep hands them to its threads: a binary
 * tape file as it is (read a chunk at a time, its checksums checked), an in-memory tape
 * serialised.
 */
export async function tapeArtifact(tape: Tape | TapeFile): Promise<TapeArtifact> {
  return tape instanceof TapeFile
    ? { bytes: await readFile(tape.path), kind: 'tape' }
    : { bytes: serialize(tape), kind: 'serialized' };
}

/**
 * Run a sweep's variants on whatever `linesmith worker` processes take jobs from the queue:
 * the tape stored once under its hash, one job per variant, results collected as they
 * finish. Outcomes come back in variant order, as from `runSweep`, so the caller writes
 * the same table, reports and sweep page.
 */
export async function runQueueSweep(
  tape: Tape | TapeFile,
  runs: readonly SweepRun[],
  configPath: string,
  o: QueueSweepOptions,
): Promise<QueueSweepOutcome[]> {
  const notice = o.onNotice ?? (() => {});
  const outage = new OutageReporter(o.address.display, notice);
  const connection = new Redis({
    ...redisConnectionOptions(o.address, (attempt, delayMs) => outage.retrying(attempt, delayMs)),
    lazyConnect: true,
  });
  connection.on('error', () => {
    // Reported through the retry strategy: once when the outage starts, once when it ends.
  });
  // A Redis that comes back may have come back empty: the tape is stored again (a no-op when it is there).
  let reconnected = false;
  connection.on('ready', () => {
    outage.ready();
    reconnected = true;
  });
  await connection.connect().catch(() => {
    // The retry strategy keeps trying; commands wait in the offline queue meanwhile.
  });
  const queue = new Queue(SWEEP_QUEUE_NAME, { connection });
  queue.on('error', () => {
    // Reported once through the connection's own listener above.
  });
  // Finished jobs wake the loop below at once, instead of it asking Redis for every job's
  // state many times a second. BullMQ's event stream is read on a connection of its own
  // (a blocking read); its outages are reported through the connection above.
  const queueEvents = new QueueEvents(SWEEP_QUEUE_NAME, { connection: redisConnectionOptions(o.address) });
  queueEvents.on('error', () => {});
  let news = false;
  const waiting: { wake: (() => void) | null } = { wake: null };
  const heard = () => {
    news = true;
    waiting.wake?.();
  };
  queueEvents.on('completed', heard);
  queueEvents.on('failed', heard);
  /** Until an event arrives (or arrived since the last look began), or `ms` pass. */
  const waitForNews = async (ms: number) => {
    if (!news) await Promise.race([o.sleep(ms), new Promise<void>((r) => (waiting.wake = r))]);
    waiting.wake = null;
  };
  try {
    // Listening before the jobs go in, so no job finishes unheard.
    await queueEvents.waitUntilReady();
    const store: TapeStore = o.tapeDir !== undefined ? new PathTapeStore(o.tapeDir) : new RedisTapeStore(connection);
    const { bytes, kind } = await tapeArtifact(tape);
    // From here on, a Redis that came back may have lost the tape: the loop stores it again.
    // Cleared before the first put, not after the jobs go in: a restart between the two
    // would leave jobs (queued while Redis was away) on a Redis without their tape.
    reconnected = false;
    const hash = await store.put(bytes);
    const overrides = o.overrides ?? {};
    const sweepId = o.sweepId ?? defaultSweepId(hash, runs, configPath, overrides);
    notice(
      `sweep ${sweepId}: ${runs.length} variant(s) on queue ${o.address.display}, tape ${hash.slice(0, 12)} ` +
        `(${(bytes.byteLength / 2 ** 20).toFixed(1)} MiB, ${store.ref.kind === 'redis' ? 'in Redis' : `in ${store.ref.dir}`})`,
    );
    const attempts = o.attempts ?? 3;
    const ids = runs.map((_, i) => variantJobId(sweepId, i));
    const data = (i: number): VariantJobData => ({
      sweepId,
      index: i,
      label: variantLabel(runs[i]!.variant),
      tape: { hash, kind, store: store.ref },
      configText: runs[i]!.configText,
      configPath,
      overrides: {
        ...(overrides.seed !== undefined ? { seed: overrides.seed } : {}),
        ...(overrides.fillModel !== undefined ? { fillModel: overrides.fillModel } : {}),
      },
    });
    const jobOptions = (i: number) => ({
      jobId: ids[i]!,
      attempts,
      backoff: { type: 'exponential', delay: 1_000 },
      // Kept a week, so a coordinator restarted with the same sweep id collects what finished.
      removeOnComplete: { age: 7 * 24 * 3600 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
    // An id already on the queue (a resumed sweep) is left as it is: BullMQ ignores the add.
    await queue.addBulk(runs.map((_, i) => ({ name: 'variant', data: data(i), opts: jobOptions(i) })));

    /** A finished job's answer and its result, read from beside the job. */
    const collect = async (
      returnvalue: unknown,
    ): Promise<'lost' | { error: string } | { answer: VariantJobResult; result: BacktestResult }> => {
      const parsed = variantJobResult.safeParse(returnvalue);
      if (!parsed.success)
        return { error: `the worker's answer is malformed: ${parsed.error.issues[0]?.message ?? 'unknown'}` };
      const encoded = await connection.getBuffer(parsed.data.resultKey);
      if (encoded === null) return 'lost' as const;
      try {
        return { answer: parsed.data, result: decodeResult(encoded) };
      } catch (err) {
        return { error: `the worker's result cannot be read: ${(err as Error).message}` };
      }
    };
    const out = new Array<QueueSweepOutcome | undefined>(runs.length);
    const started = o.clock.now();
    const workersSeen = new Set<string>();
    let done = 0;
    let events = 0;
    const progress = () =>
      o.onProgress?.({
        done,
        total: runs.length,
        events,
        elapsedMs: o.clock.now() - started,
        workers: workersSeen.size,
      });
    progress();
    while (done < runs.length) {
      news = false;
      if (reconnected && store.ref.kind === 'redis') {
        reconnected = false;
        await store.put(bytes);
      }
      for (let i = 0; i < runs.length; i++) {
        if (out[i] !== undefined) continue;
        // The state first, then the job: a job read before it finished would carry no result yet.
        const state = await queue.getJobState(ids[i]!);
        if (state === 'unknown') {
          // Gone meanwhile: removed by hand, aged out, or lost with a Redis that restarted
          // without persistence, in which case the tape went with it.
          if (store.ref.kind === 'redis') await store.put(bytes);
          await queue.add('variant', data(i), jobOptions(i));
          continue;
        }
        if (state !== 'completed' && state !== 'failed') continue;
        const job = await Job.fromId<VariantJobData, unknown>(queue, ids[i]!);
        if (job === undefined) continue;
        if (state === 'completed') {
          const collected = await collect(job.returnvalue);
          if (collected === 'lost') {
            // The job says it finished but its result is gone (evicted, or expired first):
            // it runs again rather than being reported without its result.
            await job.remove().catch(() => {});
            if (store.ref.kind === 'redis') await store.put(bytes);
            await queue.add('variant', data(i), jobOptions(i));
            continue;
          }
          if ('error' in collected) {
            out[i] = { variant: runs[i]!.variant, result: null, error: collected.error, replayMs: 0, worker: null };
          } else {
            const r = collected.answer;
            workersSeen.add(r.worker);
            events += r.events;
            out[i] = {
              variant: runs[i]!.variant,
              result: collected.result,
              error: null,
              replayMs: r.replayMs,
              worker: r.worker,
            };
          }
        } else {
          out[i] = {
            variant: runs[i]!.variant,
            result: null,
            error: job.failedReason || 'failed without a reason',
            replayMs: 0,
            worker: null,
          };
        }
        done++;
        progress();
      }
      if (done < runs.length) await waitForNews(o.pollMs ?? 1_000);
    }
    return out as QueueSweepOutcome[];
  } finally {
    waiting.wake?.();
    await queueEvents.close().catch(() => {});
    await queue.close().catch(() => {});
    connection.disconnect();
  }
}
