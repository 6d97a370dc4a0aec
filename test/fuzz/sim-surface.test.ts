import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { FeedClient } from '../sim/ws-client.ts';
import { mutatedValue, oddValue, randomText, toText, within, fuzzRuns } from './support.ts';

/**
 * The simulator's HTTP and WebSocket surfaces fuzzed on loopback: request targets that are
 * not URLs, odd methods and headers over raw sockets; place and heartbeat bodies whose
 * numbers are extremes (1e308, -0, "NaN", huge integers, 1e400 in the text); WebSocket
 * upgrades with malformed targets; price-feed subscriptions and orders-socket frames
 * mutated from valid ones. Whatever arrives: no 5xx, every request answered within a
 * bound, and the server still answers a health read after every case. test/fuzz/sim-rest
 * covers the routes' validation; this covers what reaches the server before and around it.
 */

const T0 = Date.UTC(2026, 2, 1, 12);
const DAY = 86_400_000;
/** Per request: anything slower is a hang. */
const BOUND_MS = 3_000;

let t: TestSim;
let game: EngineGame;
let me: { id: string; token: string };
let other: { id: string; token: string };

beforeAll(async () => {
  // The per-IP limit stays out of the way: thousands of requests from one address on a clock that does not move.
  t = await startTestSim({
    time: manualTime(T0),
    settings: { ipRate: { limit: 1_000_000, windowMs: 60_000 }, loginRate: { limit: 1_000, windowMs: 60_000 } },
  });
  me = await t.user('surface-fuzz');
  other = await t.user('surface-other');
  game = t.game({ league: 'NFL', sport: 'football', start: T0 + 3 * DAY });
});
afterAll(() => t.close());

/** The server lives and every read of the league renders, for the fuzzer and for someone else. */
async function healthy(what: string): Promise<void> {
  for (const [path, token] of [
    ['/exchange/getLeagues', me.token],
    ['/exchange/v2/getOrderbook?league=NFL', other.token],
    ['/user/getUnmatched', me.token],
  ] as const) {
    const res = await within(t.http('GET', path, { token }), BOUND_MS, `health ${path} after ${what}`);
    expect(res.status, `${path} after ${what}`).toBe(200);
  }
  const v1 = await within(
    t.http('POST', '/exchange/getOrderbook', { token: other.token, body: { leagueRequested: 'NFL' } }),
    BOUND_MS,
    'v1 orderbook',
  );
  expect(v1.status, `v1 orderbook after ${what}`).toBe(200);
}

/** Write raw bytes, read until the server closes; the status line's code (0: none came). */
function rawRequest(text: string): Promise<{ status: number; raw: string }> {
  return within(
    new Promise((resolve) => {
      const s = connect(t.sim.port, '127.0.0.1', () => s.end(text));
      let out = '';
      s.on('data', (d: Buffer) => {
        out += d.toString('latin1');
        // One answer is all a case needs; keep-alive would otherwise hold the socket open.
        if (out.includes('\r\n\r\n')) s.destroy();
      });
      s.on('error', () => undefined);
      s.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0), raw: out }));
    }),
    BOUND_MS,
    `raw request ${JSON.stringify(text.slice(0, 120))}`,
  );
}

const badTarget = fc.oneof(
  fc.constantFrom(
    'http://[',
    'http://a:99999/',
    'http://%zz/',
    '//a:99999/x',
    'http://[::1',
    'http://a b/',
    'http://:/',
    'https://@/',
    '//%/',
    'http://[::1]:-1/',
    '*',
    '/..%2f..%2f',
    '/%',
    '/%zz',
    '/\u00ff',
    '/exchange/v2/getOrderbook?league=%zz&gameID=%',
    `/${'a'.repeat(9_000)}`,
  ),
  fc
    .tuple(
      fc.constantFrom('http://', '//', '/', 'https://', 'ws://', ''),
      fc.string({ unit: 'binary-ascii', maxLength: 24 }),
    )
    .map(([a, b]) => a + b.replace(/[\r\n ]/g, '')),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'BREW', 'CONNECT', 'get');
const authHeader = fc.constantFrom(
  () => `Authorization: Bearer ${me.token}\r\n`,
  () => '',
  () => 'Authorization: Bearer x\r\n',
  () => `Authorization: ${'b'.repeat(5000)}\r\n`,
);

const isStatusOk = (status: number) => status === 0 || (status >= 100 && status < 500);

