import type { Logger } from 'pino';
import type { PaperConfig, VenueConfig } from '../config/types.ts';
import { componentLogger } from '../config/logging.ts';
import { resolveCredentials, type CredentialsProvider } from '../exchange/auth/credentials.ts';
import { FileTokenStore } from '../exchange/auth/token-store.ts';
import { ExchangeClient, type ExchangeClientOptions } from '../exchange/client.ts';
import { randomRunId } from '../exchange/orders/user-reference.ts';
import { loadScenarioFile } from '../sim/market/scenario.ts';
import { createUser } from '../sim/ops/admin-ops.ts';
import { startSimulator, type Simulator } from '../sim/server.ts';
import type { TimeSource } from '../shared/time.ts';
import { PaperAccountError } from './errors.ts';

/** A simulator started in-process for a paper run or recording, with an account made for it. */
export interface PaperExchange {
  readonly sim: Simulator;
  readonly credentials: CredentialsProvider;
}

/** The config's `paper` simulator (synthetic market on) on `time`, and a fresh account `username` on it. */
export async function startPaperSimulator(
  paper: PaperConfig,
  o: { time: TimeSource; logger: Logger; username: string },
): Promise<PaperExchange> {
  const scenario = paper.scenario ? await loadScenarioFile(paper.scenario) : undefined;
  const sim = await startSimulator({
    seed: paper.seed,
    traders: true,
    time: o.time,
    logger: componentLogger(o.logger, 'sim'),
    ...(scenario ? { scenario } : {}),
  });
  const password = `${o.username}-${randomRunId(Math.random)}`;
  const made = createUser(sim.context, {
    username: o.username,
    password,
    balance: paper.balance,
    commission: paper.commission,
  });
  if (!made.ok) {
    await sim.close();
    throw new PaperAccountError(`paper account ${o.username}: ${made.error}`);
  }
  return { sim, credentials: async () => ({ username: o.username, password }) };
}

/** The exchange client of a live venue: credentials from the environment or the configured file, token file if any. */
export function liveExchangeClient(
  venue: VenueConfig,
  o: { logger: Logger; sockets?: ExchangeClientOptions['sockets']; userFeedCursor?: string | null },
): ExchangeClient {
  return new ExchangeClient({
    urls: venue.urls,
    credentials: resolveCredentials({ file: venue.credentials.file, onWarning: (m) => o.logger.warn(m) }),
    tokenStore: venue.tokenFile ? new FileTokenStore(venue.tokenFile) : null,
    logger: componentLogger(o.logger, 'exchange'),
    ...(o.sockets ? { sockets: o.sockets } : {}),
    userFeedCursor: o.userFeedCursor ?? null,
  });
}
