import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { createGame, createUser } from '../src/sim/ops/admin-ops.ts';
import { startSimulator } from '../src/sim/server.ts';

/**
 * Price-feed fan-out: `orderUpdate` messages per second delivered to 10 WebSocket
 * subscribers of `/price-stream` (real `ws` clients on loopback, perMessageDeflate off).
 *
 * The simulator runs in this process (real time, traders off); the 10 clients run in a
 * worker thread so the server's event loop has a core of its own. The engine is driven
 * in-process with post and cancel operations on a shallow book (at most DEPTH resting
 * orders, spread over a few prices on both sides of a moneyline), so every operation
 * changes exactly one side of the book and produces one `orderUpdate` per subscriber.
 *
 * Operations run in small batches, one batch per event-loop turn (the feed corks each
 * socket for a turn, so a batch leaves as one write per socket). The driver keeps at most
 * MAX_IN_FLIGHT frames sent but not yet received, so the figure is the delivered rate a
 * reading client sees, not the rate at which the server can fill its send buffers.
 * Nothing is asserted: figures are printed.
 */
export interface FeedBenchResult {
  readonly subscribers: number;
  readonly seconds: number;
  /** Frames received by all subscribers in the measured window. */
  readonly delivered: number;
  readonly deliveredPerSecond: number;
  readonly perSubscriberMin: number;
  readonly perSubscriberMax: number;
  readonly averageFrameBytes: number;
  /** Engine operations (post or cancel) run in the measured window. */
  readonly operations: number;
  /** Frames expected (operations × subscribers, whole run) that never arrived after draining. */
  readonly missing: number;
  /** Frames that were not `orderUpdate` (there should be none). */
  readonly otherFrames: number;
  readonly goalPerSecond: number;
}

export interface FeedBenchOptions {
  readonly subscribers?: number;
  readonly seconds?: number;
  readonly warmupSeconds?: number;
}

export const FEED_GOAL_MESSAGES_PER_SECOND = 100_000;

const DEPTH = 4;
const BATCH = 40;
const MAX_IN_FLIGHT = 20_000;

interface ClientReport {
  readonly bytes: number;
  readonly frames: number;
  readonly other: number;
}

