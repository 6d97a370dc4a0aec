import { chmod, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthSession } from '../../src/exchange/auth/session.ts';
import { FileTokenStore } from '../../src/exchange/auth/token-store.ts';
import { CredentialsError } from '../../src/exchange/errors.ts';
import { ExchangeRestClient } from '../../src/exchange/rest/rest-client.ts';
import { capturedLogger } from '../exchange/support-rest.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

/**
 * The token file (`--token-file`, `venue.tokenFile`): readable by its owner only, whatever
 * the umask and whatever was there before, replaced atomically, never echoed when damaged.
 * (test/exchange/rest-client.test.ts checks the mode once, after a first login.)
 */

const mode = async (path: string) => (await stat(path)).mode & 0o777;
const TOKEN = 'a1b2c3d4'.repeat(32);

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('FileTokenStore: mode 0600', () => {
  it('creates the file 0600 (and its directory) even under a umask that grants everything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-tok-'));
    const previous = process.umask(0);
    try {
      const store = new FileTokenStore(join(dir, 'deep', 'er', 'token'));
      await store.save(TOKEN);
      expect(await mode(store.path)).toBe(0o600);
      expect((await readFile(store.path, 'utf8')).trim()).toBe(TOKEN);
    } finally {
      process.umask(previous);
    }
  });

  it('replaces a world-readable file with a 0600 one, and a stale 0644 temp file does not leak its mode', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-tok-'));
    const path = join(dir, 'token');
    await writeFile(path, 'old-token\n');
    await chmod(path, 0o644);
    await writeFile(`${path}.${process.pid}.tmp`, 'stale\n');
    await chmod(`${path}.${process.pid}.tmp`, 0o666);
    const store = new FileTokenStore(path);
    await store.save(TOKEN);
    expect(await mode(path)).toBe(0o600);
    expect((await readFile(path, 'utf8')).trim()).toBe(TOKEN);
    // The token never went into the stale file, and no temp file of this save is left.
    expect(await readFile(`${path}.${process.pid}.tmp`, 'utf8')).toBe('stale\n');
    expect((await readdir(dir)).sort()).toEqual(['token', `token.${process.pid}.tmp`]);
    // A rotation writes it again, still 0600.
    await store.save(TOKEN.replace('a', 'f'));
    expect(await mode(path)).toBe(0o600);
  });

  it('saves made at once land in order: the file ends with the newest token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-tok-'));
    const store = new FileTokenStore(join(dir, 'token'));
    const tokens = Array.from({ length: 8 }, (_, i) => `${i}`.repeat(64));
    await Promise.all(tokens.map((tok) => store.save(tok)));
    expect((await readFile(store.path, 'utf8')).trim()).toBe(tokens[7]);
    expect(await readdir(dir)).toEqual(['token']);
    expect(await mode(store.path)).toBe(0o600);
  });

  it('every login and rotation of a session lands in a 0600 file', async () => {
    t = await startTestSim();
    const user = await t.user('tokfile');
    const dir = await mkdtemp(join(tmpdir(), 'ls-tok-'));
    const store = new FileTokenStore(join(dir, 'token'));
    const c = new ExchangeRestClient({
      baseUrl: t.url,
      credentials: async () => ({ username: user.username, password: user.password }),
      tokenStore: store,
    });
    try {
      await c.getMe();
      await t.http('POST', '/user/logout', { token: await c.session.token() });
      await c.getMe(); // 401: a second login, persisted
      expect(c.session.stats.logins).toBe(2);
      // The save is not awaited by the request that rotated the token: wait for it to land.
      const want = await c.session.token();
      await vi.waitFor(async () => expect((await readFile(store.path, 'utf8')).trim()).toBe(want), {
        timeout: 5_000,
        interval: 10,
      });
      expect(await mode(store.path)).toBe(0o600);
    } finally {
      await c.close();
    }
  });
});

describe('FileTokenStore: a damaged file', () => {
  // Regression: a token file holding something no Authorization header can carry (a control
  // character, a line break inside, binary garbage) was used as the token: every call then
  // failed inside the HTTP client before reaching the server, and no 401 ever came to
  // trigger a fresh login. It is now refused, unquoted, and the session logs in.
  it.each([`${TOKEN.slice(0, 40)}\n${TOKEN.slice(40)}`, `tok\u0000en`, '\u00ff\u00fe\u0001garbage', 'has a space'])(
    'is refused without being quoted, and the session logs in afresh (%j)',
    async (content) => {
      const dir = await mkdtemp(join(tmpdir(), 'ls-tok-'));
      const store = new FileTokenStore(join(dir, 'token'));
      await writeFile(store.path, content, { mode: 0o600 });
      const err = await store.load().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CredentialsError);
      expect((err as Error).message).not.toContain(content.trim());

      const { logger, lines } = capturedLogger('debug');
      const session = new AuthSession({
        login: async () => ({ token: TOKEN, userId: 'u', username: 'u' }),
        store,
        logger,
      });
      expect(await session.token()).toBe(TOKEN);
      expect(session.stats.logins).toBe(1);
      expect(lines.join('')).toMatch(/token store unreadable/);
      expect(lines.join('')).not.toContain(content.trim());
      // The save is not awaited by the login: wait for it to land rather than for a fixed time.
      await vi.waitFor(async () => expect((await readFile(store.path, 'utf8')).trim()).toBe(TOKEN), {
        timeout: 5_000,
        interval: 10,
      });
      expect(await mode(store.path)).toBe(0o600);
    },
  );

  it('a token the exchange rotates in that no header can carry is ignored', () => {
    const { logger } = capturedLogger('debug');
    const session = new AuthSession({ login: async () => ({ token: TOKEN, userId: 'u', username: 'u' }), logger });
    session.rotated('bad\u0000token');
    session.rotated('');
    expect(session.hasToken).toBe(false);
    expect(session.stats.rotations).toBe(0);
  });
});
