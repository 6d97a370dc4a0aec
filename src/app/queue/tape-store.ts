import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { writeFileAtomic } from '../../shared/atomic-file.ts';
import { TapeIntegrityError, TapeStoreError } from './errors.ts';

/** sha256 of a tape's bytes, hex: the name it is stored and fetched under. */
export function tapeHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Where a sweep's tape waits for its workers: one copy per content hash, whoever stored it. */
export interface TapeStore {
  /** What a job names so a worker can reach the same store. */
  readonly ref: TapeStoreRef;
  /** Stores the bytes under their hash unless they are there already; answers the hash. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes stored under `hash`, checked against it. */
  get(hash: string): Promise<Buffer>;
}

export type TapeStoreRef = { readonly kind: 'redis' } | { readonly kind: 'path'; readonly dir: string };

export const DEFAULT_TAPE_CHUNK_BYTES = 4 * 1024 * 1024;
/** Redis holds tapes in memory: past this a sweep must use a shared path (`--queue-tape-dir`). */
export const DEFAULT_REDIS_TAPE_LIMIT_BYTES = 512 * 1024 * 1024;
/** A tape nobody asks for again is dropped from Redis after a week. */
const TAPE_TTL_SECONDS = 7 * 24 * 3600;
const HASH = /^[0-9a-f]{64}$/;

function checked(hash: string, bytes: Buffer): Buffer {
  const actual = tapeHash(bytes);
  if (actual !== hash)
    throw new TapeIntegrityError(
      `tape ${hash.slice(0, 12)}: the bytes fetched hash to ${actual.slice(0, 12)}; refusing to replay a corrupt tape`,
    );
  return bytes;
}

function checkHash(hash: string): void {
  if (!HASH.test(hash)) throw new TapeStoreError(`tape id ${JSON.stringify(hash)} is not a sha256`);
}

/**
 * Tapes in Redis, in chunks (a Redis value is best kept to a few MB): `…:<hash>:<i>` for
 * each chunk, then `…:<hash>:meta` written last, so a reader never sees half a tape as whole.
 */
export class RedisTapeStore implements TapeStore {
  readonly ref = { kind: 'redis' } as const;

  constructor(
    private readonly redis: Redis,
    private readonly options: {
      readonly prefix?: string;
      readonly chunkBytes?: number;
      readonly maxBytes?: number;
    } = {},
  ) {}

  #key(hash: string, part: string | number): string {
    return `${this.options.prefix ?? 'linesmith'}:tape:${hash}:${part}`;
  }

  async put(bytes: Uint8Array): Promise<string> {
    const hash = tapeHash(bytes);
    const limit = this.options.maxBytes ?? DEFAULT_REDIS_TAPE_LIMIT_BYTES;
    if (bytes.byteLength > limit) {
      throw new TapeStoreError(
        `the tape is ${(bytes.byteLength / 2 ** 20).toFixed(1)} MiB, over the ${(limit / 2 ** 20).toFixed(0)} ` +
          `MiB Redis holds; share it on a path every worker reads instead (--queue-tape-dir)`,
      );
    }
    const meta = this.#key(hash, 'meta');
    if ((await this.redis.exists(meta)) === 1) {
      await this.#touch(hash, Number(JSON.parse((await this.redis.get(meta)) ?? '{"chunks":0}').chunks));
      return hash;
    }
    const size = this.options.chunkBytes ?? DEFAULT_TAPE_CHUNK_BYTES;
    const chunks = Math.max(1, Math.ceil(bytes.byteLength / size));
    for (let i = 0; i < chunks; i++) {
      await this.redis.set(
        this.#key(hash, i),
        Buffer.from(bytes.buffer, bytes.byteOffset + i * size, Math.min(size, bytes.byteLength - i * size)),
        'EX',
        TAPE_TTL_SECONDS,
      );
    }
    await this.redis.set(meta, JSON.stringify({ size: bytes.byteLength, chunks }), 'EX', TAPE_TTL_SECONDS);
    return hash;
  }

  async #touch(hash: string, chunks: number): Promise<void> {
    const m = this.redis.multi();
    for (let i = 0; i < chunks; i++) m.expire(this.#key(hash, i), TAPE_TTL_SECONDS);
    m.expire(this.#key(hash, 'meta'), TAPE_TTL_SECONDS);
    await m.exec();
  }

  async get(hash: string): Promise<Buffer> {
    checkHash(hash);
    const metaText = await this.redis.get(this.#key(hash, 'meta'));
    if (metaText === null)
      throw new TapeStoreError(`tape ${hash.slice(0, 12)} is not in Redis (expired, or stored by another Redis)`);
    const meta = JSON.parse(metaText) as { size: number; chunks: number };
    const parts: Buffer[] = [];
    for (let i = 0; i < meta.chunks; i++) {
      const part = await this.redis.getBuffer(this.#key(hash, i));
      if (part === null) throw new TapeStoreError(`tape ${hash.slice(0, 12)}: chunk ${i} of ${meta.chunks} is missing`);
      parts.push(part);
    }
    return checked(hash, Buffer.concat(parts));
  }
}

/** Tapes as files named by their hash in a directory every worker can read (NFS, a shared disk). */
export class PathTapeStore implements TapeStore {
  readonly ref: TapeStoreRef;

  constructor(readonly dir: string) {
    this.ref = { kind: 'path', dir };
  }

  async put(bytes: Uint8Array): Promise<string> {
    const hash = tapeHash(bytes);
    await writeIfMissing(join(this.dir, `${hash}.tape`), bytes);
    return hash;
  }

  async get(hash: string): Promise<Buffer> {
    checkHash(hash);
    try {
      return checked(hash, await readFile(join(this.dir, `${hash}.tape`)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new TapeStoreError(`tape ${hash.slice(0, 12)} is not in ${this.dir}`);
      throw err;
    }
  }
}

/** Written whole or not at all (a temp file renamed), and only when the file there is not already these bytes. */
async function writeIfMissing(path: string, bytes: Uint8Array): Promise<void> {
  try {
    if (tapeHash(await readFile(path)) === tapeHash(bytes)) return;
  } catch {
    // Missing or unreadable: written below.
  }
  await writeFileAtomic(path, bytes, 0o644);
}

/**
 * A worker's local copy of the tapes it has run, by hash, so a machine fetches each tape
 * once. A cached file is checked against its hash before use; a bad one is fetched again.
 */
export class LocalTapeCache {
  /** Hashes whose file this process has checked: a tape is hashed once per process, not per job. */
  readonly #verified = new Set<string>();

  constructor(readonly dir: string) {}

  pathOf(hash: string): string {
    checkHash(hash);
    return join(this.dir, `${hash}.tape`);
  }

  /** The path of a verified local copy of `hash`, fetched from `store` when missing or bad. */
  async ensure(hash: string, store: TapeStore): Promise<{ path: string; fetched: boolean }> {
    const path = this.pathOf(hash);
    if (this.#verified.has(hash)) return { path, fetched: false };
    try {
      checked(hash, await readFile(path));
      this.#verified.add(hash);
      return { path, fetched: false };
    } catch {
      // Missing or corrupt: fetched and checked again.
    }
    const bytes = await store.get(hash);
    await writeIfMissing(path, bytes);
    this.#verified.add(hash);
    return { path, fetched: true };
  }
}
