import { relative } from 'node:path';
import type { Logger } from 'pino';
import { asyncScheduler, filter, firstValueFrom, timer, type SchedulerLike } from 'rxjs';
import { componentLogger } from '../config/logging.ts';
import type { RunConfig } from '../config/types.ts';
import { ExchangeClient } from '../exchange/client.ts';
import type { SocketState } from '../exchange/socket/managed-socket.ts';
import { systemClock, type Clock } from '../shared/clock.ts';
import { manualTime, realTime, settleEventLoop, type ManualTimeSource } from '../shared/time.ts';
import type { Simulator } from '../sim/server.ts';
import { liveExchangeClient, startPaperSimulator } from './exchange-from-config.ts';
import { FeedRecorder, type RecorderSummary } from '../record/feed-recorder.ts';
import { fileStamp, type FeedName, type RecordedVenue } from '../record/format.ts';
import { subscriptionOf } from '../record/selection.ts';
import { driveVirtualTime } from '../record/virtual-time.ts';
import { RunSetupError } from './errors.ts';

export interface RecordingSessionOptions {
  readonly config: RunConfig;
  /** `live`: the config's venue. `paper`: a simulator started in-process from its `paper` section. */
  readonly mode: 'live' | 'paper';
  readonly dir: string;
  readonly logger: Logger;
  /** Stop after this long: wall time, or exchange time under `virtualTime`. Undefined: until stop(). */
  readonly durationMs?: number;
  /**
   * Paper only: the simulator on a manual clock starting here, driven as fast as the
   * machine allows, one due instant at a time. The same config and start then give the
   * same recording, byte for byte.
   */
  readonly virtualTime?: { readonly startMs: number };
  /**
   * Paper only: the simulator drops every socket at this period of exchange time (its
   * `dropSocketsEveryMs` fault), so that the recording shows gaps and reconnect snapshots.
   */
  readonly dropSocketsEveryMs?: number;
  readonly maxFileBytes?: number;
  readonly feeds?: readonly FeedName[];
  readonly prefix?: string;
  /** Wall-time scheduler of the session itself (the duration of a real-time run, gzip flushes); default asyncScheduler. */
  readonly wallScheduler?: SchedulerLike;
  /**
   * Something that trades on the same client while it is recorded (a runtime), started once
   * the recorder has its opening snapshot and stopped before the files are closed: the
   * recording then holds exactly the frames it saw, and its own orders in the user feed.
   */
  readonly attach?: (ctx: {
    readonly client: ExchangeClient;
    readonly clock: Clock;
    readonly scheduler: SchedulerLike;
  }) => Promise<{ stop(): Promise<void> }>;
}

/** Open, closed, or waiting on a retry timer: not in the middle of a handshake or a login. */
const notDialling = (s: SocketState): boolean => s.status === 'open' || s.status === 'closed' || s.retryInMs !== null;

export interface RecordingSession {
  readonly recorder: FeedRecorder;
  /** The simulator of a paper session (tests use it to inject faults). */
  readonly simulator: Simulator | null;
  readonly client: ExchangeClient;
  /** The exchange's clock: the simulator's (virtual or sped up) on paper, the system clock live. */
  readonly clock: Clock;
  /** Resolves once everything is closed: the duration ran out, or stop() was called. */
  readonly done: Promise<RecorderSummary>;
  stop(reason: string): void;
}

/**
 * A recording of what the config's strategies would watch: the exchange client logs in
 * (the configured account live; a fresh paper account on the simulator), the recorder
 * narrows the price feed to the strategies' interests and writes the feeds to `dir`.
 */
