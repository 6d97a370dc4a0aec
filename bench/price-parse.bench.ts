import { WebSocket } from 'ws';
import { createPriceFrameParser, type PriceParseMode } from '../src/exchange/socket/price-parse.ts';
import { createUser } from '../src/sim/ops/admin-ops.ts';
import { startSimulator } from '../src/sim/server.ts';
import { manualTime, settleEventLoop } from '../src/shared/time.ts';

/**
 * Price-feed parsing on one core: frames into typed events, as the price feed client does
 * per frame (JSON.parse, tuple check, shape check of the payload, event object).
 *
 * The frames are real: the simulator runs its synthetic market (default scenario, traders
 * on, manual clock driven in 5 s steps) and a `ws` subscriber of `/price-stream` records
 * what it is sent. Parsing then runs synchronously over the recorded strings, in rounds
 * that alternate the modes; each mode's figure is the median round. Nothing is asserted.
 *
 * Modes: `json` (JSON.parse alone, the floor), `zod` (schema safeParse), `compiled`
 * (z.compile'd schema safeParse), `fast` (what the client uses: hand-written guards for
 * orderUpdate / matchedVolumeUpdate, compiled assert-only validation for gameUpdate).
 */
export interface PriceParseFigure {
  readonly mode: 'json' | PriceParseMode;
  readonly messagesPerSecond: number;
  readonly nsPerMessage: number;
  /** Frames accepted as events in one pass (all of them for the parsing modes). */
  readonly accepted: number;
}

export interface PriceParseBenchResult {
  /** Distinct recorded frames parsed per pass. */
  readonly frames: number;
  readonly averageFrameBytes: number;
  readonly mix: Readonly<Record<string, number>>;
  /** Wall time spent running the market and recording, s. */
  readonly recordSeconds: number;
  readonly rounds: number;
  /** json, zod, compiled, fast, in that order. */
  readonly figures: readonly PriceParseFigure[];
  readonly zodPerSecond: number;
  readonly compiledPerSecond: number;
  readonly fastPerSecond: number;
  readonly goalPerSecond: number;
  readonly goalMet: boolean;
}

export interface PriceParseBenchOptions {
  /** Frames to record (default 10,000). */
  readonly frames?: number;
  /** Timed rounds per mode (default 7). */
  readonly rounds?: number;
  /** Simulator seed (default 3). */
  readonly seed?: number;
}

export const PRICE_PARSE_GOAL_PER_SECOND = 200_000;

export async function runPriceParseBench(options: PriceParseBenchOptions = {}): Promise<PriceParseBenchResult> {
  const started = performance.now();
  const frames = await recordFrames(options.frames ?? 10_000, options.seed ?? 3);
  const recordSeconds = (performance.now() - started) / 1000;
  const rounds = options.rounds ?? 7;

  const parsers: { mode: PriceParseFigure['mode']; run: (text: string) => boolean }[] = [
    { mode: 'json', run: (text) => JSON.parse(text) !== undefined },
    ...(['zod', 'compiled', 'fast'] as const).map((mode) => {
      const parse = createPriceFrameParser(mode);
      return { mode, run: (text: string) => parse(text).ok };
    }),
  ];
  const pass = (run: (text: string) => boolean) => {
    let ok = 0;
    for (let i = 0; i < frames.length; i++) if (run(frames[i]!)) ok++;
    return ok;
  };
  for (const p of parsers) for (let w = 0; w < 3; w++) pass(p.run); // JIT warm-up
  const samples = new Map<PriceParseFigure['mode'], number[]>(parsers.map((p) => [p.mode, []]));
  const accepted = new Map<PriceParseFigure['mode'], number>();
  for (let r = 0; r < rounds; r++) {
    for (const p of parsers) {
      const t0 = performance.now();
      const ok = pass(p.run) + pass(p.run);
      const ms = performance.now() - t0;
      samples.get(p.mode)!.push((2 * frames.length) / (ms / 1000));
      accepted.set(p.mode, ok / 2);
    }
  }
  const figures = parsers.map(({ mode }) => {
    const perSecond = median(samples.get(mode)!);
    return { mode, messagesPerSecond: perSecond, nsPerMessage: 1e9 / perSecond, accepted: accepted.get(mode) ?? 0 };
  });
  const rate = (mode: PriceParseFigure['mode']) => figures.find((f) => f.mode === mode)!.messagesPerSecond;
  const mix: Record<string, number> = {};
  let bytes = 0;
  for (const f of frames) {
    bytes += Buffer.byteLength(f);
    const type = (JSON.parse(f) as [string])[0];
    mix[type] = (mix[type] ?? 0) + 1;
  }
  return {
    frames: frames.length,
    averageFrameBytes: bytes / frames.length,
    mix,
    recordSeconds,
    rounds,
    figures,
    zodPerSecond: rate('zod'),
    compiledPerSecond: rate('compiled'),
    fastPerSecond: rate('fast'),
    goalPerSecond: PRICE_PARSE_GOAL_PER_SECOND,
    goalMet: rate('fast') >= PRICE_PARSE_GOAL_PER_SECOND,
  };
}

/** Run the synthetic market on a manual clock and keep what a price-feed subscriber receives. */
async function recordFrames(count: number, seed: number): Promise<string[]> {
  const time = manualTime();
  const sim = await startSimulator({ time, traders: true, seed });
  const ws = await subscriber(sim.url, sim.context);
  const frames: string[] = [];
  ws.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
  try {
    // A day of market time is far more than needed; the cap only guards a quiet scenario.
    for (let step = 0; step < 17_280 && frames.length < count; step++) {
      await time.advanceToSettling(time.clock.now() + 5_000, settleEventLoop);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    ws.terminate();
    await sim.close();
  }
  return frames.slice(0, count);
}

async function subscriber(url: string, ctx: Parameters<typeof createUser>[0]): Promise<WebSocket> {
  const made = createUser(ctx, { username: 'parse-bench', password: 'parse-bench-pw' });
  if (!made.ok) throw new Error(made.error);
  const login = await fetch(`${url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'parse-bench', password: 'parse-bench-pw' }),
  });
  const token = ((await login.json()) as { data: { user: { auth: string } } }).data.user.auth;
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/price-stream`, {
    headers: { authorization: token },
    perMessageDeflate: false,
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
