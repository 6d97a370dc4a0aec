import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Pool } from 'undici';
import { startSimulator } from '../src/sim/server.ts';

/**
 * Simulator REST throughput: place+cancel round trips per second from one local client
 * over keep-alive HTTP (undici Pool, pipelining 1). Each round trip is POST
 * /session/v3/place of one `post` order that does not cross (spread over a few prices)
 * followed by POST /session/cancel of it.
 *
 * The simulator runs in this process on real time with the synthetic traders off. Users
 * and the game are made through the admin API and the client logs in over HTTP, as any
 * client would. The same client code runs in one of two places:
 *  - `thread`: in the server's own thread, so client and server share one core (the
 *    strict "one core" figure; no cross-thread wake-ups);
 *  - `worker`: in a worker thread, so the server has a core of its own and every call
 *    pays a loopback wake-up of the other thread, as a client in another process would.
 *
 * The contract's global limit (3000 requests per rolling 60 s per IP) would cap one
 * client at 50 requests/s; the benchmark measures the server's capacity, so that limiter
 * is lifted for the run (and only for it). Nothing is asserted: figures are printed.
 */
export type ClientPlacement = 'thread' | 'worker';

export interface RestFigure {
  readonly placement: ClientPlacement;
  readonly connections: number;
  readonly roundTrips: number;
  readonly seconds: number;
  readonly roundTripsPerSecond: number;
  /** Latency of one HTTP call (place or cancel), milliseconds. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Calls that did not answer as expected (non-200, rejected place, failed cancel). */
  readonly errors: number;
}

export interface RestBenchResult {
  readonly figures: readonly RestFigure[];
  readonly goalRoundTripsPerSecond: number;
}

export interface RestBenchOptions {
  /** Round trips measured per figure (stops earlier at `maxSeconds`). */
  readonly roundTrips?: number;
  readonly maxSeconds?: number;
  readonly warmupRoundTrips?: number;
  readonly runs?: readonly RestRun[];
}

export interface RestRun {
  readonly placement: ClientPlacement;
  readonly connections: number;
}

export const REST_GOAL_ROUND_TRIPS_PER_SECOND = 5_000;

interface ClientInput {
  readonly url: string;
  readonly token: string;
  readonly gameID: string;
  readonly homeID: string;
  readonly awayID: string;
  readonly connections: number;
  readonly roundTrips: number;
  readonly maxMs: number;
  readonly warmupRoundTrips: number;
}

interface ClientOutput {
  readonly roundTrips: number;
  readonly ms: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly firstError: string | null;
}

/**
 * The client, as the body of an async function of (Pool, d) returning a ClientOutput. It
 * is plain JavaScript so that a worker can run it without a TypeScript loader, and the
 * server's thread runs the very same text. `d.connections` lanes each run place → cancel
 * in sequence on the shared pool.
 */
