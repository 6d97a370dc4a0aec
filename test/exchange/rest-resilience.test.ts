import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RateLimitedError, SchemaMismatchError, ServiceUnavailableError } from '../../src/exchange/errors.ts';
import { ExchangeRestClient } from '../../src/exchange/rest/rest-client.ts';
import type { PlaceEntry } from '../../src/exchange/orders/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { clientFor } from './support-rest.ts';

let t: TestSim | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await t?.close();
  t = undefined;
});

async function client(sim: TestSim, name: string, opts: Parameters<typeof clientFor>[2] = {}) {
  const made = await clientFor(sim, name, opts);
  closers.push(() => made.client.close());
  return made;
}

const faults = (sim: TestSim, body: Record<string, unknown>) => sim.http('POST', '/admin/faults', { body });

describe('429: Retry-After, then the same request again', () => {
  it('waits Retry-After and resends; the budget holds every request meanwhile', async () => {
    t = await startTestSim();
    const { client: c } = await client(t, 'ann');
    await c.getMe();
    await faults(t, { rateLimitBurst: 1 });
    const started = performance.now();
    const [me, leagues] = await Promise.all([c.getMe(), c.getLeagues()]);
    const waited = performance.now() - started;
    expect(me.username).toBe('ann');
    expect(Array.isArray(leagues)).toBe(true);
    expect(c.stats.rateLimited).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(950); // Retry-After: 1
    expect(c.budget.stats.paused).toBe(1);
  });

  it('gives up with RateLimitedError when Retry-After is beyond its patience', async () => {
    t = await startTestSim();
    const { client: c } = await client(t, 'ben', { maxRetryAfterMs: 500 });
    await c.getMe();
    await faults(t, { rateLimitBurst: 1 });
    const err = await c.getMe().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err).toMatchObject({ code: 'LS_ERR_RATE_LIMITED', endpoint: 'getMe', retryAfterMs: 1000 });
  });
});

describe('429 on place: not sent again, the caller decides afresh', () => {
  it('a rate-limited place comes back failed at once, and the chunks after it are not sent later either', async () => {
    t = await startTestSim();
    const g = t.game();
    const [away, home] = g.participants;
    const { client: maker } = await client(t, 'mak');
    const [resting] = await maker.place([{ gameID: g.id, type: 'moneyline', side: away.id, odds: -110, bet: 1_000 }]);
    expect(resting?.status).toBe('accepted');
    const { client: c, user } = await client(t, 'pia', { maxPlaceBatch: 1 });
    await c.getMe();
    await faults(t, { rateLimitBurst: 1 });
    const started = performance.now();
    // Two chunks of one: the first meets the 429; the second would leave after Retry-After.
    const entries = await c.place([
      { gameID: g.id, type: 'moneyline', side: home.id, odds: 110, bet: 10, orderType: 'limit' },
      { gameID: g.id, type: 'moneyline', side: home.id, odds: 200, bet: 10, orderType: 'post' },
    ]);
    expect(performance.now() - started).toBeLessThan(900); // Retry-After: 1 was not waited out
    expect(entries.map((e) => e.status)).toEqual(['failed', 'failed']);
    for (const e of entries)
      expect(e).toMatchObject({ status: 'failed', error: { code: 'LS_ERR_RATE_LIMITED', endpoint: 'place' } });
    expect(c.stats.rateLimited).toBe(1);
    await new Promise((r) => setTimeout(r, 1_200));
    expect(t.sim.context.engine.openOrders(user.id)).toEqual([]);
    expect((await c.getMatchedBets()).length).toBe(0);
  });
});

