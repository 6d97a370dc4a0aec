import { asyncScheduler } from 'rxjs';
import { afterEach } from 'vitest';
import { z } from 'zod';
import { ExchangeClient } from '../../src/exchange/client.ts';
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime.ts';
import type { StrategyInstance } from '../../src/runtime/strategy-instance.ts';
import type { Venue } from '../../src/runtime/venue.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { systemClock } from '../../src/shared/clock.ts';
import type { QuoteIntent, StrategyModule } from '../../src/strategy/types.ts';
import type { StrategyView } from '../../src/market-model/types.ts';
import type { TestSim } from '../support/sim.ts';
import { FAST } from '../exchange/support-socket.ts';

/** A strategy for tests: whatever `intents(view)` returns (tests change it between looks: it reads outside its view). */
export function scripted(
  intents: (view: StrategyView) => readonly QuoteIntent[],
): StrategyModule<Record<string, never>> {
  return {
    name: 'scripted',
    description: 'test strategy',
    params: z.object({}).strict() as z.ZodType<Record<string, never>>,
    quote: (v) => intents(v),
    readsOutsideView: true,
  };
}

export function instance(module: StrategyModule<unknown>, overrides: Partial<StrategyInstance> = {}): StrategyInstance {
  return {
    id: 'test',
    module,
    params: {},
    interest: { leagues: [], sports: [], gameIDs: [], marketTypes: [] },
    live: { kind: 'pull' },
    throttleMs: 0,
    ...overrides,
  };
}

/** A Runtime with the tests' usual options (REST gateway, roomy limits, postArb on, silent, on the system clock); `overrides` win. */
export function testRuntime(
  exchange: Venue,
  strategies: StrategyInstance[],
  overrides: Partial<RuntimeOptions> = {},
): Runtime {
  return new Runtime({
    exchange,
    gateway: 'rest',
    strategies,
    limits: { maxGameLiability: 1_000, maxTotalLiability: 5_000, maxOrderSize: 500, maxOrdersPerGame: 20 },
    usePostArb: true,
    heartbeatSeconds: 20,
    cancelUnknownOrdersAtStart: false,
    clock: systemClock,
    scheduler: asyncScheduler,
    logger: silentLogger(),
    runId: 'r',
    ...overrides,
  });
}

export type SimUser = Awaited<ReturnType<TestSim['user']>>;

/** The tests' exchange client for a simulator user: fast sockets, a short place-recovery grace. */
export function simClient(t: TestSim, user: SimUser): ExchangeClient {
  return new ExchangeClient({
    baseUrl: t.url,
    credentials: async () => ({ username: user.username, password: user.password }),
    sockets: FAST,
    rest: { runId: user.username, placeRecoveryGraceMs: 200 },
  });
}

/** The ids the runtime's model lists on any side of a game. */
export function listedIds(runtime: Runtime, gameID: string): string[] {
  const g = runtime.market.game(gameID);
  return g ? [...g.books.values()].flatMap((b) => b.sides.flatMap((s) => s.offers.map((o) => o.id))) : [];
}

/** A started runtime on the simulator, for a new user of that name (with `balance`) or for a user the test made already. */
export async function startRuntime(
  t: TestSim,
  account: string | SimUser,
  strategies: StrategyInstance[],
  overrides: Partial<RuntimeOptions> = {},
  balance = 100_000,
) {
  const user = typeof account === 'string' ? await t.user(account, { balance }) : account;
  const exchange = simClient(t, user);
  const runtime = testRuntime(exchange, strategies, { tickMs: 100, ...overrides });
  await runtime.start();
  return {
    runtime,
    exchange,
    user,
    async close() {
      await runtime.stop(3_000);
      await exchange.close();
    },
  };
}

/**
 * Closes after each test what it opened: the closers it added, newest first, then the
 * simulator `current` gives, which `clear` then forgets. The closers are returned.
 */
export function closeAfterEach(current: () => TestSim | undefined, clear: () => void): (() => Promise<unknown>)[] {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
    await current()?.close();
    clear();
  });
  return closers;
}
