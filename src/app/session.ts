import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { asyncScheduler, auditTime, interval } from 'rxjs';
import type { RunConfig } from '../config/types.ts';
import { componentLogger } from '../config/logging.ts';
import { ExchangeClient } from '../exchange/client.ts';
import { FileCursorStore } from '../exchange/socket/cursor-file.ts';
import { randomRunId } from '../exchange/orders/user-reference.ts';
import { isLoopbackHost } from '../exchange/http/urls.ts';
import { RuntimeMetrics } from '../metrics/runtime-metrics.ts';
import { dashboardSnapshot } from '../metrics/dashboard/snapshot.ts';
import { startMetricsServer, type MetricsServer } from '../metrics/server.ts';
import type { Simulator } from '../sim/server.ts';
import { systemClock } from '../shared/clock.ts';
import { realTime, type TimeSource } from '../shared/time.ts';
import { liveExchangeClient, startPaperSimulator } from './exchange-from-config.ts';
import { FEEDS_OPEN_TIMEOUT_MS, Runtime, type Decision } from '../runtime/runtime.ts';
import { sessionHeartbeat } from './session-heartbeat.ts';
import { startSessionRecording, type SessionRecording } from './session-recording.ts';
import { policyOf, runtimeOptions } from './runtime-options.ts';
import { markToFair, statusLine, summarize, type RunSummary } from '../runtime/summary.ts';
import { socketLiveness } from '../exchange/socket/liveness.ts';
import { RunSetupError } from './errors.ts';

export interface SessionOptions {
  readonly config: RunConfig;
  readonly mode: 'live' | 'paper';
  readonly logger: Logger;
  /** Stop after this long (wall time); undefined: until `stop()`. */
  readonly durationMs?: number;
  /** Called about once a second with a status line. */
  readonly onStatus?: (line: string) => void;
}

export interface Session {
  readonly runtime: Runtime;
  /** `http://host:port` of `/metrics` and `/status` when the config enables them, else null. */
  readonly metricsUrl: string | null;
  /** Resolves with the summary once the run has stopped (duration over, or stop()). */
  readonly done: Promise<RunSummary>;
  stop(reason: string): void;
}

/**
 * One run of the configured strategies: live against `venue`, or on paper against a
 * simulator started in-process (its synthetic market on, an account made for the run).
 * The runtime is the same either way; in paper mode it runs on the simulator's clock, so
 * strategy throttles keep their meaning at any speed, and the heartbeat's timeout and the
 * feeds' staleness, which are wall time a stalled process may lose, are scaled to keep theirs.
 */