describe('503 and lost answers', () => {
  it('retries idempotent reads with backoff until they succeed, and stops after maxAttempts', async () => {
    t = await startTestSim();
    (t.sim.context.settings as { requestTimeoutMs: number }).requestTimeoutMs = 20;
    const { client: c } = await client(t, 'cid', { backoff: { baseMs: 1, maxMs: 4, maxAttempts: 14 } });
    await c.getMe();
    await faults(t, { restErrorRate: 0.5 });
    for (let i = 0; i < 20; i++) expect((await c.getMe()).username).toBe('cid');
    expect(c.stats.retries).toBeGreaterThan(3);

    await faults(t, { restErrorRate: 1 });
    const before = c.stats.retries;
    const err = await c.getUnmatched().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(c.stats.retries - before).toBe(13);
  });

  it('retries a login that met a 503: a repeated login only mints another token', async () => {
    t = await startTestSim();
    (t.sim.context.settings as { requestTimeoutMs: number }).requestTimeoutMs = 20;
    // The users exist before the faults start (making one logs it in over plain HTTP).
    const clients = [];
    for (let i = 0; i < 6; i++)
      clients.push((await client(t, `log${i}`, { backoff: { baseMs: 1, maxMs: 4, maxAttempts: 14 } })).client);
    const { client: c } = await client(t, 'lognever', { backoff: { baseMs: 1, maxMs: 4, maxAttempts: 5 } });
    await faults(t, { restErrorRate: 0.5 });
    for (const [i, each] of clients.entries()) expect((await each.login()).username).toBe(`log${i}`);
    expect(clients.reduce((n, each) => n + each.stats.retries, 0)).toBeGreaterThan(0);
    await faults(t, { restErrorRate: 1 });
    const err = await c.login().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(c.stats.retries).toBe(4);
  });

  it('never places an order twice: lost answers are resolved by userReference', async () => {
    t = await startTestSim();
    (t.sim.context.settings as { requestTimeoutMs: number }).requestTimeoutMs = 20;
    const g = t.game();
    const [away, home] = g.participants;
    const { client: maker } = await client(t, 'deep');
    // Deep liquidity to take: a maker on away, offered to takers of home at +110.
    const [deep] = await maker.place([{ gameID: g.id, type: 'moneyline', side: away.id, odds: -110, bet: 10_000 }]);
    expect(deep?.status).toBe('accepted');
    const { client: c, user } = await client(t, 'eve', {
      backoff: { baseMs: 1, maxMs: 4, maxAttempts: 14 },
      placeRecoveryGraceMs: 50,
    });
    await c.getMe();
    await faults(t, { restErrorRate: 0.5 });

    const entries: PlaceEntry[] = [];
    for (let i = 0; i < 25; i++) {
      entries.push(
        ...(await c.place([
          { gameID: g.id, type: 'moneyline', side: home.id, odds: 150 + i, bet: 10, orderType: 'post' },
          { gameID: g.id, type: 'moneyline', side: home.id, odds: 110, bet: 5, orderType: 'fillAndKill' },
        ])),
      );
    }
    await faults(t, { restErrorRate: 0 });
    const statuses = entries.map((e) => e.status);
    // The fault hit some requests before the work (absent) and some after it (recovered).
    expect(statuses).toContain('accepted');
    expect(statuses).toContain('recovered');
    expect(statuses).toContain('absent');
    expect(statuses).not.toContain('unknown');

    const engine = t.sim.context.engine;
    const open = engine.openOrders(user.id);
    const bets = engine.bets(user.id);
    for (const [k, e] of entries.entries()) {
      const ref = e.userReference!;
      const resting = open.filter((o) => o.userReference === ref);
      const fills = bets.filter((b) => b.userReference === ref);
      const taker = k % 2 === 1;
      if (e.status === 'absent') {
        expect(resting.length + fills.length).toBe(0);
      } else {
        // Exactly one order per reference ever reached the engine.
        expect(taker ? fills.length : resting.length).toBe(1);
        if (e.status === 'recovered') expect(taker ? e.bets.length : e.resting ? 1 : 0).toBe(1);
      }
    }
    const refs = open.map((o) => o.userReference);
    expect(new Set(refs).size).toBe(refs.length);
  });
});

describe('schema mismatches', () => {
  it('names the endpoint and the field, and never quotes the body', async () => {
    const server: Server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/user/login') {
        res.end(JSON.stringify({ data: { user: { id: 'u1', username: 'x', auth: 'SECRET-TOKEN-VALUE' } } }));
      } else {
        res.end(JSON.stringify({ data: { user: { id: 'u1', username: 'x', displayBalance: 'lots' } } }));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(r)));
    const c = new ExchangeRestClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: async () => ({ username: 'x', password: 'pw' }),
    });
    closers.push(() => c.close());
    const err = await c.getMe().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaMismatchError);
    expect(err).toMatchObject({ code: 'LS_ERR_SCHEMA_MISMATCH', endpoint: 'getMe' });
    expect((err as SchemaMismatchError).issues.map((i) => i.path)).toEqual(['data.user.displayBalance']);
    expect((err as Error).message).toMatch(/^getMe: .*data\.user\.displayBalance/);
    expect((err as Error).message).not.toContain('lots');
    expect((err as Error).message).not.toContain('SECRET-TOKEN-VALUE');
  });
});
