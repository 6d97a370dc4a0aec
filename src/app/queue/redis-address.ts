import { readFile, stat } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { QueueConfigError } from './errors.ts';

/** Where the Redis of a distributed sweep is, and how to log in; never printed whole. */
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly tls: boolean;
  readonly username: string | undefined;
  readonly password: string | undefined;
  /** `redis://host:port/db` with no credentials: what messages and logs show. */
  readonly display: string;
}

/** Where a password may come from. A URL that carries one is refused: it would sit in shell history and process lists. */
export interface RedisCredentialSources {
  readonly env?: NodeJS.ProcessEnv;
  /** A YAML or JSON file with `password` (and optionally `username`), readable by its owner only. */
  readonly credentialsFile?: string;
}

export const REDIS_PASSWORD_ENV = 'LINESMITH_REDIS_PASSWORD';
export const REDIS_USERNAME_ENV = 'LINESMITH_REDIS_USERNAME';

/**
 * `redis://HOST:PORT[/DB]` or `rediss://…` (TLS). The password comes from
 * LINESMITH_REDIS_PASSWORD or a credentials file, never from the URL.
 */
export async function parseRedisAddress(text: string, sources: RedisCredentialSources = {}): Promise<RedisAddress> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new QueueConfigError(
      `--queue ${JSON.stringify(text)}: not a URL; expected redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB]`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new QueueConfigError(`--queue: scheme ${url.protocol} is not supported; expected redis:// or rediss://`);
  }
  if (url.password !== '') {
    throw new QueueConfigError(
      `--queue: the URL carries a password; put it in ${REDIS_PASSWORD_ENV} or a credentials file ` +
        `(--queue-credentials) instead, so it stays out of shell history and logs`,
    );
  }
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isSafeInteger(db) || db < 0 || db > 15 || !/^\d*$/.test(dbText)) {
    throw new QueueConfigError(`--queue: database ${JSON.stringify(dbText)} must be a whole number from 0 to 15`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw new QueueConfigError('--queue: the URL names no host');
  const env = sources.env ?? process.env;
  let username = url.username !== '' ? decodeURIComponent(url.username) : env[REDIS_USERNAME_ENV];
  let password = env[REDIS_PASSWORD_ENV];
  if (sources.credentialsFile !== undefined) {
    const fromFile = await readCredentials(sources.credentialsFile);
    password = fromFile.password;
    username = fromFile.username ?? username;
  }
  return {
    host,
    port,
    db,
    tls: url.protocol === 'rediss:',
    username: username === '' ? undefined : username,
    password: password === '' ? undefined : password,
    display: `${url.protocol}//${url.host}/${db}`,
  };
}

async function readCredentials(path: string): Promise<{ password: string; username?: string }> {
  let text: string;
  try {
    const info = await stat(path);
    // Group or world access to a secret is refused, as ssh refuses a readable key.
    if ((info.mode & 0o077) !== 0)
      throw new QueueConfigError(
        `--queue-credentials ${path}: readable by others (mode ${(info.mode & 0o777).toString(8)}); chmod 600 it`,
      );
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (err instanceof QueueConfigError) throw err;
    throw new QueueConfigError(
      `--queue-credentials ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  const doc: unknown = parseYaml(text);
  const o = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>) : {};
  if (typeof o.password !== 'string' || o.password === '')
    throw new QueueConfigError(`--queue-credentials ${path}: expected a non-empty "password"`);
  if (o.username !== undefined && typeof o.username !== 'string')
    throw new QueueConfigError(`--queue-credentials ${path}: "username" must be text`);
  return { password: o.password, ...(typeof o.username === 'string' ? { username: o.username } : {}) };
}

/**
 * ioredis options for an address. `maxRetriesPerRequest: null` is what BullMQ's blocking
 * connections need; the retry strategy backs off from 200 ms to 5 s, so an outage is waited
 * out instead of ending the process.
 */
export function redisConnectionOptions(a: RedisAddress, onRetry?: (attempt: number, delayMs: number) => void) {
  return {
    host: a.host,
    port: a.port,
    db: a.db,
    ...(a.username !== undefined ? { username: a.username } : {}),
    ...(a.password !== undefined ? { password: a.password } : {}),
    ...(a.tls ? { tls: { servername: a.host } } : {}),
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy(attempt: number): number {
      const delayMs = Math.min(5_000, 200 * 2 ** Math.min(attempt - 1, 5));
      onRetry?.(attempt, delayMs);
      return delayMs;
    },
  };
}

/**
 * One voice for every connection of a process to the same Redis: an outage is reported once
 * when it starts (and every tenth retry), and once when it ends, however many connections
 * BullMQ keeps.
 */
export class OutageReporter {
  #down = false;

  constructor(
    private readonly display: string,
    private readonly say: (line: string) => void,
  ) {}

  retrying(attempt: number, delayMs: number): void {
    if (!this.#down || attempt % 10 === 0)
      this.say(
        `redis ${this.display} unreachable; retrying (attempt ${attempt}, next in ${(delayMs / 1000).toFixed(1)} s)`,
      );
    this.#down = true;
  }

  ready(): void {
    if (this.#down) this.say(`redis ${this.display} is back`);
    this.#down = false;
  }
}