export async function startSession(o: SessionOptions): Promise<Session> {
  const { config } = o;
  const log = o.logger;
  let sim: Simulator | null = null;
  let exchange: ExchangeClient;
  let time: TimeSource;
  /** How much faster than wall time the exchange clock runs (paper only). */
  let speed = 1;
  let cursorStore: FileCursorStore | null = null;
  if (o.mode === 'paper') {
    const paper = config.paper;
    if (!paper) throw new RunSetupError(`${config.source}: a paper run needs a \`paper\` section (seed, speed, …)`);
    speed = paper.speed;
    time = realTime({ speed });
    const paperExchange = await startPaperSimulator(paper, { time, logger: log, username: 'paper' });
    sim = paperExchange.sim;
    exchange = new ExchangeClient({
      baseUrl: sim.url,
      credentials: paperExchange.credentials,
      clock: time.clock,
      scheduler: time.scheduler,
      logger: componentLogger(log, 'exchange'),
      sockets: socketLiveness(config.risk.staleFeedMs, speed),
    });
  } else {
    const venue = config.venue;
    if (!venue) throw new RunSetupError(`${config.source}: a live run needs a \`venue\` section (baseUrl or urls)`);
    time = { kind: 'real', clock: systemClock, scheduler: asyncScheduler };
    // Live only: a paper run's simulator is new each time, so an earlier run's cursor means nothing to it.
    cursorStore = venue.cursorFile ? new FileCursorStore(venue.cursorFile, venue.urls.streaming) : null;
    const loaded = cursorStore ? await cursorStore.load(systemClock.now()) : null;
    if (loaded?.kind === 'damaged')
      log.warn(
        { reason: loaded.reason },
        'user feed cursor not used: starting from the REST snapshot, nothing replayed',
      );
    else if (loaded?.kind === 'cursor')
      log.info({ cursor: loaded.cursor }, 'user feed: replaying from the cursor the last run saved');
    exchange = liveExchangeClient(venue, {
      logger: log,
      sockets: socketLiveness(config.risk.staleFeedMs),
      userFeedCursor: loaded?.kind === 'cursor' ? loaded.cursor : null,
    });
  }
  const killFile = config.risk.killSwitchFile;
  // Metrics watch the venue from outside the runtime: an instrumented venue and a registry of this session's own.
  // The switch's timeout is wall time the process may stall, whatever the paper speed.
  const heartbeat = sessionHeartbeat(config.risk.heartbeatSeconds, speed);
  const metrics = config.metrics.enabled
    ? new RuntimeMetrics({ session: o.mode, clock: time.clock, speed, gateway: 'rest', requests: exchange.rest })
    : null;
  const runtime = new Runtime(
    runtimeOptions(
      { ...policyOf(config), heartbeatSeconds: heartbeat.timeoutSeconds },
      {
        exchange: metrics ? metrics.instrument(exchange) : exchange,
        heartbeatEveryMs: heartbeat.everyMs,
        clock: time.clock,
        scheduler: time.scheduler,
        // Thirty wall seconds for the feeds' first connections, on the runtime's clock.
        feedsOpenTimeoutMs: FEEDS_OPEN_TIMEOUT_MS * speed,
        logger: componentLogger(log, 'runtime'),
        runId: randomRunId(Math.random),
        ...(killFile
          ? { killSwitch: () => (existsSync(killFile) ? `kill switch file ${killFile} exists` : null) }
          : {}),
        ...(config.recording.enabled ? { onDecision: (d: Decision) => recording?.decision(d) } : {}),
      },
    ),
  );
  metrics?.attach(runtime);
  let recording: SessionRecording | null = null;
  const started = systemClock.now();
  const startedOnExchange = time.clock.now();
  let metricsServer: MetricsServer | null = null;
  const release = async () => {
    await metricsServer?.close();
    metrics?.close();
    await exchange.close().catch(() => undefined);
    await sim?.close();
  };
  try {
    // Listening first: a taken port fails the run before anything reaches the exchange.
    if (metrics) {
      const status = () => metrics.report();
      const caps = { maxGameLiability: config.risk.maxGameLiability, maxTotalLiability: config.risk.maxTotalLiability };
      metricsServer = await startMetricsServer({
        host: config.metrics.host,
        port: config.metrics.port,
        registry: metrics.registry,
        status,
        dashboard: () => dashboardSnapshot({ runtime, status, caps }),
        logger: log,
      });
    }
    if (metricsServer) {
      log.info(
        {
          dashboard: `${metricsServer.url}/`,
          url: `${metricsServer.url}/metrics`,
          status: `${metricsServer.url}/status`,
        },
        'metrics endpoint listening',
      );
      if (!isLoopbackHost(config.metrics.host))
        log.warn(
          { host: config.metrics.host },
          'metrics endpoint reachable beyond this machine: it has no authentication',
        );
    }
    // Recording first: its opening snapshot and frames are the ones the runtime starts from.
    recording = await startSessionRecording({
      config,
      exchange,
      mode: o.mode,
      clock: time.clock,
      logger: componentLogger(log, 'recorder'),
    });
    await runtime.start();
  } catch (err) {
    await recording?.stop('failed to start').catch(() => undefined);
    await release();
    throw err;
  }
  const saveCursor = () =>
    cursorStore
      ?.save(runtime.userFeedCursor)
      .catch((err: unknown) => log.error({ err }, 'saving the user feed cursor failed'));
  // At most one write a second; a crash loses at most a second of cursor, i.e. replays a little more.
  const cursorSaves = cursorStore
    ? exchange.userFeed.events$.pipe(auditTime(1_000, time.scheduler)).subscribe(() => void saveCursor())
    : null;
  let worst = 0;
  let resolveStop!: (reason: string) => void;
  const stopped = new Promise<string>((r) => (resolveStop = r));
  // Wall-clock status and duration: what the user watches, whatever the exchange's speed.
  const ticker = interval(1_000, asyncScheduler).subscribe(() => {
    const st = runtime.status();
    worst = Math.min(worst, st.worstCase);
    const elapsed = (systemClock.now() - started) / 1000;
    o.onStatus?.(statusLine(st, elapsed, markToFair(runtime)));
    if (o.durationMs !== undefined && elapsed * 1000 >= o.durationMs) resolveStop('duration reached');
  });
  const done = (async () => {
    const reason = await stopped;
    ticker.unsubscribe();
    log.info({ reason }, 'stopping: cancelling every order we own');
    recording?.stopping(time.clock.now());
    // The runtime waits on its own clock: ten wall seconds are `speed` times as long there.
    const left = await runtime.stop(10_000 * speed);
    cursorSaves?.unsubscribe();
    await saveCursor();
    const st = runtime.status();
    const summary = summarize(
      runtime,
      st,
      worst,
      (systemClock.now() - started) / 1000,
      left.length,
      (time.clock.now() - startedOnExchange) / 1000,
    );
    await recording?.stop(reason).catch((err: unknown) => log.error({ err }, 'closing the recording failed'));
    await release();
    return summary;
  })();
  return { runtime, metricsUrl: metricsServer?.url ?? null, done, stop: (reason) => resolveStop(reason) };
}
