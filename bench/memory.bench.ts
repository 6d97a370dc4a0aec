import { runJsonChild } from './child.ts';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { builtInStrategyResolver } from '../src/app/strategy-registry.ts';
import { loadConfig } from '../src/config/index.ts';
import { manualTime } from '../src/shared/time.ts';
import { startBot, type Bot } from './memory/bot.ts';
import { fullGc } from './memory/gc.ts';
import { startMarket } from './memory/market.ts';
import { summarize, type MemorySample, type MemorySummary } from './memory/samples.ts';
import { startSimProcess } from './memory/sim-process.ts';
import type { MatchingEngine } from '../src/engine/engine.ts';

/**
 * Memory over a long paper run: the simulator's synthetic market with `games` concurrent
 * games (each replaced when it ends), linesmith quoting them with the strategies of
 * config/example.yaml through the exchange client, order manager and risk checks, on a
 * virtual clock run as fast as the machine allows. Every `sampleMinutes` of market time: a
 * full GC and a moment of idle wall time, twice (a real-time bot is idle between events; a
 * compressed run never is, and V8 and the allocator keep what its bursts made them take),
 * then the process's resident memory and V8 heap in use. The summary reads the samples
 * after the warm-up; the high-water mark covers the whole run.
 *
 * `split` (default) runs the simulator in a process of its own, so the figure is
 * linesmith's memory alone, as against the real exchange; `in-process` runs both in this
 * process, as `linesmith paper` does.
 */
export interface MemoryBenchOptions {
  readonly hours?: number;
  readonly games?: number;
  readonly warmupHours?: number;
  readonly sampleMinutes?: number;
  readonly mode?: 'split' | 'in-process';
  /** Market time per step of the simulator's clock in split mode, ms (default 1 000). */
  readonly stepMs?: number;
  readonly config?: string;
  /** Wall time to stay idle before each sample (half after each of two full GCs), ms; default 1 000. */
  readonly quiesceMs?: number;
  /** Called with every sample as it is taken. */
  readonly onSample?: (s: MemorySample, counters: RunCounters) => void;
}

export interface RunCounters {
  /** Games in linesmith's market model (open ones, and ended ones it still keeps). */
  readonly modelGames: number;
  readonly quotedGames: number;
  readonly openOrders: number;
  readonly placesSent: number;
  readonly cancelsSent: number;
  readonly fills: number;
  /** Orders in linesmith's own book (live, and closed ones it still keeps). */
  readonly ownOrders: number;
  /** What the simulator's engine holds, when it runs in this process. */
  readonly simRetained: {
    readonly games: number;
    readonly orders: number;
    readonly fills: number;
    readonly gradeVersions: number;
  } | null;
}

export interface MemoryBenchResult {
  readonly mode: 'split' | 'in-process';
  readonly games: number;
  readonly hours: number;
  readonly warmupHours: number;
  readonly sampleMinutes: number;
  readonly wallSeconds: number;
  readonly samples: readonly MemorySample[];
  readonly summary: MemorySummary;
  /** The operating system's high-water mark of this process's resident memory, warm-up included. */
  readonly maxRss: number;
  readonly counters: RunCounters;
  readonly openOrdersLeft: number;
  readonly goalRss: number;
  readonly goalGrowthPct: number;
}

const root = resolve(fileURLToPath(import.meta.url), '../..');
const START = Date.UTC(2026, 0, 15, 12);

function countersOf(bot: Bot, sim: MatchingEngine | null): RunCounters {
  const st = bot.runtime.status();
  const ownOrders = [...bot.runtime.own.allOrders()].length;
  return {
    modelGames: st.games,
    quotedGames: st.quotedGames,
    openOrders: st.openOrders,
    placesSent: st.orders.placesSent,
    cancelsSent: st.orders.cancelsSent,
    fills: st.fills,
    ownOrders,
    simRetained: sim?.retainedCounts() ?? null,
  };
}

