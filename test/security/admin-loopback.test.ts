import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { manualTime } from '../../src/shared/time.ts';
import { isLoopback } from '../../src/sim/server.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

/**
 * The simulator's admin API (users, balances, games, results, the clock, faults) answers
 * loopback clients only; everyone else gets the 404 of an unknown path (README: "loopback
 * clients only; elsewhere it answers 404"), so its existence is not even revealed.
 * test/sim/admin.test.ts covers a client on an external IPv4 address; here: the address
 * check itself, IPv6, headers a proxy would set, and that the rest of the API is unaffected.
 */

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the admin API refuses clients that are not on loopback', () => {
  it('isLoopback: 127/8, ::1 and IPv4-mapped 127/8 only', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(ip), ip).toBe(true);
    for (const ip of [
      '',
      '10.0.0.1',
      '192.0.2.2',
      '0.0.0.0',
      '::',
      '::ffff:10.0.0.1',
      '::ffff:192.0.2.2',
      'fd00::2',
      'fe80::1',
      '128.0.0.1',
      '1.127.0.0',
    ])
      expect(isLoopback(ip), ip).toBe(false);
  });

  const external6 = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && i.family === 'IPv6' && !i.internal && !i.address.startsWith('fe80'))?.address;
  const external4 = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(external6 === undefined)(
    'a client on an external IPv6 address gets 404 for every admin path, and nothing changes',
    async () => {
      t = await startTestSim({ time: manualTime(Date.UTC(2026, 2, 1)), host: '::' });
      const base = `http://[${external6}]:${t.sim.port}`;
      const faults = { ...t.sim.context.faults };
      const users = t.sim.context.accounts.all().length;
      for (const [method, path, body] of [
        ['POST', '/admin/users', { username: 'intruder', password: 'x' }],
        ['POST', '/admin/faults', { restErrorRate: 1 }],
        ['POST', '/admin/clock', { advanceMs: 1000 }],
        ['GET', '/admin/faults'],
        [
          'POST',
          '/admin/games',
          {
            league: 'NBA',
            sport: 'basketball',
            participants: [
              { longName: 'A', shortName: 'A' },
              { longName: 'B', shortName: 'B' },
            ],
          },
        ],
      ] as const) {
        const res = await fetch(base + path, {
          method,
          ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
        });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(await res.json()).toEqual({ error: `no route for ${path}` });
      }
      expect(t.sim.context.faults).toEqual(faults);
      expect(t.sim.context.accounts.all()).toHaveLength(users);
      expect(t.sim.context.engine.games()).toEqual([]);
      // The exchange API itself answers there as usual (401 without a token, not 404).
      expect((await fetch(`${base}/user/getMe`)).status).toBe(401);
      // And the admin API still answers on IPv6 loopback.
      expect((await fetch(`http://[::1]:${t.sim.port}/admin/clock`)).status).toBe(200);
    },
  );

  it.skipIf(external4 === undefined)(
    'headers claiming loopback (X-Forwarded-For, X-Real-IP, Forwarded, Host) do not admit an external client',
    async () => {
      t = await startTestSim({ time: manualTime(Date.UTC(2026, 2, 1)), host: '0.0.0.0' });
      const base = `http://${external4}:${t.sim.port}`;
      const res = await fetch(`${base}/admin/faults`, {
        method: 'POST',
        body: JSON.stringify({ restErrorRate: 1 }),
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': '127.0.0.1',
          'x-real-ip': '127.0.0.1',
          forwarded: 'for=127.0.0.1',
          host: `127.0.0.1:${t.sim.port}`,
        },
      });
      expect(res.status).toBe(404);
      expect(t.sim.context.faults.restErrorRate).toBe(0);
    },
  );

  it('a simulator started without admin answers 404 even on loopback', async () => {
    t = await startTestSim({ time: manualTime(Date.UTC(2026, 2, 1)), admin: false });
    const res = await t.http('POST', '/admin/faults', { body: { restErrorRate: 1 } });
    expect(res.status).toBe(404);
    expect(t.sim.context.faults.restErrorRate).toBe(0);
  });
});
