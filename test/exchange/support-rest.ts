import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/shared/logger.ts';
import { ExchangeRestClient, type RestClientOptions } from '../../src/exchange/rest/rest-client.ts';
import type { TestSim } from '../support/sim.ts';

/** A logger whose lines are kept, to assert on what was (and was not) logged. */
export function capturedLogger(level = 'debug'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level, destination: { write: (s: string) => sink.write(s) } }), lines };
}

/** A REST client logged in as a simulator user made for the test. */
export async function clientFor(
  t: TestSim,
  username: string,
  options: Partial<RestClientOptions> & { balance?: number } = {},
): Promise<{ client: ExchangeRestClient; user: { id: string; token: string; username: string; password: string } }> {
  const user = await t.user(username, options.balance !== undefined ? { balance: options.balance } : {});
  const client = new ExchangeRestClient({
    baseUrl: t.url,
    credentials: async () => ({ username: user.username, password: user.password }),
    runId: username,
    placeRecoveryGraceMs: 200,
    backoff: { baseMs: 5, maxMs: 40 },
    ...options,
  });
  return { client, user };
}