export async function runMemoryBench(o: MemoryBenchOptions = {}): Promise<MemoryBenchResult> {
  const hours = o.hours ?? 6;
  const games = o.games ?? 200;
  const warmupHours = o.warmupHours ?? Math.min(1, hours / 4);
  const sampleMinutes = o.sampleMinutes ?? 15;
  const mode = o.mode ?? 'split';
  const stepMs = o.stepMs ?? 1_000;
  const quiesceMs = o.quiesceMs ?? 1_000;
  const config = await loadConfig(o.config ?? resolve(root, 'config/example.yaml'), {
    resolveStrategy: builtInStrategyResolver(),
  });
  const market = {
    games,
    seed: config.paper?.seed ?? 7,
    balance: 1_000_000,
    commission: config.paper?.commission ?? 0.01,
  };
  const gc = fullGc();
  const time = manualTime(START);
  const wall0 = performance.now();

  let bot: Bot;
  let advance: (to: number) => Promise<void>;
  let simMemory: () => Promise<{ rss: number; heapUsed: number } | null>;
  let closeSim: () => Promise<void>;
  let simEngine: MatchingEngine | null = null;
  if (mode === 'split') {
    const sim = await startSimProcess({ ...market, startMs: START });
    closeSim = () => sim.close();
    try {
      bot = await startBot({ url: sim.url, credentials: sim.credentials, time, config, games, parkedAfterMs: 20 });
    } catch (err) {
      await sim.close();
      throw err;
    }
    // The simulator's clock leads by one step; the bot then visits every instant of its own up to it.
    advance = async (to) => {
      await sim.advanceTo(to);
      await bot.settle();
      await time.advanceToSettling(to, bot.settle);
    };
    simMemory = () => sim.memory();
  } else {
    const m = await startMarket({ ...market, time });
    closeSim = () => m.sim.close();
    simEngine = m.sim.context.engine;
    try {
      bot = await startBot({ url: m.sim.url, credentials: m.credentials, time, config, games });
    } catch (err) {
      await m.sim.close();
      throw err;
    }
    advance = (to) => time.advanceToSettling(to, bot.settle);
    simMemory = async () => null;
  }

  const durationMs = hours * 3_600_000;
  const warmupMs = warmupHours * 3_600_000;
  const sampleMs = sampleMinutes * 60_000;
  const samples: MemorySample[] = [];
  let openOrdersLeft: number;
  try {
    let nextSample = sampleMs;
    for (let at = 0; at < durationMs;) {
      at = Math.min(at + stepMs, durationMs, nextSample);
      await advance(START + at);
      if (at === nextSample) {
        // A full GC, then idle wall time, as a bot between events is: V8 and the allocator
        // hand back what the burst of a compressed run made them hold; again, because a
        // collection itself takes pages that its sweeper threads give back a moment later.
        for (let round = 0; round < 2; round++) {
          gc();
          await new Promise((done) => setTimeout(done, quiesceMs / 2));
        }
        const u = process.memoryUsage();
        const sim = await simMemory();
        const sample: MemorySample = {
          atMs: at,
          rss: u.rss,
          heapUsed: u.heapUsed,
          heapTotal: u.heapTotal,
          external: u.external,
          simRss: sim?.rss ?? null,
          simHeapUsed: sim?.heapUsed ?? null,
        };
        samples.push(sample);
        o.onSample?.(sample, countersOf(bot, simEngine));
        nextSample += sampleMs;
      }
    }
    openOrdersLeft = await bot.stop(advance);
  } finally {
    await bot.close();
    await closeSim();
  }
  return {
    mode,
    games,
    hours,
    warmupHours,
    sampleMinutes,
    wallSeconds: (performance.now() - wall0) / 1000,
    samples,
    summary: summarize(
      samples.filter((x) => x.atMs >= warmupMs),
      durationMs,
    ),
    maxRss: process.resourceUsage().maxRSS * 1024,
    counters: countersOf(bot, simEngine),
    openOrdersLeft,
    goalRss: 200 * 2 ** 20,
    goalGrowthPct: 5,
  };
}

/** The memory run in a fresh process (this file as a script), so nothing measured before it counts; its progress goes to stderr. */
export async function runMemoryBenchInChild(o: MemoryRunOptions): Promise<MemoryBenchResult> {
  const args = [
    '--json',
    '--hours',
    String(o.hours),
    '--games',
    String(o.games),
    '--mode',
    o.mode,
    '--sample',
    String(o.sampleMinutes),
  ];
  if (o.warmupHours !== undefined) args.push('--warmup', String(o.warmupHours));
  return runJsonChild<MemoryBenchResult>('memory', fileURLToPath(import.meta.url), args, ['--expose-gc']);
}

interface MemoryRunOptions {
  readonly hours: number;
  readonly games: number;
  readonly mode: 'split' | 'in-process';
  readonly sampleMinutes: number;
  readonly warmupHours?: number;
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;

function printSample(s: MemorySample, c: RunCounters): void {
  const sim = s.simRss !== null ? `  simulator rss ${mb(s.simRss)} heap ${mb(s.simHeapUsed ?? 0)}` : '';
  const held = c.simRetained
    ? `  simulator holds ${c.simRetained.games} games, ${c.simRetained.orders} orders, ` +
      `${c.simRetained.fills} fills, ${c.simRetained.gradeVersions} grade versions`
    : '';
  process.stderr.write(
    `${(s.atMs / 60_000).toFixed(0).padStart(4)} min  rss ${mb(s.rss)}  heap ${mb(s.heapUsed)} of ${mb(s.heapTotal)}${sim}  ` +
      `external ${mb(s.external)}  games ${c.modelGames} (quoted ${c.quotedGames})  open ${c.openOrders}  ` +
      `own book ${c.ownOrders} orders  sent ${c.placesSent}/${c.cancelsSent}  fills ${c.fills}${held}\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      hours: { type: 'string', default: '6' },
      games: { type: 'string', default: '200' },
      warmup: { type: 'string' },
      sample: { type: 'string', default: '15' },
      mode: { type: 'string', default: 'split' },
      json: { type: 'boolean', default: false },
    },
  });
  const mode = values.mode;
  if (mode !== 'split' && mode !== 'in-process') throw new Error(`--mode is split or in-process, not ${mode}`);
  const options: MemoryRunOptions = {
    hours: Number(values.hours),
    games: Number(values.games),
    sampleMinutes: Number(values.sample),
    mode,
    ...(values.warmup !== undefined ? { warmupHours: Number(values.warmup) } : {}),
  };
  const result = await runMemoryBench({ ...options, onSample: printSample });
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    const s = result.summary;
    process.stdout.write(
      `memory (${result.mode}, ${result.games} games, ${result.hours} h of market time in ${result.wallSeconds.toFixed(0)} s): ` +
        `peak rss ${mb(s.peakRss)}, middle ${mb(s.middleRss)}, end ${mb(s.endRss)}, second-half growth ${s.rssGrowthPct.toFixed(1)}% ` +
        `(heap ${mb(s.middleHeap)} → ${mb(s.endHeap)}, ${s.heapGrowthPct.toFixed(1)}%); high-water ${mb(result.maxRss)}` +
        `${s.peakSimRss !== null ? `; simulator process peak ${mb(s.peakSimRss)}` : ''}; ${result.openOrdersLeft} open orders left\n`,
    );
  }
}
