import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

/**
 * Request targets that are not URLs (`http://[`, a port past 65535, a bad %-escape in the
 * authority), sent over raw sockets since no HTTP client writes them. A plain request is a
 * 400 `{error}`; a WebSocket upgrade is an HTTP 400 written to the socket, then closed. The
 * upgrade once threw in the server's upgrade listener, which took the whole process down.
 */

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const BAD_TARGETS = ['http://[', 'http://a:99999/', 'http://%zz/', '//a:99999/x', 'http://[::1/price-stream'];

/** Write `text`, read until the server closes (or `ms` pass), return what came back. */
function rawExchange(port: number, text: string, ms = 2_000): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => s.write(text));
    let out = '';
    const timer = setTimeout(() => {
      s.destroy();
      resolve(`${out}[no close within ${ms} ms]`);
    }, ms);
    s.on('data', (d: Buffer) => (out += d.toString('latin1')));
    s.on('error', () => undefined);
    s.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

function parse(raw: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
  const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the assertion shows it */
  }
  return { status, body };
}

describe('request targets that are not URLs', () => {
  it('a plain request answers 400 {error}', async () => {
    t = await startTestSim({ time: manualTime(Date.UTC(2026, 2, 1)) });
    for (const target of BAD_TARGETS) {
      const res = parse(
        await rawExchange(t.sim.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      expect(res.status, target).toBe(400);
      expect(res.body, target).toEqual({ error: expect.stringMatching(/request target/) });
    }
  });

  it('counts against the per-IP limit like any request', async () => {
    t = await startTestSim({
      time: manualTime(Date.UTC(2026, 2, 1)),
      settings: { ipRate: { limit: 3, windowMs: 60_000 } },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        parse(await rawExchange(t.sim.port, `GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).status,
      );
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  it('a WebSocket upgrade answers HTTP 400 {error} and closes; the process lives on and still serves', async () => {
    t = await startTestSim({ time: manualTime(Date.UTC(2026, 2, 1)) });
    const me = await t.user('target-ws');
    const crashes: unknown[] = [];
    const onCrash = (e: unknown) => crashes.push(e);
    process.on('uncaughtException', onCrash);
    try {
      for (const target of BAD_TARGETS) {
        const raw = await rawExchange(
          t.sim.port,
          `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n` +
            `Authorization: Bearer ${me.token}\r\n\r\n`,
        );
        const res = parse(raw);
        expect(res.status, `${target}: ${raw.slice(0, 120)}`).toBe(400);
        expect(res.body, target).toEqual({ error: expect.stringMatching(/request target/) });
      }
    } finally {
      process.off('uncaughtException', onCrash);
    }
    expect(crashes).toEqual([]);
    expect((await t.http('GET', '/exchange/getLeagues', { token: me.token })).status).toBe(200);
  });
});
