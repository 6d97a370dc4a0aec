import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { PriceFilter } from '../../src/sim/feeds/subscriptions.ts';
import { DEFAULT_LIMITS } from '../../src/sim/limit-settings.ts';
import type { SimulatorOptions } from '../../src/sim/server.ts';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { Clients, HandshakeRejected, type FeedClient } from './ws-client.ts';

/**
 * The sockets' limits: a handshake counts against the per-IP request limit; open
 * connections are capped per IP and per account; a price-feed connection holds at most so
 * many subscribed ids, and one frame costs the same whatever it holds. One connection with
 * a million subscribed ids once stalled the whole server (each frame copied them all).
 */

const T0 = Date.UTC(2026, 2, 1, 12);
let t: TestSim | undefined;
const clients = new Clients(() => t!.url);

afterEach(async () => {
  vi.restoreAllMocks();
  await clients.closeAll();
  await t?.close();
  t = undefined;
});

async function start(settings: SimulatorOptions['settings'] = {}): Promise<TestSim> {
  t = await startTestSim({ time: manualTime(T0), settings });
  return t;
}

async function refusal(path: string, token: string): Promise<number> {
  try {
    await clients.open(path, token);
  } catch (e) {
    if (e instanceof HandshakeRejected) return e.status;
    throw e;
  }
  return 101;
}

const ids = (n: number, prefix = 'g') =>
  Array.from({ length: n }, (_, i) => `${prefix}${i.toString(16).padStart(23, '0')}`);
const isError = (m: any) => Array.isArray(m) && m[0] === 'error';

describe('price feed: subscriptions per connection are capped', () => {
  it('beyond the cap a frame is refused whole with an error frame; what it held stays', async () => {
    const sim = await start({ maxSubscriptionsPerConnection: 3 });
    const me = await sim.user('sl-sub');
    const g: EngineGame = sim.game();
    const c = await clients.open('/price-stream', me.token);
    c.send({ type: 'subscribe', gameIDs: [g.id], leagueIDs: ['NHL'] });
    await c.roundTrip();
    c.send({ type: 'subscribe', gameIDs: ['a', 'b'] });
    const err = await c.take(isError);
    expect(err.value[1]).toMatchObject({
      errorType: 'subscription_limit',
      limit: 3,
      error: expect.stringContaining('at most 3'),
    });
    c.send({ type: 'subscribe', gameIDs: [g.id, 'b'], replace: true, leagueIDs: ['x', 'y'] });
    await c.take(isError);
    // Still subscribed to the game: an update of it arrives.
    sim.sim.context.engine.place(me.id, [
      { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: 150, bet: 10 },
    ]);
    await c.take((m) => Array.isArray(m) && m[0] === 'orderUpdate' && m[1].gameID === g.id);
    // Ids already held do not count again; a replace within the cap is taken.
    c.send({ type: 'subscribe', gameIDs: [g.id], leagueIDs: ['nhl', 'NBA'] });
    c.send({ type: 'subscribe', gameIDs: ['a', 'b', 'c'], replace: true });
    await c.roundTrip();
    expect(c.pending().filter(isError)).toEqual([]);
  });

  it('the default cap is documented and enforced (10,000 ids)', async () => {
    expect(DEFAULT_LIMITS.maxSubscriptionsPerConnection).toBe(10_000);
    const sim = await start();
    const me = await sim.user('sl-default');
    const c = await clients.open('/price-stream', me.token);
    c.send({ type: 'subscribe', gameIDs: ids(6_000) });
    c.send({ type: 'subscribe', gameIDs: ids(4_000, 'h') });
    await c.roundTrip();
    expect(c.pending().filter(isError)).toEqual([]);
    c.send({ type: 'subscribe', sportIDs: ['curling'] });
    expect((await c.take(isError)).value[1].limit).toBe(10_000);
  });

  it('a subscribe naming more ids than the cap is refused before validation, duplicates or not', async () => {
    const sim = await start({ maxSubscriptionsPerConnection: 100 });
    const me = await sim.user('sl-named');
    const c = await clients.open('/price-stream', me.token);
    // Entries that would not even validate: the count refuses the frame first.
    c.send({ type: 'subscribe', gameIDs: Array.from({ length: 101 }, () => 7) });
    expect((await c.take(isError)).value[1]).toMatchObject({
      errorType: 'subscription_limit',
      error: expect.stringContaining('would hold 101'),
    });
    c.send({ type: 'subscribe', gameIDs: Array.from({ length: 100 }, () => 'same') });
    await c.roundTrip();
    expect(c.pending().filter(isError)).toEqual([]);
  });

  it('a frame costs the same whatever the subscription holds: it never copies the subscription', async () => {
    const sim = await start({ maxSubscriptionsPerConnection: 200_000 });
    const me = await sim.user('sl-cost');
    const c = await clients.open('/price-stream', me.token);
    for (let i = 0; i < 6; i++) c.send({ type: 'subscribe', gameIDs: ids(30_000, `p${i}`) }); // under the 1 MiB frame limit each
    await c.roundTrip(10_000);
    const snapshot = vi.spyOn(PriceFilter.prototype, 'snapshot');
    const frames = 300;
    const started = performance.now();
    for (let i = 0; i < frames; i++) c.send({ type: 'unsubscribe', gameIDs: [`none-${i}`] });
    await c.roundTrip(10_000);
    const ms = performance.now() - started;
    expect(snapshot).not.toHaveBeenCalled();
    // Generous: the copying version took seconds here; a frame is tens of microseconds.
    expect(ms, `${frames} frames on a 180k-id subscription took ${ms.toFixed(0)} ms`).toBeLessThan(1_500);
  });
});

