import type { Logger } from 'pino';
import { isLive } from '../orders/own-book.ts';
import { decodeReference } from '../exchange/orders/user-reference.ts';
import type { RiskLimits } from '../orders/risk-gate.ts';
import { componentLogger } from '../config/logging.ts';
import type { FaultCounts } from '../sim/context.ts';
import { heartbeatFor } from '../sim/heartbeat.ts';
import { createUser } from '../sim/ops/admin-ops.ts';
import { startSimulator, type Simulator } from '../sim/server.ts';
import { silentLogger } from '../shared/logger.ts';
import { sleep } from '../shared/sleep.ts';
import { realTime, type TimeSource } from '../shared/time.ts';
import { AdminClient } from './admin-client.ts';
import { SoakBot } from './bot.ts';
import { SoakSetupError } from './errors.ts';
import { projectedWithinCaps } from './exposure-invariant.ts';
import {
  faultsHadEffect,
  lapseNoticed,
  restartLeftNoOrphans,
  type FaultEffect,
  type LapseEvidence,
  type RestartEvidence,
} from './fault-invariants.ts';
import { passed, type InvariantResult } from './invariant-result.ts';
import { everyFillOnce, noDoublePlace, noOpenOrdersLeft, openOrdersManaged, type BotLedger } from './invariants.ts';
import {
  DEFAULT_FAULTS,
  DEFAULT_HEARTBEAT_SECONDS,
  DEFAULT_LIMITS,
  timelineOf,
  type SoakFaults,
  type SoakOptions,
  type SoakTimeline,
} from './plan.ts';
import { SimLedger } from './sim-ledger.ts';
import { soakStrategies } from './strategies.ts';

/** What a soak did and found. */
export interface SoakReport {
  readonly timeline: SoakTimeline;
  readonly seed: number;
  readonly limits: RiskLimits;
  /** Orders of the account that reached the simulator's book (or traded), and places the bots sent. */
  readonly orders: {
    readonly atSimulator: number;
    readonly placesSent: number;
    readonly cancelsSent: number;
    readonly unknownOutcomes: number;
  };
  readonly fills: {
    readonly atSimulator: number;
    readonly booked: readonly { readonly bot: string; readonly fills: number }[];
  };
  /** Faults the simulator injected, by kind, plus the ones the soak injected into the bots. */
  readonly faults: FaultCounts & {
    readonly heartbeatsSuppressed: number;
    readonly heartbeatLapses: number;
    readonly tokenRotations: number;
    readonly crashes: number;
  };
  /** Each fault kind, injected how often, with what effect on the bots. */
  readonly effects: readonly FaultEffect[];
  readonly reconnects: number;
  readonly restarts: number;
  /** Attempts to start each bot (a start can fail under the faults, as a supervisor would retry it). */
  readonly startAttempts: readonly number[];
  readonly invariants: readonly InvariantResult[];
  readonly passed: boolean;
}

export interface RunSoakOptions extends SoakOptions {
  readonly logger?: Logger;
  /** A line at each step of the story. */
  readonly onProgress?: (line: string) => void;
}

const MAX_START_ATTEMPTS = 5;
const USERNAME = 'soak';

/**
 * The chaos soak: the simulator in-process (synthetic market, admin API, real HTTP and
 * WebSockets on loopback) on a sped-up clock, and the runtime quoting three strategies on
 * one account while faults run together — sockets dropped every few seconds, 503s and
 * server timeouts, answers that never come, added latency, bursts of 429, malformed feed
 * frames — plus a token rotation, a heartbeat lapse and a crash with a restart. Then the
 * invariants, checked against the simulator's own ledger (SimLedger), not the bots' books.
 * Everything waits on the simulator's time source; wall time enters only as its speed.
 */