// The subscribers: plain JavaScript run as a worker. Each counts its frames into shared
// memory (Atomics) so the driver can read progress without messages.
const CLIENT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.wsPath);
const counts = new Int32Array(workerData.counts);
let bytes = 0;
let frames = 0;
let other = 0;
let open = 0;
const sockets = [];
for (let i = 0; i < workerData.subscribers; i++) {
  const ws = new WebSocket(workerData.url, { headers: { authorization: workerData.token }, perMessageDeflate: false });
  sockets.push(ws);
  ws.on('open', () => { if (++open === workerData.subscribers) parentPort.postMessage({ kind: 'open' }); });
  ws.on('error', (e) => parentPort.postMessage({ kind: 'error', message: String(e && e.message || e) }));
  ws.on('message', (data) => {
    Atomics.add(counts, i, 1);
    frames++;
    bytes += data.length;
    // '["orderUpdate",' : the third byte is the 'o'.
    if (data[2] !== 0x6f) other++;
  });
}
parentPort.on('message', (m) => {
  if (m === 'bytes') parentPort.postMessage({ kind: 'bytes', bytes, frames, other });
  if (m === 'close') {
    for (const ws of sockets) ws.close();
    parentPort.postMessage({ kind: 'closed', bytes, frames, other });
  }
});
`;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runSimFeedBench(options: FeedBenchOptions = {}): Promise<FeedBenchResult> {
  const subscribers = options.subscribers ?? 10;
  const measureMs = (options.seconds ?? 5) * 1000;
  const warmupMs = (options.warmupSeconds ?? 1) * 1000;
  const sim = await startSimulator({ traders: false, admin: true, seed: 9 });
  let worker: Worker | undefined;
  try {
    const ctx = sim.context;
    const maker = createUser(ctx, { username: 'feed-maker', password: 'feed-pw', balance: 1e12 });
    const watcher = createUser(ctx, { username: 'feed-watcher', password: 'feed-pw' });
    if (!maker.ok || !watcher.ok) throw new Error('cannot create the benchmark users');
    const made = createGame(ctx, {
      league: 'NBA',
      sport: 'basketball',
      participants: [
        { longName: 'Feed Away', shortName: 'FAW' },
        { longName: 'Feed Home', shortName: 'FHO' },
      ],
    });
    if (!made.ok) throw new Error(made.error);
    const game = made.value;
    const [away, home] = game.participants;
    const login = await fetch(`${sim.url}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'feed-watcher', password: 'feed-pw' }),
    });
    const token = ((await login.json()) as { data: { user: { auth: string } } }).data.user.auth;

    const counts = new Int32Array(new SharedArrayBuffer(4 * subscribers));
    const w = new Worker(CLIENT_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: {
        wsPath: createRequire(import.meta.url).resolve('ws'),
        url: `${sim.url.replace(/^http/, 'ws')}/price-stream`,
        token,
        subscribers,
        counts: counts.buffer,
      },
    });
    worker = w;
    const replies: ((m: { kind: string } & Partial<ClientReport> & { message?: string }) => void)[] = [];
    let failure: string | null = null;
    w.on('message', (m: { kind: string; message?: string }) => {
      if (m.kind === 'error') failure ??= m.message ?? 'socket error';
      else replies.shift()?.(m);
    });
    w.on('error', (e) => (failure ??= String(e)));
    const ask = (m: 'bytes' | 'close' | null) =>
      new Promise<ClientReport>((resolve) => {
        replies.push((r) => resolve({ bytes: r.bytes ?? 0, frames: r.frames ?? 0, other: r.other ?? 0 }));
        if (m) w.postMessage(m);
      });
    await Promise.race([
      ask(null),
      sleep(10_000).then(() => {
        throw new Error(`price-feed subscribers did not connect: ${failure ?? 'timeout'}`);
      }),
    ]);

    const received = () => {
      let sum = 0;
      for (let i = 0; i < subscribers; i++) sum += Atomics.load(counts, i);
      return sum;
    };

    // Makers back home at -110..-114 (listed for away takers at +110..+114) and away at
    // +115..+119 (listed for home takers at -115..-119): never crossing.
    const resting: string[] = [];
    let ops = 0;
    let posted = 0;
    const step = () => {
      if (resting.length >= DEPTH) {
        const id = resting.shift()!;
        const out = ctx.engine.cancel(maker.value.id, id);
        if (!out.success) throw new Error(`cancel failed: ${JSON.stringify(out)}`);
      } else {
        const i = posted++;
        const backHome = (i & 1) === 0;
        const [entry] = ctx.engine.place(maker.value.id, [
          {
            gameID: game.id,
            type: 'moneyline',
            side: backHome ? home.id : away.id,
            odds: backHome ? -(110 + (i % 5)) : 115 + (i % 5),
            bet: 10 + (i % 7),
            orderType: 'post',
          },
        ]);
        if (entry?.status !== 'ok' || !entry.unmatched) throw new Error(`post failed: ${JSON.stringify(entry)}`);
        resting.push(entry.unmatched.orderID);
      }
      ops++;
    };

    const run = async (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end) {
        if (failure) throw new Error(`price-feed subscriber failed: ${failure}`);
        if (ops * subscribers - received() > MAX_IN_FLIGHT) {
          await turn();
          continue;
        }
        for (let i = 0; i < BATCH; i++) step();
        await turn();
      }
    };

    await run(warmupMs);
    const before = await ask('bytes');
    const opsBefore = ops;
    const perBefore = Array.from(counts);
    const t0 = performance.now();
    await run(measureMs);
    const t1 = performance.now();
    const perAfter = Array.from(counts);
    const after = await ask('bytes');
    const opsMeasured = ops - opsBefore;

    // Drain: everything sent should arrive.
    const expected = ops * subscribers;
    for (let waited = 0; received() < expected && waited < 3_000; waited += 10) await sleep(10);
    const missing = expected - received();
    const final = await ask('close');

    const seconds = (t1 - t0) / 1000;
    const perSub = perAfter.map((n, i) => (n - perBefore[i]!) / seconds);
    const delivered = perAfter.reduce((a, b) => a + b, 0) - perBefore.reduce((a, b) => a + b, 0);
    return {
      subscribers,
      seconds,
      delivered,
      deliveredPerSecond: delivered / seconds,
      perSubscriberMin: Math.min(...perSub),
      perSubscriberMax: Math.max(...perSub),
      averageFrameBytes: (after.bytes - before.bytes) / Math.max(1, after.frames - before.frames),
      operations: opsMeasured,
      missing,
      otherFrames: final.other,
      goalPerSecond: FEED_GOAL_MESSAGES_PER_SECOND,
    };
  } finally {
    await worker?.terminate();
    await sim.close();
  }
}