describe('WebSocket handshakes count against the per-IP limit', () => {
  it('a handshake past the limit is a 429 with Retry-After; REST and sockets share the count', async () => {
    const sim = await start({ ipRate: { limit: 4, windowMs: 60_000 } });
    const me = await sim.user('sl-ip'); // the login is request 1
    await clients.open('/v2/user', me.token); // 2
    await clients.open('/price-stream', me.token); // 3
    expect((await sim.http('GET', '/exchange/getLeagues', { token: me.token })).status).toBe(200); // 4
    expect(await refusal('/orders/ws', me.token)).toBe(429);
    expect((await sim.http('GET', '/exchange/getLeagues', { token: me.token })).status).toBe(429);
    (sim.sim.context.time as ReturnType<typeof manualTime>).advance(60_001);
    await clients.open('/orders/ws', me.token);
  });
});

describe('open connections are capped per IP and per account', () => {
  it('per account: the next handshake is a 429 until one closes; other accounts are unaffected', async () => {
    const sim = await start({ maxConnectionsPerAccount: 2 });
    const a = await sim.user('sl-a');
    const b = await sim.user('sl-b');
    const first: FeedClient = await clients.open('/price-stream', a.token);
    await clients.open('/orders/ws', a.token);
    expect(await refusal('/v2/user', a.token)).toBe(429);
    await clients.open('/v2/user', b.token);
    await first.close();
    await new Promise((r) => setTimeout(r, 20));
    await clients.open('/v2/user', a.token);
  });

  it('per IP: every account on the address together', async () => {
    const sim = await start({ maxConnectionsPerIp: 3 });
    const a = await sim.user('sl-ip-a');
    const b = await sim.user('sl-ip-b');
    await clients.open('/price-stream', a.token);
    await clients.open('/price-stream', b.token);
    const third = await clients.open('/orders/ws', b.token);
    expect(await refusal('/price-stream', a.token)).toBe(429);
    await third.close();
    await new Promise((r) => setTimeout(r, 20));
    await clients.open('/price-stream', a.token);
  });

  it('the defaults are generous (256 per IP, 64 per account)', () => {
    expect(DEFAULT_LIMITS.maxConnectionsPerIp).toBe(256);
    expect(DEFAULT_LIMITS.maxConnectionsPerAccount).toBe(64);
  });
});
