import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueueConfigError } from '../../../src/app/queue/errors.ts';
import { parseRedisAddress, redisConnectionOptions } from '../../../src/app/queue/redis-address.ts';

describe('parseRedisAddress', () => {
  it('reads host, port and database, and shows no credentials', async () => {
    const a = await parseRedisAddress('redis://10.0.0.5:6380/3', { env: {} });
    expect(a).toMatchObject({
      host: '10.0.0.5',
      port: 6380,
      db: 3,
      tls: false,
      password: undefined,
      display: 'redis://10.0.0.5:6380/3',
    });
    expect((await parseRedisAddress('rediss://cache.internal', { env: {} })).port).toBe(6379);
    expect((await parseRedisAddress('rediss://cache.internal', { env: {} })).tls).toBe(true);
  });

  it('takes the password from the environment, never shows it', async () => {
    const a = await parseRedisAddress('rediss://alice@cache.internal:6380', {
      env: { LINESMITH_REDIS_PASSWORD: 's3cret' },
    });
    expect(a.password).toBe('s3cret');
    expect(a.username).toBe('alice');
    expect(a.display).not.toContain('s3cret');
    expect(redisConnectionOptions(a)).toMatchObject({
      password: 's3cret',
      username: 'alice',
      tls: { servername: 'cache.internal' },
      maxRetriesPerRequest: null,
    });
  });

  it('refuses a password in the URL, naming where it belongs', async () => {
    const err = await parseRedisAddress('redis://:hunter2@127.0.0.1:6379', { env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueueConfigError);
    expect((err as Error).message).toMatch(/LINESMITH_REDIS_PASSWORD/);
    expect((err as Error).message).not.toContain('hunter2');
  });

  it.each([
    ['not a url', /not a URL/],
    ['http://127.0.0.1:6379', /scheme http: is not supported/],
    ['redis://127.0.0.1:6379/16', /0 to 15/],
    ['redis://127.0.0.1:6379/x', /0 to 15/],
  ])('refuses %s', async (text, message) => {
    await expect(parseRedisAddress(text, { env: {} })).rejects.toThrow(message);
  });

  it('reads a credentials file of mode 600 and refuses one others can read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-redis-cred-'));
    const path = join(dir, 'redis.yaml');
    await writeFile(path, 'username: sweeper\npassword: from-file\n', { mode: 0o600 });
    await chmod(path, 0o600);
    const a = await parseRedisAddress('redis://127.0.0.1:6379', {
      env: { LINESMITH_REDIS_PASSWORD: 'from-env' },
      credentialsFile: path,
    });
    expect(a).toMatchObject({ password: 'from-file', username: 'sweeper' });
    await chmod(path, 0o644);
    await expect(parseRedisAddress('redis://127.0.0.1:6379', { env: {}, credentialsFile: path })).rejects.toThrow(
      /readable by others.*chmod 600/,
    );
    await expect(
      parseRedisAddress('redis://127.0.0.1:6379', { env: {}, credentialsFile: join(dir, 'missing.yaml') }),
    ).rejects.toThrow(/no such file/);
  });

  it('backs off from 200 ms to at most 5 s between reconnects, never giving up', async () => {
    const seen: number[] = [];
    const o = redisConnectionOptions(await parseRedisAddress('redis://127.0.0.1:1', { env: {} }), (_, d) =>
      seen.push(d),
    );
    expect([1, 2, 3, 6, 50].map((n) => o.retryStrategy(n))).toEqual([200, 400, 800, 5000, 5000]);
    expect(seen).toHaveLength(5);
  });
});
