import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { validateSimOptions } from '../../src/cli/sim.ts';
import { DEFAULT_LIMITS, parseRate } from '../../src/sim/limit-settings.ts';
import { parseScenarioYaml } from '../../src/sim/market/scenario.ts';
import type { SimulatorOptions } from '../../src/sim/server.ts';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

/**
 * The simulator's limits (login throttle, per-IP and graded rates, connection and
 * subscription caps) keep today's values by default and are set by `linesmith sim` flags
 * or a scenario's `limits`, a flag winning over the scenario.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const T0 = Date.UTC(2026, 2, 1, 12);
let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const BASE = { port: '0', host: '127.0.0.1', seed: '1', traders: true, logLevel: 'info' } as const;

async function logins(options: SimulatorOptions, n: number): Promise<number[]> {
  t = await startTestSim({ time: manualTime(T0), ...options });
  await t.user('ls-user'); // one login
  const out: number[] = [];
  for (let i = 1; i < n; i++)
    out.push((await t.http('POST', '/user/login', { body: { username: 'ls-user', password: 'pw-ls-user' } })).status);
  return out;
}

describe('limit settings', () => {
  it('COUNT/DURATION parses; anything else says why', () => {
    expect(parseRate('30/1m')).toEqual({ limit: 30, windowMs: 60_000 });
    expect(parseRate(' 3000 / 60s ')).toEqual({ limit: 3000, windowMs: 60_000 });
    for (const bad of ['30', '0/1m', '-1/1m', '30/0s', '30/2d', '30/60', 'x/1m', '1e3/1m', '30/1m/2'])
      expect(typeof parseRate(bad), bad).toBe('string');
  });

  it('defaults are today’s: 3000/60 s per IP, 30 logins per IP per minute, 60/min graded, 10/5 s graded-since', async () => {
    expect(DEFAULT_LIMITS).toMatchObject({
      ipRate: { limit: 3000, windowMs: 60_000 },
      loginRate: { limit: 30, windowMs: 60_000 },
      gradedRate: { limit: 60, windowMs: 60_000 },
      gradedSinceRate: { limit: 10, windowMs: 5_000 },
    });
    const statuses = await logins({}, 31);
    expect(statuses.filter((s) => s === 200)).toHaveLength(29);
    expect(statuses.at(-1)).toBe(429);
  });

  it('settings, then a scenario, set them; a setting wins over the scenario', async () => {
    expect(await logins({ settings: { loginRate: { limit: 2, windowMs: 60_000 } } }, 3)).toEqual([200, 429]);
    await t!.close();
    t = undefined;
    const scenario = parseScenarioYaml('limits:\n  loginRate: 3/1m\n  gradedRate: 5/10s\n  maxConnectionsPerIp: 7\n');
    expect(await logins({ scenario }, 4)).toEqual([200, 200, 429]);
    expect(t!.sim.context.limits.perUser.get('graded')).toMatchObject({ limit: 5, windowMs: 10_000 });
    expect(t!.sim.context.settings.maxConnectionsPerIp).toBe(7);
    await t!.close();
    t = undefined;
    expect(await logins({ scenario, settings: { loginRate: { limit: 1, windowMs: 60_000 } } }, 2)).toEqual([429]);
  });

  it('a scenario limit that is not COUNT/DURATION names the field and the line', () => {
    expect(() => parseScenarioYaml('limits:\n  loginRate: lots\n', 's.yaml')).toThrow(
      /s\.yaml:2:\d+: limits\.loginRate: expected COUNT\/DURATION/,
    );
    expect(() => parseScenarioYaml('limits:\n  maxConnectionsPerIp: 0\n', 's.yaml')).toThrow(
      /limits\.maxConnectionsPerIp/,
    );
  });

  it('linesmith sim flags: each limit by name; a bad value names its flag', () => {
    const ok = validateSimOptions({
      ...BASE,
      loginRate: '5/10s',
      ipRate: '100/1m',
      gradedSinceRate: '2/1s',
      maxConnectionsPerIp: '9',
      maxConnectionsPerAccount: '3',
      maxSubscriptionsPerConnection: '50',
    });
    expect(ok).toMatchObject({
      limits: {
        loginRate: { limit: 5, windowMs: 10_000 },
        ipRate: { limit: 100, windowMs: 60_000 },
        gradedSinceRate: { limit: 2, windowMs: 1000 },
        maxConnectionsPerIp: 9,
        maxConnectionsPerAccount: 3,
        maxSubscriptionsPerConnection: 50,
      },
    });
    expect(validateSimOptions({ ...BASE })).toMatchObject({ limits: {} });
    expect(validateSimOptions({ ...BASE, loginRate: '5' })).toMatch(/^--login-rate: expected COUNT\/DURATION/);
    expect(validateSimOptions({ ...BASE, maxConnectionsPerAccount: '0' })).toMatch(/^--max-connections-per-account: /);
    expect(validateSimOptions({ ...BASE, gradedRate: '1/3d' })).toMatch(/^--graded-rate: the window/);
  });

  it('linesmith sim --login-rate takes effect in the running process', async () => {
    const child = spawn(
      process.execPath,
      [
        'bin/linesmith.js',
        'sim',
        '--port',
        '0',
        '--no-traders',
        '--admin',
        '--login-rate',
        '1/1m',
        '--log-level',
        'silent',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
          if (m) {
            clearInterval(timer);
            resolve(m[0]);
          }
        }, 25);
        child.once('exit', () => reject(new Error('sim exited')));
      });
      const post = (path: string, body: unknown) =>
        fetch(url + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await post('/admin/users', { username: 'cli-u', password: 'pw' })).status).toBeLessThan(300);
      expect((await post('/user/login', { username: 'cli-u', password: 'pw' })).status).toBe(200);
      expect((await post('/user/login', { username: 'cli-u', password: 'pw' })).status).toBe(429);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
