import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The redis-server binary the tests use: REDIS_SERVER, else the one on PATH; null when there is none. */
export function redisServerBinary(): string | null {
  const candidate = process.env.REDIS_SERVER ?? 'redis-server';
  const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? candidate : null;
}

/**
 * Why the Redis tests did not run, or null when they can. `.ci/run` installs redis-server, so
 * there the tests always run; elsewhere a missing binary skips them with this message.
 */
export function redisSkipReason(): string | null {
  if (redisServerBinary() !== null) return null;
  const reason =
    "redis-server not found (install Debian's redis-server or set REDIS_SERVER): the distributed-sweep tests did NOT run";
  // CI sets this, so a machine without Redis fails there instead of passing with the tests skipped.
  if (process.env.LINESMITH_REQUIRE_REDIS === '1')
    throw new Error(`${reason}, and LINESMITH_REQUIRE_REDIS=1 requires them`);
  return reason;
}

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGKILL when `hard`), keeping the port for `start()`. */
  stop(hard?: boolean): Promise<void>;
  /** Starts it again on the same port (an outage's end). */
  start(): Promise<void>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForPort(port: number, up: boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (open === up) return;
    if (performance.now() > deadline)
      throw new Error(`redis on port ${port} did not ${up ? 'start' : 'stop'} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A throwaway redis-server on a free loopback port, no persistence, in its own directory. */
export async function startTestRedis(): Promise<TestRedis> {
  const binary = redisServerBinary();
  if (binary === null) throw new Error(redisSkipReason()!);
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'linesmith-redis-'));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    await waitForPort(port, true);
  };
  const stop = async (hard = false) => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill(hard ? 'SIGKILL' : 'SIGTERM');
    await exited;
    await waitForPort(port, false);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async close() {
      await stop(true);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
