import type { RiskConfig, RunConfig } from '../../src/config/types.ts';
import { ExchangeClient } from '../../src/exchange/client.ts';
import { strategiesOf } from '../../src/runtime/session.ts';
import { Runtime, type RuntimeStatus } from '../../src/runtime/runtime.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { manualTime, settleEventLoop } from '../../src/shared/time.ts';
import { parseScenario } from '../../src/sim/market/scenario.ts';
import { createUser } from '../../src/sim/ops/admin-ops.ts';
import { startSimulator, type Simulator } from '../../src/sim/server.ts';
import { HttpInFlight } from './http-in-flight.ts';
import { memoryScenario } from './scenario.ts';

export interface VirtualPaperRunOptions {
  /** The strategies (and heartbeat, postArb) of this config run; its `paper` seed if any. */
  readonly config: RunConfig;
  readonly games: number;
  /** Market time to run, ms. */
  readonly durationMs: number;
  /** `onTick` is called every this much market time. */
  readonly everyMs: number;
  /** Called at every `everyMs` of market time, with the market time elapsed. */
  readonly onTick: (elapsedMs: number, run: VirtualPaperRun) => void;
  /** Paper account balance and the total liability cap, raised so every game can be quoted. */
  readonly balance?: number;
  readonly startMs?: number;
}

export interface VirtualPaperRun {
  readonly runtime: Runtime;
  readonly simulator: Simulator;
  readonly exchange: ExchangeClient;
}

export interface VirtualPaperRunResult {
  readonly status: RuntimeStatus;
  readonly openOrdersLeft: number;
  /** Due instants the clock stopped at. */
  readonly steps: number;
}

/**
 * A paper session on a virtual clock, as fast as the machine allows: the simulator with
 * its synthetic market (the scenario of `memoryScenario`) in this process, the exchange
 * client over real loopback HTTP and WebSockets, and the runtime quoting the config's
 * strategies. The clock stops at every due instant until everything that instant set off
 * has landed: REST answers (no request in flight) and feed frames (a ping/pong on each
 * socket), so the run behaves as it would in real time, only faster.
 */
export async function runVirtualPaper(o: VirtualPaperRunOptions): Promise<VirtualPaperRunResult> {
  const { config } = o;
  const time = manualTime(o.startMs ?? Date.UTC(2026, 0, 15, 12));
  const logger = silentLogger();
  const balance = o.balance ?? 1_000_000;
  const inFlight = new HttpInFlight();
  const scenario = parseScenario(memoryScenario(o.games), 'memory scenario');
  const sim = await startSimulator({ seed: config.paper?.seed ?? 7, traders: true, time, logger, scenario });
  const password = 'memory-bench-password';
  const made = createUser(sim.context, { username: 'memory', password, balance, commission: config.paper?.commission ?? 0.01 });
  if (!made.ok) throw new Error(made.error);
  const exchange = new ExchangeClient({
    baseUrl: sim.url,
    credentials: async () => ({ username: 'memory', password }),
    clock: time.clock,
    scheduler: time.scheduler,
    logger,
    sockets: { backoff: { jitter: 0 } },
  });
  const limits: RiskConfig = { ...config.risk, maxTotalLiability: Math.max(config.risk.maxTotalLiability, config.risk.maxGameLiability * o.games) };
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
  const sockets = [exchange.priceFeed.socket, exchange.userFeed.socket];
  let steps = 0;
  // Requests still open after this many event-loop turns without any request starting or
  // ending are parked on the exchange clock (a live-delayed place): time must move for them.
  const PARKED_AFTER_TURNS = 16;
  const quietRequests = async () => {
    let seen = inFlight.changes;
    for (let idle = 0; inFlight.count > 0 && idle < PARKED_AFTER_TURNS; idle++) {
      await settleEventLoop();
      if (inFlight.changes !== seen) {
        seen = inFlight.changes;
        idle = -1;
      }
    }
  };
  const settle = async () => {
    steps++;
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
  const run: VirtualPaperRun = { runtime, simulator: sim, exchange };
  try {
    await runtime.start();
    await settle();
    const start = time.clock.now();
    for (let t = o.everyMs; t <= o.durationMs; t += o.everyMs) {
      await time.advanceToSettling(start + t, settle);
      o.onTick(t, run);
    }
    let stopped = false;
    const stopping = runtime.stop(10_000).finally(() => (stopped = true));
    while (!stopped) await time.advanceToSettling(time.clock.now() + 100, settle);
    const left = await stopping;
    return { status: runtime.status(), openOrdersLeft: left.length, steps };
  } finally {
    await exchange.close().catch(() => undefined);
    await sim.close();
    inFlight.close();
  }
}
