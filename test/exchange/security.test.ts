import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentialsFromFile } from '../../src/exchange/auth/credentials.ts';
import { ExchangeRestClient } from '../../src/exchange/rest/rest-client.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { capturedLogger } from './support-rest.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PASSWORD = 'correct-horse-battery-staple-9431';

describe('secrets stay out of logs and errors', () => {
  it('never logs or reports the token or the password, through login, 401 re-login, rotation, 429 and failures', async () => {
    t = await startTestSim({ time: manualTime(Date.UTC(2026, 4, 1)) });
    await t.user('sec', { password: PASSWORD });
    const { logger, lines } = capturedLogger('trace');
    const c = new ExchangeRestClient({
      baseUrl: t.url,
      credentials: async () => ({ username: 'sec', password: PASSWORD }),
      logger,
      backoff: { baseMs: 1, maxMs: 2, maxAttempts: 2 },
    });
    const tokens = new Set<string>();
    const errors: string[] = [];
    try {
      await c.getMe();
      tokens.add(await c.session.token());
      await t.http('POST', '/user/logout', { token: await c.session.token() });
      await c.getMe(); // 401, re-login
      tokens.add(await c.session.token());
      (t.sim.context.time as ManualTimeSource).advance(31 * 86_400_000);
      await c.getMe(); // rotation
      tokens.add(await c.session.token());
      await t.http('POST', '/admin/faults', { body: { rateLimitBurst: 1 } });
      await c.getLeagues(); // 429
      const down = new ExchangeRestClient({
        baseUrl: 'http://127.0.0.1:1',
        credentials: async () => ({ username: 'sec', password: PASSWORD }),
        logger,
        backoff: { baseMs: 1, maxMs: 2, maxAttempts: 2 },
      });
      await down.getMatchedBets().catch((e: Error) => errors.push(e.message, String(e.stack)));
      await down.close();
      // Logging a request-like object with secrets in it is redacted too.
      logger.info(
        { password: PASSWORD, token: [...tokens][0], headers: { authorization: `Bearer ${[...tokens][0]}` } },
        'careless call site',
      );
      const wrong = new ExchangeRestClient({
        baseUrl: t.url,
        credentials: async () => ({ username: 'sec', password: `${PASSWORD}-wrong` }),
        logger,
      });
      await wrong.getMe().catch((e: Error) => errors.push(e.message, String(e.stack)));
      await wrong.close();
    } finally {
      await c.close();
    }
    expect(tokens.size).toBe(3);
    expect(lines.length).toBeGreaterThan(5);
    expect(errors.length).toBe(4);
    const everything = [...lines, ...errors].join('\n');
    for (const tok of tokens) expect(everything).not.toContain(tok);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).toContain('[redacted]');
  });

  it('does not echo a malformed credentials file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-cred-'));
    const file = join(dir, 'creds.yaml');
    await writeFile(file, `username: x\npassword: [${PASSWORD}\n`, { mode: 0o600 });
    const err = await credentialsFromFile(file)().catch((e: Error) => e);
    expect((err as Error).message).toMatch(/not valid YAML/);
    expect((err as Error).message).not.toContain(PASSWORD);
    const warnings: string[] = [];
    await writeFile(file, `username: x\npassword: ${PASSWORD}\n`, { mode: 0o644 });
    const { chmod } = await import('node:fs/promises');
    await chmod(file, 0o644);
    expect(await credentialsFromFile(file, (m) => warnings.push(m))()).toEqual({ username: 'x', password: PASSWORD });
    expect(warnings[0]).toMatch(/readable by others/);
  });
});
