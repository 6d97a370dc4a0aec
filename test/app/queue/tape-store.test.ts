import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TapeIntegrityError, TapeStoreError } from '../../../src/app/queue/errors.ts';
import { LocalTapeCache, PathTapeStore, RedisTapeStore, tapeHash } from '../../../src/app/queue/tape-store.ts';
import { redisSkipReason, startTestRedis, type TestRedis } from '../../support/redis.ts';

const skip = redisSkipReason();
if (skip !== null) console.warn(skip);

const bytes = (n: number, seed = 1) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251));

describe.skipIf(skip !== null)('tape stores against a real Redis', () => {
  let redis: TestRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await startTestRedis();
    client = new Redis({ port: redis.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.close();
  });

  it('stores a tape once in chunks and gives back the same bytes', async () => {
    const store = new RedisTapeStore(client, { prefix: 't1', chunkBytes: 1000 });
    const tape = bytes(4_500);
    const hash = await store.put(tape);
    expect(hash).toBe(tapeHash(tape));
    expect(await client.keys(`t1:tape:${hash}:*`)).toHaveLength(6);
    expect(await store.put(tape)).toBe(hash);
    expect(await client.keys(`t1:tape:${hash}:*`)).toHaveLength(6);
    expect((await store.get(hash)).equals(tape)).toBe(true);
    expect(await client.ttl(`t1:tape:${hash}:meta`)).toBeGreaterThan(0);
  });

  it('detects a corrupt chunk and never hands it out', async () => {
    const store = new RedisTapeStore(client, { prefix: 't2', chunkBytes: 1000 });
    const hash = await store.put(bytes(2_500, 7));
    await client.set(`t2:tape:${hash}:1`, Buffer.alloc(1000, 0));
    await expect(store.get(hash)).rejects.toBeInstanceOf(TapeIntegrityError);
    await client.del(`t2:tape:${hash}:2`);
    await expect(store.get(hash)).rejects.toThrow(/chunk 2 of 3 is missing/);
    await expect(store.get('0'.repeat(64))).rejects.toBeInstanceOf(TapeStoreError);
  });

  it('refuses a tape over its limit, pointing at --queue-tape-dir', async () => {
    const store = new RedisTapeStore(client, { prefix: 't3', maxBytes: 1_000 });
    await expect(store.put(bytes(1_001))).rejects.toThrow(/--queue-tape-dir/);
  });

  it('a path store and a worker cache check the hash; a corrupt cached copy is fetched again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-tapes-'));
    const store = new PathTapeStore(join(dir, 'shared'));
    const tape = bytes(3_000, 3);
    const hash = await store.put(tape);
    expect((await store.get(hash)).equals(tape)).toBe(true);
    const cache = new LocalTapeCache(join(dir, 'cache'));
    expect(await cache.ensure(hash, store)).toEqual({ path: cache.pathOf(hash), fetched: true });
    await writeFile(cache.pathOf(hash), 'garbage');
    const again = new LocalTapeCache(join(dir, 'cache'));
    expect((await again.ensure(hash, store)).fetched).toBe(true);
    expect((await readFile(cache.pathOf(hash))).equals(tape)).toBe(true);
    await writeFile(join(dir, 'shared', `${hash}.tape`), 'tampered');
    await expect(store.get(hash)).rejects.toBeInstanceOf(TapeIntegrityError);
  });
});
