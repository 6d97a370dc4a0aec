import { ExchangeRestClient } from '../src/exchange/rest/rest-client.ts';
import { RequestBudget } from '../src/exchange/rest/request-budget.ts';
import { startSimulator } from '../src/sim/server.ts';

/**
 * The REST client's own round trips per second against `linesmith sim` with keep-alive:
 * the whole client path (request budget, auth header, undici Pool, JSON, zod validation of
 * the answer, typed result) and the simulator in one process, so both share one core.
 *
 *  - `getMe`: one validated read per round trip;
 *  - `place+cancel`: ExchangeRestClient.place of one `post` order, then cancelOne of it.
 *
 * Sequential (one call in flight) and with 8 in flight over 4 connections. The client's
 * budget and the server's per-IP limit are lifted: the exchange would cap a client at
 * 50/s, and the figure measured here is the client's overhead, not the contract's limit.
 */
export interface ClientRestFigure {
  readonly call: 'getMe' | 'place+cancel';
  readonly inFlight: number;
  readonly roundTripsPerSecond: number;
  readonly roundTrips: number;
  readonly seconds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

export async function runClientRestBench(options: { seconds?: number } = {}): Promise<ClientRestFigure[]> {
  const seconds = options.seconds ?? 3;
  const sim = await startSimulator({ traders: false, admin: true, seed: 5 });
  sim.context.limits.global.admit = () => ({ ok: true });
  const post = (path: string, body: unknown) =>
    fetch(sim.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(
      (r) => r.json() as Promise<{ data: { game: { id: string; participants: [{ id: string }, { id: string }] } } }>,
    );
  await post('/admin/users', { username: 'bench', password: 'bench-pw', balance: 1e12, commission: 0.01 });
  const game = (
    await post('/admin/games', {
      league: 'NBA',
      sport: 'basketball',
      participants: [
        { longName: 'Away', shortName: 'AW' },
        { longName: 'Home', shortName: 'HO' },
      ],
    })
  ).data.game;
  const client = new ExchangeRestClient({
    baseUrl: sim.url,
    credentials: async () => ({ username: 'bench', password: 'bench-pw' }),
    budget: new RequestBudget({ global: { limit: 1e9, windowMs: 60_000 }, headroom: 1 }),
    connections: 4,
  });
  const home = game.participants[1].id as string;
  const calls = {
    getMe: async () => {
      await client.getMe();
    },
    'place+cancel': async (i: number) => {
      const [e] = await client.place([
        { gameID: game.id, type: 'moneyline', side: home, odds: 150 + (i % 50), bet: 10, orderType: 'post' },
      ]);
      if (e?.status !== 'accepted' || !e.resting) throw new Error(`place failed: ${JSON.stringify(e)}`);
      const c = await client.cancelOne(e.resting.orderID);
      if (!c.ok) throw new Error(`cancel failed: ${c.reason}`);
    },
  } as const;
  const figures: ClientRestFigure[] = [];
  try {
    await client.login();
    for (const call of ['getMe', 'place+cancel'] as const) {
      for (const inFlight of [1, 8]) {
        const fn = calls[call];
        for (let i = 0; i < 300; i++) await fn(i); // warm-up
        const lat: number[] = [];
        let n = 0;
        const t0 = performance.now();
        const end = t0 + seconds * 1000;
        await Promise.all(
          Array.from({ length: inFlight }, async () => {
            while (performance.now() < end) {
              const s = performance.now();
              await fn(n++);
              lat.push(performance.now() - s);
            }
          }),
        );
        const secs = (performance.now() - t0) / 1000;
        figures.push({
          call,
          inFlight,
          roundTrips: lat.length,
          seconds: secs,
          roundTripsPerSecond: lat.length / secs,
          p50Ms: quantile(lat, 0.5),
          p99Ms: quantile(lat, 0.99),
        });
      }
    }
  } finally {
    await client.close();
    await sim.close();
  }
  return figures;
}
