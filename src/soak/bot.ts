import type { Logger } from 'pino';
import type { OwnOrder } from '../market-model/types.ts';
import type { CredentialsProvider } from '../exchange/auth/credentials.ts';
import { ExchangeClient } from '../exchange/client.ts';
import type { RiskLimits } from '../orders/risk-gate.ts';
import { runtimeOptions } from '../app/runtime-options.ts';
import { Runtime } from '../runtime/runtime.ts';
import type { StrategyInstance } from '../runtime/strategy-instance.ts';
import { componentChild } from '../shared/logger.ts';
import { sleep } from '../shared/sleep.ts';
import type { TimeSource } from '../shared/time.ts';
import { CrashableScheduler } from './crashable-scheduler.ts';
import { soakVenue, type SoakVenueControl } from './soak-venue.ts';
import { socketLiveness } from '../exchange/socket/liveness.ts';

export interface SoakBotOptions {
  /** `bot1`, `bot2`: for logs and the report. */
  readonly name: string;
  /** Fixed length, distinct per bot and attempt: the prefix of every client order id. */
  readonly runId: string;
  readonly baseUrl: string;
  readonly credentials: CredentialsProvider;
  /** The simulator's time source: the runtime runs on the exchange clock, as a paper run does. */
  readonly time: TimeSource;
  readonly strategies: readonly StrategyInstance[];
  readonly limits: RiskLimits;
  readonly heartbeatSeconds: number;
  readonly cancelUnknownOrdersAtStart: boolean;
  /** The REST client's own deadline per request, wall ms. */
  readonly restTimeoutMs: number;
  readonly speed: number;
  readonly logger: Logger;
}

/**
 * One bot process, as the soak sees it: an ExchangeClient and a Runtime on their own
 * crashable scheduler, wired like a paper session (the runtime on the exchange clock,
 * socket liveness scaled to keep its wall-time meaning). `crash()` kills it without a
 * single cancel; `stop()` is the clean shutdown.
 */
export class SoakBot {
  readonly name: string;
  readonly runtime: Runtime;
  readonly exchange: ExchangeClient;
  readonly control: SoakVenueControl;
  readonly #scheduler: CrashableScheduler;
  readonly #time: TimeSource;
  readonly #speed: number;
  #startedAt: number | null = null;

  constructor(o: SoakBotOptions) {
    this.name = o.name;
    this.#time = o.time;
    this.#speed = o.speed;
    this.#scheduler = new CrashableScheduler(o.time.scheduler);
    const clock = o.time.clock;
    const log = o.logger.child({ bot: o.name });
    // As a paper session: a feed silent for 15 s of wall time is down, whatever the speed.
    const staleWallMs = 15_000;
    this.exchange = new ExchangeClient({
      baseUrl: o.baseUrl,
      credentials: o.credentials,
      clock,
      scheduler: this.#scheduler,
      logger: componentChild(log, 'exchange'),
      sockets: socketLiveness(staleWallMs, o.speed),
      rest: { timeoutMs: o.restTimeoutMs, runId: o.runId },
    });
    this.control = soakVenue(this.exchange);
    this.runtime = new Runtime(
      runtimeOptions(
        {
          strategies: o.strategies,
          limits: o.limits,
          usePostArb: true,
          heartbeatSeconds: o.heartbeatSeconds,
          cancelUnknownOrdersAtStart: o.cancelUnknownOrdersAtStart,
        },
        {
          exchange: this.control.venue,
          clock,
          scheduler: this.#scheduler,
          logger: componentChild(log, 'runtime'),
          runId: o.runId,
        },
      ),
    );
  }

  /** Exchange time the runtime finished starting; null before. */
  get startedAt(): number | null {
    return this.#startedAt;
  }

  get crashed(): boolean {
    return this.#scheduler.crashed;
  }

  async start(): Promise<void> {
    await this.runtime.start();
    this.#startedAt = this.#time.clock.now();
  }

  /** Socket reconnects so far (price and user feeds; the orders socket is not used). */
  reconnects(): number {
    return this.exchange.priceFeed.stats.reconnects + this.exchange.userFeed.stats.reconnects;
  }

  /**
   * Die without cancelling anything: nothing more leaves the process, no timer of it runs,
   * its sockets close. Requests already on the wire still reach the exchange, as they would.
   */
  async crash(): Promise<void> {
    this.control.sever();
    this.#scheduler.crash();
    await this.#within(this.exchange.close(), 2_000 * this.#speed);
  }

  /** Clean shutdown: the runtime cancels everything and checks the exchange; resolves with what it says is left. */
  async stop(timeoutMs: number): Promise<OwnOrder[]> {
    const left = await this.runtime.stop(timeoutMs);
    await this.#within(this.exchange.close(), timeoutMs);
    return left;
  }

  /** Wait for `p`, at most `ms` of exchange time (on the shared scheduler, which never crashes). */
  async #within(p: Promise<unknown>, ms: number): Promise<void> {
    await Promise.race([p.catch(() => undefined), sleep(ms, this.#time.scheduler)]);
  }
}