const CLIENT_BODY = `
const pool = new Pool(d.url, { connections: d.connections, pipelining: 1, keepAliveTimeout: 60_000 });
const headers = { 'content-type': 'application/json', authorization: d.token };
let errors = 0;
let firstError = null;
const fail = (what) => { errors++; if (firstError === null) firstError = what; };

async function call(path, body) {
  const res = await pool.request({ path, method: 'POST', headers, body: JSON.stringify(body) });
  const json = await res.body.json();
  if (res.statusCode !== 200) fail(path + ' ' + res.statusCode + ' ' + JSON.stringify(json));
  return json;
}

async function phase(target, maxMs, lat) {
  let started = 0;
  let done = 0;
  let n = 0;
  const t0 = performance.now();
  const deadline = t0 + maxMs;
  async function lane() {
    while (started < target && performance.now() < deadline) {
      const i = started++;
      // Makers alternate backing home at -110..-114 (listed for away takers at
      // +110..+114) and away at +115..+119 (listed for home takers at -115..-119): a home
      // order would need -114 or better on the home side, an away order +115 or better on
      // the away side, so nothing ever crosses, even with several lanes resting at once.
      const home = (i & 1) === 0;
      const odds = home ? -(110 + (i % 5)) : 115 + (i % 5);
      const order = { gameID: d.gameID, type: 'moneyline', side: home ? d.homeID : d.awayID, odds, bet: 10 + (i % 7), orderType: 'post' };
      let a = performance.now();
      const placed = await call('/session/v3/place', { orders: [order] });
      let b = performance.now();
      if (lat) lat[n++] = b - a;
      const entry = placed && placed.data && placed.data.createdSessions && placed.data.createdSessions[0];
      const id = entry && entry.unmatched && entry.unmatched.orderID;
      if (!id) { fail('place: ' + JSON.stringify(placed)); continue; }
      a = performance.now();
      const cancelled = await call('/session/cancel', { sessionID: id });
      b = performance.now();
      if (lat) lat[n++] = b - a;
      if (!(cancelled && cancelled.data && cancelled.data.success === true)) fail('cancel: ' + JSON.stringify(cancelled));
      done++;
    }
  }
  const lanes = [];
  for (let k = 0; k < d.connections; k++) lanes.push(lane());
  await Promise.all(lanes);
  return { done, ms: performance.now() - t0, n };
}

await phase(d.warmupRoundTrips, 30_000, null);
errors = 0;
firstError = null;
const lat = new Float64Array(2 * d.roundTrips + 8);
const r = await phase(d.roundTrips, d.maxMs, lat);
const sorted = lat.subarray(0, r.n).sort();
const q = (p) => (r.n === 0 ? NaN : sorted[Math.min(r.n - 1, Math.floor(p * r.n))]);
await pool.close();
return { roundTrips: r.done, ms: r.ms, p50Ms: q(0.5), p99Ms: q(0.99), errors, firstError };
`;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Pool } = require(workerData.undiciPath);
const run = async (Pool, d) => {${CLIENT_BODY}};
run(Pool, workerData.input).then(
  (out) => parentPort.postMessage(out),
  (e) => parentPort.postMessage({ roundTrips: 0, ms: 0, p50Ms: NaN, p99Ms: NaN, errors: 1, firstError: String((e && e.stack) || e) }),
);
`;

type ClientFn = (pool: typeof Pool, d: ClientInput) => Promise<ClientOutput>;
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => ClientFn;

function runInWorker(input: ClientInput): Promise<ClientOutput> {
  return new Promise((resolve, reject) => {
    // A clean execArgv: the client is plain JavaScript and needs no loader.
    const undiciPath = createRequire(import.meta.url).resolve('undici');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { undiciPath, input }, execArgv: [] });
    let answered = false;
    worker.once('message', (m: ClientOutput) => {
      answered = true;
      resolve(m);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`REST client worker exited with code ${code} before reporting`));
    });
  });
}

function runClient(placement: ClientPlacement, input: ClientInput): Promise<ClientOutput> {
  return placement === 'worker' ? runInWorker(input) : new AsyncFunction('Pool', 'd', CLIENT_BODY)(Pool, input);
}

/** An admin or login answer, its shape as the caller states it (the bench's own setup, not under test). */
async function post<T>(url: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

export async function runSimRestBench(options: RestBenchOptions = {}): Promise<RestBenchResult> {
  const roundTrips = options.roundTrips ?? 20_000;
  const maxMs = (options.maxSeconds ?? 5) * 1000;
  const warmupRoundTrips = options.warmupRoundTrips ?? 2_000;
  const sim = await startSimulator({ traders: false, admin: true, seed: 7 });
  try {
    // Lift the per-IP limit (see the comment at the top): the server's capacity is measured.
    sim.context.limits.global.admit = () => ({ ok: true });

    await post<unknown>(sim.url, '/admin/users', {
      username: 'bench-maker',
      password: 'bench-pw',
      balance: 1e12,
      commission: 0.01,
    });
    const made = await post<{ data: { game: { id: string; participants: [{ id: string }, { id: string }] } } }>(
      sim.url,
      '/admin/games',
      {
        league: 'NBA',
        sport: 'basketball',
        participants: [
          { longName: 'Bench Away', shortName: 'BAW' },
          { longName: 'Bench Home', shortName: 'BHO' },
        ],
      },
    );
    const game = made.data.game;
    const login = await post<{ data: { user: { auth: string } } }>(sim.url, '/user/login', {
      username: 'bench-maker',
      password: 'bench-pw',
    });
    const token = login.data.user.auth;

    const figures: RestFigure[] = [];
    const runs: readonly RestRun[] = options.runs ?? [
      { placement: 'thread', connections: 1 },
      { placement: 'worker', connections: 1 },
      { placement: 'worker', connections: 4 },
    ];
    for (const { placement, connections } of runs) {
      const out = await runClient(placement, {
        url: sim.url,
        token,
        gameID: game.id,
        awayID: game.participants[0].id,
        homeID: game.participants[1].id,
        connections,
        roundTrips,
        maxMs,
        warmupRoundTrips,
      });
      if (out.firstError !== null && out.roundTrips === 0) throw new Error(`REST client failed: ${out.firstError}`);
      if (out.firstError !== null)
        console.error(`sim REST (${placement}, ${connections} connections): first error: ${out.firstError}`);
      figures.push({
        placement,
        connections,
        roundTrips: out.roundTrips,
        seconds: out.ms / 1000,
        roundTripsPerSecond: out.roundTrips / (out.ms / 1000),
        p50Ms: out.p50Ms,
        p99Ms: out.p99Ms,
        errors: out.errors,
      });
    }
    return { figures, goalRoundTripsPerSecond: REST_GOAL_ROUND_TRIPS_PER_SECOND };
  } finally {
    await sim.close();
  }
}