describe('simulator surfaces: malformed input fuzz on loopback', () => {
  it('raw request lines and targets: never a 5xx or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        badTarget,
        authHeader,
        fc.option(randomText, { nil: undefined }),
        async (m, target, auth, body) => {
          const bodyPart =
            body === undefined
              ? ''
              : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
          const text = `${m} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${auth()}${bodyPart || '\r\n'}`;
          const res = await rawRequest(text);
          expect(isStatusOk(res.status), `${text.slice(0, 200)} → ${res.raw.slice(0, 200)}`).toBe(true);
          // Node's parser answers a request line it cannot read with a bare 400; past it, every error carries {error}.
          if (res.status >= 400 && m !== 'HEAD' && /content-type: application\/json/i.test(res.raw))
            expect(res.raw, `${text.slice(0, 200)} → ${res.raw.slice(0, 300)}`).toMatch(/"error"/);
        },
      ),
      { numRuns: fuzzRuns(200), endOnFailure: true },
    );
    await healthy('raw requests');
  });

  it('WebSocket upgrades with malformed targets, paths and credentials: an HTTP answer (or 101), never a crash', async () => {
    const path = fc.oneof(
      badTarget,
      fc.constantFrom('/price-stream', '/orders/ws', '/v2/user', '/price-stream?x=%zz', '/orders/ws/', '/v2/user#'),
    );
    await fc.assert(
      fc.asyncProperty(path, authHeader, fc.constantFrom('13', '8', '', 'x'), async (target, auth, version) => {
        const text =
          `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: ${version}\r\n` +
          `${auth()}\r\n`;
        const res = await rawRequest(text);
        expect(isStatusOk(res.status), `${text.slice(0, 200)} → ${res.raw.slice(0, 200)}`).toBe(true);
      }),
      { numRuns: fuzzRuns(80), endOnFailure: true },
    );
    await healthy('upgrades');
  });

  it('place and heartbeat bodies with extreme numbers: 4xx or refused entries, and the league still renders for everyone', async () => {
    const extreme = fc.oneof(
      fc.constantFrom<unknown>(
        1e308,
        -1e308,
        -0,
        0,
        'NaN',
        'Infinity',
        '1e308',
        Number.MAX_SAFE_INTEGER,
        Number.MAX_SAFE_INTEGER + 2,
        2 ** 53 * 1e10,
        5e-324,
        1.4e11,
        1.5e11,
        525_601,
        2_592_000,
        2 ** 31,
        -1,
      ),
      oddValue,
    );
    const valid = {
      gameID: game.id,
      type: 'moneyline',
      side: game.participants[1].id,
      odds: 150,
      bet: 10,
      expirationMinutes: 30,
    };
    const order = fc.oneof(
      fc
        .tuple(fc.constantFrom('expirationMinutes', 'odds', 'bet', 'number'), extreme)
        .map(([k, v]) => ({ ...valid, [k]: v })),
      mutatedValue(valid),
    );
    const req = fc.oneof(
      fc
        .array(order, { minLength: 1, maxLength: 3 })
        .map((orders) => ({ path: '/session/v3/place', body: toText({ orders }) })),
      extreme.map((timeout) => ({ path: '/user/ordersHeartbeat', body: toText({ timeout }) })),
      fc.constantFrom({
        path: '/session/v3/place',
        body: `{"orders":[{"gameID":"${game.id}","type":"moneyline","side":"${game.participants[1].id}","odds":150,"bet":10,"expirationMinutes":1e400}]}`,
      }),
    );
    await fc.assert(
      fc.asyncProperty(req, async ({ path, body }) => {
        const res = await within(
          t.http('POST', path, { token: me.token, body }),
          BOUND_MS,
          `${path} ${body.slice(0, 120)}`,
        );
        expect(res.status, `${path} ${body.slice(0, 200)} → ${JSON.stringify(res.body).slice(0, 200)}`).toBeLessThan(
          500,
        );
        if (path === '/user/ordersHeartbeat' && res.status === 200)
          expect(res.body.data.timeoutSec).toBeLessThanOrEqual(86_400);
      }),
      { numRuns: fuzzRuns(200), endOnFailure: true },
    );
    await healthy('extreme bodies');
    // Whatever rested carries an expiry the renderers can spell.
    for (const o of t.sim.context.engine.openOrders(me.id))
      expect(o.expiresAt === null || Number.isFinite(new Date(o.expiresAt).getTime())).toBe(true);
  });

  it('price-feed subscriptions and junk frames: the connection and the server stay up', async () => {
    const ids = fc.oneof(
      fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(game.id, 'NFL', 'football', '', ' ')), {
        maxLength: 50,
      }),
      fc.integer({ min: 9_000, max: 12_000 }).map((n) => Array.from({ length: n }, (_, i) => `id-${i}`)),
      oddValue,
    );
    const frame = fc.oneof(
      fc
        .record(
          {
            type: fc.constantFrom('subscribe', 'unsubscribe', 'subscribeAll', 'x'),
            gameIDs: ids,
            leagueIDs: ids,
            sportIDs: ids,
            replace: fc.oneof(fc.boolean(), oddValue),
          },
          { requiredKeys: ['type'] },
        )
        .map(toText),
      mutatedValue({ type: 'subscribe', gameIDs: [game.id], leagueIDs: ['NFL'], replace: true }).map((v) =>
        v === undefined ? '' : toText(v),
      ),
      randomText,
    );
    const c = await FeedClient.open(t.url, '/price-stream', `Bearer ${me.token}`);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 4 }), async (frames) => {
          for (const f of frames) if (Buffer.byteLength(f) < 1 << 20) c.send(f);
          await within(c.roundTrip(BOUND_MS), BOUND_MS + 500, 'price-feed round trip');
          expect(c.closed).toBe(false);
        }),
        { numRuns: fuzzRuns(60), endOnFailure: true },
      );
    } finally {
      await c.close();
    }
    await healthy('price-feed frames');
  });

  it('orders-socket frames: every reply is {data} or {error}; a heartbeat is acknowledged only for 6..86,400 s', async () => {
    const valid = [
      [
        'placeV3',
        {
          requestID: 'p',
          orders: [
            {
              gameId: game.id,
              type: 'moneyline',
              side: game.participants[1].id,
              odds: 150,
              bet: 10,
              expirationMinutes: 30,
            },
          ],
        },
      ],
      ['heartbeat', { requestID: 'h', requestTimeout: 20 }],
      ['cancelMultiple', { requestID: 'c', orderIDs: ['0'.repeat(24)] }],
      ['cancelAllByGame', { requestID: 'g', gameId: game.id, type: 'moneyline' }],
    ];
    const extreme = fc.constantFrom<unknown>(
      1e308,
      -0,
      'NaN',
      2_592_000,
      2 ** 31,
      Number.MAX_SAFE_INTEGER + 2,
      5.5,
      6,
      86_400,
      86_401,
    );
    const frame = fc.oneof(
      extreme.map((requestTimeout) => toText(['heartbeat', { requestID: 'hx', requestTimeout }])),
      extreme.map((expirationMinutes) =>
        toText([
          'placeV3',
          {
            requestID: 'px',
            orders: [
              {
                gameId: game.id,
                type: 'moneyline',
                side: game.participants[1].id,
                odds: 150,
                bet: 10,
                expirationMinutes,
              },
            ],
          },
        ]),
      ),
      fc
        .constantFrom(...valid)
        .chain((v) => mutatedValue(v))
        .map((v) => (v === undefined ? '' : toText(v))),
      randomText,
    );
    const c = await FeedClient.open(t.url, '/orders/ws', `Bearer ${me.token}`);
    try {
      await fc.assert(
        fc.asyncProperty(frame, async (text) => {
          if (Buffer.byteLength(text) >= 1 << 20) return;
          const before = c.frames.length;
          c.send(text);
          await within(c.roundTrip(BOUND_MS), BOUND_MS + 500, 'orders-socket round trip');
          // A placeV3 may wait a live delay; none here (the game is not live), so answers are in.
          for (const f of c.frames.slice(before)) {
            expect(f.ok, f.raw.slice(0, 200)).toBe(true);
            const reply = f.json as Record<string, unknown>;
            expect('data' in reply || 'error' in reply, f.raw.slice(0, 200)).toBe(true);
            const data = reply.data as { type?: unknown; timeoutSec?: unknown } | undefined;
            if (data?.type === 'heartbeatAck') {
              expect(
                Number.isInteger(data.timeoutSec) &&
                  (data.timeoutSec as number) >= 6 &&
                  (data.timeoutSec as number) <= 86_400,
                `${text} → ${f.raw}`,
              ).toBe(true);
            }
          }
          expect(c.closed).toBe(false);
        }),
        { numRuns: fuzzRuns(150), endOnFailure: true },
      );
    } finally {
      await c.close();
    }
    await healthy('orders-socket frames');
  });
});