export async function startRecordingSession(o: RecordingSessionOptions): Promise<RecordingSession> {
  const { config } = o;
  const log = o.logger;
  const wallScheduler = o.wallScheduler ?? asyncScheduler;
  const enabled = config.strategies.filter((s) => s.enabled);
  if (enabled.length === 0)
    throw new RunSetupError(
      `${config.source}: no enabled strategy, so nothing to record (the recording follows the strategies' interests)`,
    );
  const subscription = subscriptionOf(enabled.map((s) => s.interest));

  let sim: Simulator | null = null;
  let client: ExchangeClient;
  let clock: Clock;
  let scheduler: SchedulerLike = asyncScheduler;
  let virtual: ManualTimeSource | null = null;
  let venue: RecordedVenue;
  let session: string | undefined;
  if (o.mode === 'paper') {
    const paper = config.paper;
    if (!paper)
      throw new RunSetupError(`${config.source}: a paper recording needs a \`paper\` section (seed, speed, …)`);
    const time = o.virtualTime ? (virtual = manualTime(o.virtualTime.startMs)) : realTime({ speed: paper.speed });
    const { sim: started, credentials } = await startPaperSimulator(paper, { time, logger: log, username: 'recorder' });
    sim = started;
    // Socket timers run on the exchange clock: scaled by the speed, liveness keeps its wall-time meaning.
    const scale = o.virtualTime ? 1 : paper.speed;
    // No jitter on a virtual clock: a reconnect after a drop then waits the same every run.
    const backoff = o.virtualTime ? { backoff: { jitter: 0 } } : {};
    client = new ExchangeClient({
      baseUrl: started.url,
      credentials,
      clock: time.clock,
      scheduler: time.scheduler,
      logger: componentLogger(log, 'exchange'),
      sockets: {
        pingIntervalMs: 10_000 * scale,
        pongTimeoutMs: 30_000 * scale,
        connectTimeoutMs: 15_000 * scale,
        ...backoff,
      },
    });
    if (o.dropSocketsEveryMs !== undefined && o.dropSocketsEveryMs > 0) {
      const ctx = started.context;
      ctx.faults.dropSocketsEveryMs = o.dropSocketsEveryMs;
      for (const hook of ctx.hooks.onFaultsChanged) hook(ctx.faults);
    }
    clock = time.clock;
    scheduler = time.scheduler;
    venue = {
      kind: 'paper',
      paper: {
        seed: paper.seed,
        speed: o.virtualTime ? null : paper.speed,
        scenario: paper.scenario ? relative(config.baseDir, paper.scenario) : null,
        virtualTime: o.virtualTime !== undefined,
      },
    };
    // The simulator's port differs per run; a fixed session id keeps a virtual-time recording reproducible.
    if (o.virtualTime) session = `paper-seed${paper.seed}-${fileStamp(o.virtualTime.startMs)}`;
  } else {
    if (o.virtualTime)
      throw new RunSetupError('virtual time needs a paper recording: a live venue runs on its own clock');
    if (o.dropSocketsEveryMs !== undefined)
      throw new RunSetupError('dropping sockets is a simulator fault: it needs a paper recording');
    const v = config.venue;
    if (!v) throw new RunSetupError(`${config.source}: a live recording needs a \`venue\` section (baseUrl or urls)`);
    client = liveExchangeClient(v, { logger: log });
    clock = systemClock;
    venue = { kind: 'live', host: new URL(v.urls.streaming).host };
  }

  const recorder = new FeedRecorder({
    source: client,
    dir: o.dir,
    subscription,
    venue,
    clock,
    clockKind: o.mode === 'paper' ? 'exchange' : 'wall',
    scheduler: wallScheduler,
    logger: log,
    ...(o.feeds ? { feeds: o.feeds } : {}),
    ...(o.maxFileBytes !== undefined ? { maxFileBytes: o.maxFileBytes } : {}),
    ...(o.prefix !== undefined ? { prefix: o.prefix } : {}),
    ...(session !== undefined ? { session } : {}),
  });
  let attached: { stop(): Promise<void> } | null = null;
  const shutdown = async () => {
    await client.close().catch(() => undefined);
    await sim?.close();
  };
  try {
    // Fails fast on a refused login instead of leaving the sockets retrying.
    await client.rest.login();
    await recorder.start();
    attached = o.attach ? await o.attach({ client, clock, scheduler }) : null;
  } catch (err) {
    await recorder.stop('failed to start').catch(() => undefined);
    await shutdown();
    throw err;
  }

  let stopReason: string | null = null;
  let wake: (() => void) | null = null;
  const stop = (reason: string) => {
    stopReason ??= reason;
    wake?.();
  };
  const stopped = new Promise<void>((resolve) => (wake = resolve));
  const feedsOf = (): FeedName[] => (o.feeds ? [...o.feeds] : ['price', 'user']);

  const drive = async (): Promise<void> => {
    if (!virtual) {
      const timeout =
        o.durationMs !== undefined
          ? timer(o.durationMs, wallScheduler).subscribe(() => stop('duration reached'))
          : null;
      await stopped;
      timeout?.unsubscribe();
      return;
    }
    const v = virtual;
    const sockets = feedsOf().map((f) => (f === 'price' ? client.priceFeed.socket : client.userFeed.socket));
    await Promise.race([
      Promise.all(sockets.map((s) => firstValueFrom(s.state$.pipe(filter((st) => st.status === 'open'))))),
      stopped,
    ]);
    const settle = async () => {
      await settleEventLoop();
      // A connection being dialled finishes (or fails) before time moves on, so a
      // reconnect lands at the same exchange time every run.
      await Promise.all(sockets.map((s) => firstValueFrom(s.state$.pipe(filter(notDialling)), { defaultValue: null })));
      // A pong comes after every frame sent before it: the due instant's frames are all in.
      await Promise.allSettled(sockets.map((s) => s.roundTrip()));
      await recorder.idle();
    };
    await settle();
    const until = o.durationMs !== undefined ? v.clock.now() + o.durationMs : Number.POSITIVE_INFINITY;
    const how = await driveVirtualTime({ time: v, until, settle, stopped: () => stopReason !== null });
    if (how === 'until') stop('duration reached');
    await recorder.idle();
  };

  const done = (async () => {
    let failure: unknown = null;
    try {
      await drive();
    } catch (err) {
      failure = err;
      log.error({ err }, 'recording failed');
    }
    if (attached) {
      // Stopping waits on the session's clock: a virtual one has to keep moving meanwhile.
      let left = false;
      const stopping = attached.stop().finally(() => (left = true));
      if (virtual) while (!left) await virtual.advanceToSettling(virtual.clock.now() + 100, settleEventLoop);
      await stopping.catch((err: unknown) => log.error({ err }, 'stopping the attached runtime failed'));
    }
    // Whatever happened, the files are closed properly and the simulator stopped.
    const summary = await recorder.stop(
      failure ? `failed: ${failure instanceof Error ? failure.message : String(failure)}` : (stopReason ?? 'stopped'),
    );
    await shutdown();
    if (failure) throw failure;
    return summary;
  })();
  return { recorder, simulator: sim, client, clock, done, stop };
}
