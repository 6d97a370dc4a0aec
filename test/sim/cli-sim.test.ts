import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const URL_LINE = /http:\/\/127\.0\.0\.1:(\d+)/;

interface Cli {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function cli(args: readonly string[]): Cli {
  const child = spawn(process.execPath, ['bin/linesmith.js', 'sim', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stdout: () => out, stderr: () => err };
}

/**
 * Resolves with the URL once the ready line is printed; rejects if the process exits first
 * or takes too long. A child process runs on wall time, so this test waits on real timers.
 */
async function readyUrl(c: Cli, timeoutMs = 20_000): Promise<string> {
  let exited = false;
  void c.exited.then(() => (exited = true));
  for (let waited = 0; waited < timeoutMs; waited += 25) {
    const m = URL_LINE.exec(c.stdout());
    if (m) return m[0];
    if (exited) throw new Error(`sim exited before it was ready:\n${c.stderr()}`);
    await sleep(25);
  }
  throw new Error(`sim not ready after ${timeoutMs} ms:\n${c.stderr()}`);
}

async function exitWithin(c: Cli, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return Promise.race([c.exited, sleep(ms).then(() => ({ code: null, signal: 'TIMEOUT' as NodeJS.Signals }))]);
}

describe('linesmith sim', () => {
  it('serves on --port 0, prints one ready line, and exits 0 on SIGTERM', async () => {
    const c = cli(['--port', '0', '--seed', '3', '--no-traders']);
    const url = await readyUrl(c);
    const lines = c.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^linesmith sim listening on http:\/\/127\.0\.0\.1:\d+ \(seed 3, traders off/);
    expect(Number(URL_LINE.exec(url)![1])).toBeGreaterThan(0);

    const res = await fetch(`${url}/exchange/getLeagues`);
    expect(res.status).toBe(401);

    c.child.kill('SIGTERM');
    expect(await exitWithin(c, 5_000)).toEqual({ code: 0, signal: null });
    // Logs go to stderr as JSON lines (not a TTY), never to stdout.
    expect(c.stderr()).toMatch(/"msg":"simulator listening"/);
  });

  it('runs the synthetic market at --speed 60 and keeps answering', async () => {
    const c = cli(['--port', '0', '--seed', '1', '--speed', '60', '--log-level', 'info']);
    const url = await readyUrl(c);
    expect(c.stdout()).toMatch(/traders on, speed 60x/);
    await sleep(2_000);
    const res = await fetch(`${url}/exchange/getLeagues`);
    expect(res.status).toBe(401);
    expect(c.stderr()).toMatch(/"msg":"synthetic market started"/);

    c.child.kill('SIGINT');
    expect(await exitWithin(c, 5_000)).toEqual({ code: 0, signal: null });
    expect(c.stderr()).toMatch(/"msg":"synthetic market stopped"/);
  });

  it('rejects a bad scenario file with file:line:col and the field, exit code 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'linesmith-cli-'));
    try {
      const file = join(dir, 'bad.yaml');
      await writeFile(file, 'name: bad\npace:\n  tickSeconds: -1\n');
      const c = cli(['--port', '0', '--scenario', file]);
      expect(await exitWithin(c, 15_000)).toEqual({ code: 2, signal: null });
      expect(c.stderr()).toContain(`${file}:3:16: pace.tickSeconds:`);
      expect(c.stdout()).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects bad options with a clear message and exit code 2', async () => {
    const c = cli(['--port', 'eighty', '--no-traders']);
    expect(await exitWithin(c, 15_000)).toEqual({ code: 2, signal: null });
    expect(c.stderr()).toMatch(/--port must be a whole number/);
    const d = cli(['--speed', '0', '--no-traders']);
    expect(await exitWithin(d, 15_000)).toEqual({ code: 2, signal: null });
    expect(d.stderr()).toMatch(/--speed must be a positive number/);
  });
});
