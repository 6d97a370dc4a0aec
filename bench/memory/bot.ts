import type { RiskConfig, RunConfig } from '../../src/config/types.ts';
import type { CredentialsProvider } from '../../src/exchange/auth/credentials.ts';
import { ExchangeClient } from '../../src/exchange/client.ts';
import { strategiesOf } from '../../src/app/runtime-options.ts';
import { Runtime } from '../../src/runtime/runtime.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { settleEventLoop, type ManualTimeSource } from '../../src/shared/time.ts';
import { HttpInFlight } from './http-in-flight.ts';

export interface BotOptions {
  readonly url: string;
  readonly credentials: CredentialsProvider;
  /** The bot's clock: shared with an in-process simulator, or its own beside a simulator process. */
  readonly time: ManualTimeSource;
  /** Strategies, risk limits and heartbeat of this config run. */
  readonly config: RunConfig;
  /** The total liability cap is raised to maxGameLiability × games, so that every game can be quoted. */
  readonly games: number;
  /**
   * A request still unanswered after this much wall time with no other request starting
   * or ending is parked on the exchange clock (a place with live-delayed orders): the
   * clock must move for it. Default 2 ms.
   */
  readonly parkedAfterMs?: number;
}

export interface Bot {
  readonly runtime: Runtime;
  readonly exchange: ExchangeClient;
  /**
   * Wait until everything the last instant set off has landed: no REST request in transit
   * and every feed frame sent before now read (a ping/pong on each socket).
   */
  settle(): Promise<void>;
  /** Cancel every order (driving the clock with `advance`), then close the client. Resolves with the orders left open. */
  stop(advance: (to: number) => Promise<void>): Promise<number>;
  close(): Promise<void>;
}

/**
 * linesmith as a paper session runs it — the exchange client over loopback HTTP and
 * WebSockets, the runtime quoting the config's strategies through the order manager and
 * risk checks — on a manual clock that the caller drives.
 */
export async function startBot(o: BotOptions): Promise<Bot> {
  const { config, time } = o;
  const logger = silentLogger();
  const inFlight = new HttpInFlight();
  const exchange = new ExchangeClient({
    baseUrl: o.url,
    credentials: o.credentials,
    clock: time.clock,
    scheduler: time.scheduler,
    logger,
    sockets: { backoff: { jitter: 0 } },
  });
  const limits: RiskConfig = {
    ...config.risk,
    maxTotalLiability: Math.max(config.risk.maxTotalLiability, config.risk.maxGameLiability * o.games),
  };
  const runtime = new Runtime({
    exchange,
    gateway: 'rest',
    strategies: strategiesOf(config),
    limits,
    usePostArb: limits.usePostArb,
    heartbeatSeconds: limits.heartbeatSeconds,
    cancelUnknownOrdersAtStart: false,
    clock: time.clock,
    scheduler: time.scheduler,
    logger,
    runId: 'memory',
  });
  const parkedAfterMs = o.parkedAfterMs ?? 2;
  const sockets = [exchange.priceFeed.socket, exchange.userFeed.socket];
  const quietRequests = async () => {
    let seen = inFlight.changes;
    let since = performance.now();
    while (inFlight.count > 0 && performance.now() - since < parkedAfterMs) {
      await settleEventLoop();
      if (inFlight.changes !== seen) {
        seen = inFlight.changes;
        since = performance.now();
      }
    }
  };
  const settle = async () => {
    let before: number;
    do {
      before = inFlight.changes;
      await settleEventLoop();
      await quietRequests();
      // A pong follows every frame the server sent before it.
      await Promise.allSettled(sockets.map((s) => s.roundTrip()));
      await settleEventLoop();
    } while (inFlight.changes !== before);
  };
  const close = async () => {
    await exchange.close().catch(() => undefined);
    inFlight.close();
  };
  try {
    await runtime.start();
  } catch (err) {
    await close();
    throw err;
  }
  await settle();
  return {
    runtime,
    exchange,
    settle,
    close,
    async stop(advance) {
      let stopped = false;
      const stopping = runtime.stop(10_000).finally(() => (stopped = true));
      while (!stopped) await advance(time.clock.now() + 100);
      const left = await stopping;
      await close();
      return left.length;
    },
  };
}