export async function runSoak(o: RunSoakOptions): Promise<SoakReport> {
  const timeline = timelineOf(o);
  const seed = o.seed ?? 7;
  const faults: SoakFaults = { ...DEFAULT_FAULTS, ...o.faults };
  const limits: RiskLimits = { ...DEFAULT_LIMITS, ...o.limits };
  const sabotage = o.sabotage ?? {};
  // The invariants hold the account to `limits` whatever the bots' own gate is told.
  const botLimits: RiskLimits = sabotage.riskCapsOff
    ? { ...limits, maxGameLiability: Number.MAX_VALUE, maxTotalLiability: Number.MAX_VALUE }
    : limits;
  const heartbeatSeconds = o.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS;
  const log = o.logger ?? silentLogger();
  const progress = o.onProgress ?? (() => undefined);
  const time = realTime({ speed: timeline.speed });
  const clock = time.clock;

  const sim = await startSimulator({ seed, traders: true, admin: true, time, logger: componentLogger(log, 'sim') });
  const bots: SoakBot[] = [];
  try {
    const password = `soak-${seed}-password`;
    const made = createUser(sim.context, { username: USERNAME, password, balance: 10_000, commission: 0.01 });
    if (!made.ok) throw new SoakSetupError(made.error);
    const userId = made.value.id;
    const ledger = new SimLedger(sim.context.engine, userId);
    const admin = new AdminClient(sim.url);
    const strategies = soakStrategies();
    const startAttempts: number[] = [];

    const startBot = async (n: number, cancelUnknownOrdersAtStart: boolean): Promise<SoakBot> => {
      for (let attempt = 0; ; attempt++) {
        const bot = new SoakBot({
          name: `bot${n}`,
          // Fixed length and distinct per bot and attempt: client ids (runId + counter) never collide.
          runId: `s${n}${attempt}`,
          baseUrl: sim.url,
          credentials: async () => ({ username: USERNAME, password }),
          time,
          strategies,
          limits: botLimits,
          heartbeatSeconds,
          cancelUnknownOrdersAtStart,
          restTimeoutMs: o.restTimeoutMs ?? 2_000,
          speed: timeline.speed,
          logger: log,
        });
        if (sabotage.noHeartbeat) bot.control.suppressHeartbeats(true);
        try {
          await bot.start();
          startAttempts.push(attempt + 1);
          return bot;
        } catch (err) {
          // As a supervisor would: the half-started process is gone, start another.
          await bot.crash();
          log.warn(
            { err, bot: bot.name, attempt: attempt + 1 },
            'bot failed to start under the faults; starting it again',
          );
          if (attempt + 1 >= MAX_START_ATTEMPTS)
            throw new SoakSetupError(`bot${n} did not start in ${MAX_START_ATTEMPTS} attempts`, { cause: err });
          await sleep(1_000 * timeline.speed, time.scheduler);
        }
      }
    };

    const t0 = clock.now();
    const at = (ms: number) => sleep(Math.max(0, t0 + ms - clock.now()), time.scheduler);
    const wall = (ms: number) => `${(ms / timeline.speed / 1000).toFixed(1)}s`;

    progress(`simulator ${sim.url} at ${timeline.speed}x, seed ${seed}; starting bot1`);
    const bot1 = await startBot(1, false);
    bots.push(bot1);

    await at(timeline.faultsOnAt);
    progress(
      `${wall(clock.now() - t0)}: faults on (sockets dropped every ${faults.dropSocketsEveryWallMs} ms, ` +
        `${faults.restErrorRate * 100}% 503/timeout, ${faults.restHangRate * 100}% unanswered, ` +
        `+${faults.restLatencyMs} ms, ${faults.malformedFeedRate * 100}% malformed frames, ` +
        `${faults.rateLimitBurst}×429 every ${faults.burstEveryWallMs} ms)`,
    );
    await admin.setFaults({
      dropSocketsEveryMs: Math.round(faults.dropSocketsEveryWallMs * timeline.speed),
      restErrorRate: faults.restErrorRate,
      restHangRate: faults.restHangRate,
      restLatencyMs: faults.restLatencyMs,
      malformedFeedRate: faults.malformedFeedRate,
    });
    let bursting = true;
    const bursts = (async () => {
      while (bursting) {
        await admin.setFaults({ rateLimitBurst: faults.rateLimitBurst });
        await sleep(faults.burstEveryWallMs * timeline.speed, time.scheduler);
      }
    })();

    await at(timeline.tokenExpiryAt);
    const expired = await admin.expireTokens(userId);
    progress(`${wall(clock.now() - t0)}: token rotation (${expired} tokens of the account expired)`);

    // Every drop halts the bot, which pulls its quotes until the feeds are back: the lapse
    // and the crash are timed from a drop, so each meets the bot quoting (see DEFAULT_FAULTS).
    const dropEveryMs = faults.dropSocketsEveryWallMs * timeline.speed;
    const afterNextDrop = async (ms: number): Promise<void> => {
      const seen = sim.context.injected.socketDrops;
      const until = clock.now() + dropEveryMs * 1.5;
      while (dropEveryMs > 0 && sim.context.injected.socketDrops === seen && clock.now() < until)
        await sleep(1_000, time.scheduler);
      await sleep(ms, time.scheduler);
      // A loaded machine may still be resyncing after the drop: the fault must meet orders
      // resting, or it has nothing to act on. Wait for some (bounded by one more period).
      const quoting = clock.now() + Math.max(dropEveryMs, 60_000);
      while (ledger.openOrders().length === 0 && clock.now() < quoting) await sleep(500, time.scheduler);
    };

    await at(timeline.lapseAt);
    await afterNextDrop(30_000);
    const armedBefore = heartbeatFor(sim.context).isArmed(userId);
    progress(
      `${wall(clock.now() - t0)}: heartbeat lapse: bot1 stops heartbeating for ` +
        `${timeline.lapseForMs / 1000}s of exchange time (timeout ${heartbeatSeconds}s; switch armed: ${armedBefore ? 'yes' : 'no'})`,
    );
    const lapseFrom = clock.now();
    // What the bot held each order as when the switch cancelled it: what it had to notice.
    const atSwitch = new Map<string, number>();
    const watchSwitch = sim.context.engine.onEvent((e) => {
      if (e.kind !== 'orderCancelled' || e.order.userId !== userId || e.order.closeReason !== 'heartbeat') return;
      const status = bot1.runtime.own.byOrderID(e.order.id)?.status ?? 'not in its book';
      atSwitch.set(status, (atSwitch.get(status) ?? 0) + 1);
    });
    bot1.control.suppressHeartbeats(true);
    await sleep(timeline.lapseForMs, time.scheduler);
    if (!sabotage.noHeartbeat) bot1.control.suppressHeartbeats(false);
    const lapseTo = clock.now();
    watchSwitch();
    const lapseCancels = ledger.heartbeatCancels.filter((c) => c.at >= lapseFrom && c.at <= lapseTo);
    progress(
      `${wall(lapseTo - t0)}: lapse over: the switch cancelled ${lapseCancels.length} orders; bot1 reports ` +
        `${bot1.runtime.status().heartbeatCancels} cancelled by it`,
    );

    await at(timeline.restartAt);
    await afterNextDrop(dropEveryMs / 2);
    // The restart is checked on what it finds, so it must read the account before the
    // exchange's switch cancels what the crash left: the crash comes just after a heartbeat
    // landed, so the second bot has the switch's whole timeout to start in, not what was
    // left of it (a loaded machine took 205 s of exchange time to start it, past a deadline
    // that a heartbeat 35 s before the crash had set).
    const heartbeatSwitch = heartbeatFor(sim.context);
    const deadlineBefore = heartbeatSwitch.deadline(userId);
    const beatBy = clock.now() + heartbeatSeconds * 1_000;
    while (heartbeatSwitch.deadline(userId) === deadlineBefore && clock.now() < beatBy)
      await sleep(1_000, time.scheduler);
    const crashedAt = clock.now();
    const bot1Live = new Set(bot1.runtime.own.liveOrders().map((x) => x.orderID));
    const lapse: LapseEvidence = {
      armedBefore,
      cancelled: lapseCancels,
      stillLive: lapseCancels.filter((c) => bot1Live.has(c.orderID)).map((c) => c.orderID),
      botReported: bot1.runtime.status().heartbeatCancels,
      botHeld: Object.fromEntries(atSwitch),
      placedAfter: [...ledger.orders.values()].filter((x) => x.placedAt > lapseTo && x.placedAt < crashedAt).length,
    };
    const openAtCrash = ledger.openOrders().length;
    progress(
      `${wall(crashedAt - t0)}: bot1 crashes (no cancels; ${openAtCrash} orders open at the simulator); bot2 starts on the same account`,
    );
    await bot1.crash();
    // The restart is checked on what it finds, so it must read bot1's orders before the
    // exchange's switch (one heartbeat timeout after bot1's last) cancels them. A start that
    // fails on a 503 and is retried can take longer than that on a loaded machine, leaving
    // nothing to adopt; so the REST errors pause while bot2 starts. Drops, malformed frames
    // and 429 bursts go on, and bot1 started under none of them.
    await admin.setFaults({ restErrorRate: 0, restHangRate: 0 });
    const bot2 = await startBot(2, o.cancelUnknownOrdersAtStart ?? false);
    const readAt = clock.now();
    const atCrash = {
      openAtSimulator: openAtCrash,
      readAfterMs: readAt - crashedAt,
      switchCancelledBeforeRead: ledger.heartbeatCancels.filter((c) => c.at >= crashedAt && c.at <= readAt).length,
    };
    await admin.setFaults({ restErrorRate: faults.restErrorRate, restHangRate: faults.restHangRate });
    bots.push(bot2);
    const found = (bot2.control.startup.unmatched ?? []).map((u) => ({
      id: u.id,
      userReference: u.userReference ?? null,
    }));
    // Adopted: in the new bot's book as live (resting, or already on its way out through a
    // cancel), unless the exchange itself closed it meanwhile. Known but closed by the bot's
    // own mistake is not adopted: the order would rest unmanaged.
    const adopted = new Set(
      found
        .filter((u) => {
          const mine = bot2.runtime.own.byOrderID(u.id);
          return mine !== undefined && (isLive(mine) || ledger.orders.get(u.id)?.status !== 'open');
        })
        .map((u) => u.id),
    );
    progress(`${wall(clock.now() - t0)}: bot2 running: found ${found.length} open orders, adopted ${adopted.size}`);

    await at(timeline.faultsOffAt);
    bursting = false;
    await admin.setFaults({
      dropSocketsEveryMs: 0,
      restErrorRate: 0,
      restHangRate: 0,
      restLatencyMs: 0,
      malformedFeedRate: 0,
      rateLimitBurst: 0,
    });
    await bursts;
    progress(`${wall(clock.now() - t0)}: faults off; quiet tail`);

    await at(timeline.totalMs);
    const bot1Refs = (ref: string | null) => decodeReference(ref)?.clientId.startsWith(`s1`) === true;
    const foundIds = new Set(found.map((f) => f.id));
    const openAtCheck = ledger.openOrders();
    const openAtShutdown = new Set(openAtCheck.map((x) => x.id));
    const inBot2 = (x: { readonly id: string; readonly userReference: string | null }) =>
      bot2.runtime.own.byOrderID(x.id) ?? (x.userReference ? bot2.runtime.own.byReference(x.userReference) : undefined);
    const late = [...ledger.orders.values()]
      .filter((x) => x.placedAt >= crashedAt && bot1Refs(x.userReference) && !foundIds.has(x.id))
      .map((x) => {
        const mine = inBot2(x);
        return {
          id: x.id,
          userReference: x.userReference,
          known: mine !== undefined && (isLive(mine) || !openAtShutdown.has(x.id)),
          openAtShutdown: openAtShutdown.has(x.id),
        };
      });
    const unmanaged = openAtCheck.filter((x) => {
      const mine = inBot2(x);
      return mine === undefined || !isLive(mine);
    });
    progress(`${wall(clock.now() - t0)}: final shutdown of bot2`);
    await bot2.stop(10_000 * timeline.speed);
    // A crossing order on a live game waits out its league's delay at the exchange: let any
    // such work land before counting what is left open.
    await sleep(12_000, time.scheduler);
    const finalOpen = ledger.openOrders();
    const cancelled = new Set(
      [...ledger.orders.values()]
        .filter((x) => foundIds.has(x.id) && x.status === 'cancelled' && x.closeReason === 'user')
        .map((x) => x.id),
    );
    const restartMode = o.cancelUnknownOrdersAtStart === true ? 'cancel' : 'adopt';
    const restart: RestartEvidence = { mode: restartMode, found, adopted, cancelled, late, atCrash };
    const { injected } = await admin.faults();
    ledger.close();

    const sum = (f: (b: SoakBot) => number) => bots.reduce((n, b) => n + f(b), 0);
    const restFaultsSeen = sum((b) => b.exchange.rest.stats.retries + b.exchange.rest.stats.failures);
    const tokenRotations = sum((b) => b.exchange.rest.session.stats.rotations);
    // 503s, server timeouts and unanswered calls all end as a retry or a failed call at the bot.
    const effects: FaultEffect[] = [
      {
        kind: 'socket drops',
        injected: injected.socketDrops,
        effect: sum((b) => b.reconnects()),
        effectName: 'reconnects',
      },
      {
        kind: '503 at once',
        injected: injected.rest503,
        effect: restFaultsSeen,
        effectName: 'REST calls retried or failed',
      },
      {
        kind: '503 after timeout',
        injected: injected.restTimeout503,
        effect: restFaultsSeen,
        effectName: 'REST calls retried or failed',
      },
      {
        kind: 'unanswered calls',
        injected: injected.restHangs,
        effect: restFaultsSeen,
        effectName: 'REST calls retried or failed',
      },
      {
        kind: '429 bursts',
        injected: injected.rateLimited429,
        effect: sum((b) => b.exchange.rest.stats.rateLimited),
        effectName: '429s seen',
      },
      {
        kind: 'malformed frames',
        injected: injected.malformedFrames,
        effect: sum((b) => b.exchange.priceFeed.stats.malformed + b.exchange.userFeed.stats.malformed),
        effectName: 'frames skipped as malformed',
      },
      { kind: 'token expiry', injected: injected.tokensExpired, effect: tokenRotations, effectName: 'token rotations' },
      {
        kind: 'heartbeat lapse',
        injected: bot1.control.suppressedHeartbeats(),
        effect: lapseCancels.length,
        effectName: 'orders the switch cancelled',
      },
      {
        kind: 'crash',
        injected: 1,
        effect: restartMode === 'adopt' ? adopted.size : cancelled.size,
        effectName: restartMode === 'adopt' ? 'orders the restart adopted' : 'orders the restart cancelled',
      },
    ];

    const bot2Ledger: BotLedger = { name: bot2.name, own: bot2.runtime.own, crashedAt: null };
    const invariants = [
      noDoublePlace(ledger),
      everyFillOnce(ledger, [{ name: bot1.name, own: bot1.runtime.own, crashedAt }, bot2Ledger], {
        bot: bot2Ledger,
        startedAt: bot2.startedAt ?? crashedAt,
        bets: bot2.control.startup.bets ?? [],
      }),
      projectedWithinCaps(ledger.exposure.samples, limits),
      noOpenOrdersLeft(ledger.orders.size, finalOpen),
      openOrdersManaged(openAtShutdown.size, unmanaged),
      restartLeftNoOrphans(restart),
      lapseNoticed(lapse),
      faultsHadEffect(effects),
    ];
    const stats = bots.map((b) => b.runtime.orders.stats);
    return {
      timeline,
      seed,
      limits,
      orders: {
        atSimulator: ledger.orders.size,
        placesSent: stats.reduce((s, x) => s + x.placesSent, 0),
        cancelsSent: stats.reduce((s, x) => s + x.cancelsSent, 0),
        unknownOutcomes: stats.reduce((s, x) => s + x.unknown, 0),
      },
      fills: {
        atSimulator: ledger.fills.length,
        booked: bots.map((b) => ({ bot: b.name, fills: [...b.runtime.own.allFills()].length })),
      },
      faults: {
        ...injected,
        heartbeatsSuppressed: bot1.control.suppressedHeartbeats(),
        heartbeatLapses: lapseCancels.length > 0 ? 1 : 0,
        tokenRotations,
        crashes: 1,
      },
      effects,
      reconnects: bots.reduce((s, b) => s + b.reconnects(), 0),
      restarts: 1,
      startAttempts,
      invariants,
      passed: invariants.every(passed),
    };
  } finally {
    // On the way out after a failure, whatever still runs must not keep the process alive.
    for (const b of bots) if (!b.crashed) await b.crash();
    await closeSim(sim, time);
  }
}

async function closeSim(sim: Simulator, time: TimeSource): Promise<void> {
  await Promise.race([sim.close(), sleep(60_000 * 5, time.scheduler)]);
}
