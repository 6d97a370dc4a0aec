import type { CredentialsProvider } from '../../src/exchange/auth/credentials.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import type { TimeSource } from '../../src/shared/time.ts';
import { parseScenario } from '../../src/sim/market/scenario.ts';
import { createUser } from '../../src/sim/ops/admin-ops.ts';
import { startSimulator, type Simulator } from '../../src/sim/server.ts';
import { memoryScenario } from './scenario.ts';

export interface MarketOptions {
  readonly games: number;
  readonly seed: number;
  /** The paper account's balance and taker commission. */
  readonly balance: number;
  readonly commission: number;
}

export interface Market {
  readonly sim: Simulator;
  readonly credentials: CredentialsProvider;
  readonly username: string;
  readonly password: string;
}

/** The simulator with the memory run's synthetic market (`memoryScenario`) on `time`, and a paper account on it. */
export async function startMarket(
  o: MarketOptions & { readonly time: TimeSource; readonly admin?: boolean },
): Promise<Market> {
  const scenario = parseScenario(memoryScenario(o.games), 'memory scenario');
  const sim = await startSimulator({
    seed: o.seed,
    traders: true,
    time: o.time,
    logger: silentLogger(),
    scenario,
    admin: o.admin ?? false,
  });
  const username = 'memory';
  const password = 'memory-bench-password';
  const made = createUser(sim.context, { username, password, balance: o.balance, commission: o.commission });
  if (!made.ok) {
    await sim.close();
    throw new Error(made.error);
  }
  return { sim, username, password, credentials: async () => ({ username, password }) };
}
