import { runReplayJsonChild, runsAsScript } from './child.ts';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { applyReplayHeapSettings } from '../src/app/replay-heap.ts';
import { builtInStrategyResolver } from '../src/app/strategy-registry.ts';
import { runBacktest, runBacktestBuilding } from '../src/app/backtest-run.ts';
import { findTape, openTape } from '../src/backtest/tape/cache.ts';
import { runSweep, sweepGrid, sweepRuns, variantLabel } from '../src/app/sweep.ts';
import { minimalRead } from '../src/backtest/tape/minimal-read.ts';
import { recordingFiles, inTimeOrder } from '../src/record/reader.ts';
import { loadConfig } from '../src/config/index.ts';
import { silentLogger } from '../src/shared/logger.ts';
import { StreamedRows } from '../src/app/streamed-rows.ts';
import { writeReport } from '../src/backtest/report/write.ts';
import type { BacktestResult } from '../src/backtest/report/types.ts';
import { runVenueActionBench, type VenueActionFigure } from './venue-actions.ts';

/**
 * Backtest throughput against the floor of reading the recording: a minimal read (gunzip +
 * split + JSON.parse, nothing else) of the same files, measured in the same run. Per config:
 * the first run (its tape built) and later runs (the tape reused), each whole backtest
 * (getting the events + the replay) ÷ the minimal read, and the replay's events/s. Beside
 * them: the tape read alone (open, checksums, every chunk decoded) in events/s and ÷ the
 * minimal read. Each config first replays its tape until the rate stops climbing (V8 compiles
 * the hot paths over the first replays: a 27k-event replay of fixed-spread ran at 10k, 17k,
 * 26k, 34k, 37k, 43k events/CPU-s over its first six), since the goals are for a warm replay,
 * as a research run over months of data is for all but its first seconds; the first of those
 * replays is reported as the cold rate. Each figure is then the best of `runs` runs.
 */
export interface BacktestBenchFigure {
  readonly config: string;
  readonly events: number;
  /** First run: recording hashed and the cache checked (ms), then replayed while its tape is built in the same pass (ms). */
  readonly buildMs: number;
  readonly firstReplayMs: number;
  /** Later runs: tape opened and checked (ms), replayed (ms); best of the runs. */
  readonly openMs: number;
  readonly replayMs: number;
  readonly eventsPerSecond: number;
  /** (build + replay) / minimal read. */
  readonly firstRatio: number;
  /** (open + replay) / minimal read. */
  readonly laterRatio: number;
  /**
   * The same two ratios in CPU time of the process (best of the runs each): steadier than
   * wall time on a shared machine, where the neighbours' load counts in every wall figure.
   * A build on a thread of its own counts both threads here.
   */
  readonly firstRatioCpu: number;
  readonly laterRatioCpu: number;
  /**
   * The first run's ratio in CPU time of the replay's thread alone (best of the runs; NaN where
   * the system does not tell a thread's CPU time): with the build on a thread of its own, what
   * the first run costs where a second core is free, as long as the build thread keeps ahead.
   */
  readonly firstRatioReplayThreadCpu: number;
  /** Whether the first run read and encoded on a thread of its own (`BUILD_THREAD_MIN_BYTES`). */
  readonly buildThread: boolean;
  /** Replays of the tape before the measured runs (`warmUp`), and the first one's events/s: the cold rate. */
  readonly warmUpReplays: number;
  readonly coldEventsPerSecond: number;
}

/** Warm-up replays: at least this many, at most `WARM_UP_MAX`, until `WARM_UP_FLAT` in a row gain under 3% on the best. */
export const WARM_UP_MIN = 4;
export const WARM_UP_MAX = 16;
export const WARM_UP_FLAT = 3;

/**
 * When warm-up stops, given the events/s of the replays so far: once at least `WARM_UP_MIN`
 * ran and the last `WARM_UP_FLAT` each stayed within 3% of the best before them, or at
 * `WARM_UP_MAX`.
 */
export function warmedUp(rates: readonly number[]): boolean {
  if (rates.length >= WARM_UP_MAX) return true;
  if (rates.length < Math.max(WARM_UP_MIN, WARM_UP_FLAT + 1)) return false;
  const before = Math.max(...rates.slice(0, rates.length - WARM_UP_FLAT));
  return rates.slice(-WARM_UP_FLAT).every((r) => r < before * 1.03);
}

export interface BacktestBenchResult {
  readonly recording: string;
  readonly runs: number;
  readonly events: number;
  /** The minimal read of the recording, best of the runs: gunzip + split + JSON.parse. */
  readonly minimalReadMs: number;
  /** Its CPU time, best of the runs. */
  readonly minimalReadCpuMs: number;
  readonly minimalLines: number;
  /** The tape read alone, best of the runs: open, verify, decode every chunk. */
  readonly tapeReadMs: number;
  /** Its CPU time, best of the runs. */
  readonly tapeReadCpuMs: number;
  readonly tapeBytes: number;
  readonly figures: readonly BacktestBenchFigure[];
  /** fixed-spread's goal; the example config's is goalExampleEventsPerSecond (issue 20's table). */
  readonly goalEventsPerSecond: number;
  readonly goalExampleEventsPerSecond: number;
  readonly goalQuietEventsPerSecond: number;
  readonly goalFirstRatio: number;
  readonly goalLaterRatio: number;
  /** CPU µs per place or cancel through the simulated venue, each boundary, and the engine alone (bench/venue-actions.ts). */
  readonly venueActions: readonly VenueActionFigure[];
  readonly goalUsPerAction: number;
}

/** The events/s goal of one config's replay (issue 20's table): the quiet strategy's, the example config's, or fixed-spread's. */
export function replayGoalOf(b: BacktestBenchResult, config: string): number {
  if (config === 'backtest-quiet.yaml') return b.goalQuietEventsPerSecond;
  return config === 'example.yaml' ? b.goalExampleEventsPerSecond : b.goalEventsPerSecond;
}

const root = resolve(fileURLToPath(import.meta.url), '../..');
export const BACKTEST_RECORDING = resolve(root, 'backtest/data/paper-seed7');
export const QUIET_CONFIG = resolve(root, 'bench/backtest-quiet.yaml');
export const BACKTEST_CONFIGS = [
  resolve(root, 'test/backtest/golden/fixed-spread.yaml'),
  resolve(root, 'config/example.yaml'),
  QUIET_CONFIG,
];
/** Where scripts/make-large-recording.sh records the ≥ 1M-event sample. */
export const LARGE_RECORDING = resolve(root, '.cache/large-recording/feed');

/** CPU ms of this process (every thread) since `c0`. */
function cpuMs(c0: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1000;
}

/** CPU ms of this thread so far, from Linux's per-thread accounting (10 ms ticks); NaN elsewhere. */
function threadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The main step's ratios, one line per config and one for the tape read alone, for a person reading the step's output. */
export function ratioLines(b: BacktestBenchResult): string[] {
  const tapeRead =
    `tape read alone (open, checksums, every chunk decoded): ${Math.round((b.events / b.tapeReadCpuMs) * 1000)} events/CPU-s, ` +
    `${(b.tapeReadCpuMs / b.minimalReadCpuMs).toFixed(2)}x the minimal read in CPU (${b.minimalReadCpuMs.toFixed(0)} ms)`;
  const configs = b.figures.map(
    (f) =>
      `${f.config}: first run ${f.firstRatio.toFixed(2)}x the minimal read (CPU ${f.firstRatioCpu.toFixed(2)}x` +
      `${f.buildThread ? `, build thread; the replay's thread ${f.firstRatioReplayThreadCpu.toFixed(2)}x` : ''}), later runs ${f.laterRatio.toFixed(2)}x (CPU ${f.laterRatioCpu.toFixed(2)}x); ` +
      `goals ≤ ${b.goalFirstRatio} and ≤ ${b.goalLaterRatio}`,
  );
  return [...configs, tapeRead];
}

async function filesOf(recording: string): Promise<string[]> {
  return inTimeOrder(await recordingFiles([recording]));
}

/** The tape read alone: open, verify the checksums, decode every chunk. */
async function tapeRead(
  recording: string,
  dir: string,
): Promise<{ ms: number; cpuMs: number; events: number; bytes: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const { tape } = await openTape([recording], { dir });
  let events = 0;
  for await (const c of tape.chunks()) events += c.length;
  return { ms: performance.now() - t0, cpuMs: cpuMs(c0), events, bytes: tape.size };
}

/** Replays `config` from the recording's tape (built if absent) until `warmedUp`; the events/s of each replay, first to last. */
async function warmUp(
  config: Awaited<ReturnType<typeof loadConfig>>,
  recording: string,
  dir: string,
  logger: ReturnType<typeof silentLogger>,
): Promise<number[]> {
  const rates: number[] = [];
  while (!warmedUp(rates)) {
    const { tape } = await openTape([recording], { dir });
    const t0 = performance.now();
    const res = await runBacktest({ config, tape, logger });
    rates.push((res.events / (performance.now() - t0)) * 1000);
  }
  return rates;
}

export async function runBacktestBench(
  options: {
    runs?: number;
    recording?: string;
    configs?: readonly string[];
    venueActions?: boolean;
    thread?: 'auto' | 'main' | 'worker';
  } = {},
): Promise<BacktestBenchResult> {
  const runs = options.runs ?? 3;
  const recording = options.recording ?? BACKTEST_RECORDING;
  const files = await filesOf(recording);
  const logger = silentLogger();
  const dir = mkdtempSync(join(tmpdir(), 'ls-bench-tape-'));
  try {
    let minimal = { ms: Infinity, lines: 0 };
    let minimalCpuMs = Infinity;
    for (let r = 0; r < runs; r++) {
      const c0 = process.cpuUsage();
      const m = await minimalRead(files);
      minimalCpuMs = Math.min(minimalCpuMs, cpuMs(c0));
      if (m.ms < minimal.ms) minimal = { ms: m.ms, lines: m.lines };
    }
    const figures: BacktestBenchFigure[] = [];
    let tapeReadMs = Infinity;
    let tapeReadCpuMs = Infinity;
    let tapeBytes = 0;
    let events = 0;
    for (const path of options.configs ?? BACKTEST_CONFIGS) {
      const config = await loadConfig(path, { resolveStrategy: builtInStrategyResolver() });
      let buildMs = Infinity;
      let firstReplayMs = Infinity;
      let openMs = Infinity;
      let replayMs = Infinity;
      let firstCpuMs = Infinity;
      let firstThreadCpuMs = Infinity;
      let laterCpuMs = Infinity;
      let buildThread = false;
      const warm = await warmUp(config, recording, dir, logger);
      for (let r = 0; r < runs; r++) {
        // First run: no tape; it is built as the replay reads the recording (one pass).
        const c0 = process.cpuUsage();
        const th0 = threadCpuMs();
        const t0 = performance.now();
        const found = await findTape([recording], {
          dir,
          rebuild: true,
          ...(options.thread !== undefined ? { thread: options.thread } : {}),
        });
        if (!('build' in found)) throw new Error('a rebuild was asked for, yet the tape was reused');
        const t1 = performance.now();
        const first = await runBacktestBuilding({ config, logger }, found.build);
        const t2 = performance.now();
        firstCpuMs = Math.min(firstCpuMs, cpuMs(c0));
        firstThreadCpuMs = Math.min(firstThreadCpuMs, threadCpuMs() - th0);
        buildThread = found.build.onThread;
        // Later run: the tape is reused.
        const c2 = process.cpuUsage();
        const reused = await openTape([recording], { dir });
        if (reused.built !== null) throw new Error('the tape just built was not reused');
        const t3 = performance.now();
        await runBacktest({ config, tape: reused.tape, logger });
        const t4 = performance.now();
        laterCpuMs = Math.min(laterCpuMs, cpuMs(c2));
        buildMs = Math.min(buildMs, t1 - t0);
        firstReplayMs = Math.min(firstReplayMs, t2 - t1);
        openMs = Math.min(openMs, t3 - t2);
        replayMs = Math.min(replayMs, t4 - t3);
        events = first.events;
        const read = await tapeRead(recording, dir);
        tapeReadMs = Math.min(tapeReadMs, read.ms);
        tapeReadCpuMs = Math.min(tapeReadCpuMs, read.cpuMs);
        tapeBytes = read.bytes;
      }
      figures.push({
        config: basename(path),
        events,
        buildMs,
        firstReplayMs,
        openMs,
        replayMs,
        eventsPerSecond: (events / replayMs) * 1000,
        firstRatio: (buildMs + firstReplayMs) / minimal.ms,
        laterRatio: (openMs + replayMs) / minimal.ms,
        firstRatioCpu: firstCpuMs / minimalCpuMs,
        laterRatioCpu: laterCpuMs / minimalCpuMs,
        firstRatioReplayThreadCpu: firstThreadCpuMs / minimalCpuMs,
        buildThread,
        warmUpReplays: warm.length,
        coldEventsPerSecond: warm[0]!,
      });
    }
    return {
      recording: basename(recording),
      runs,
      events,
      minimalReadMs: minimal.ms,
      minimalReadCpuMs: minimalCpuMs,
      minimalLines: minimal.lines,
      tapeReadMs,
      tapeReadCpuMs,
      tapeBytes,
      figures,
      goalEventsPerSecond: 150_000,
      goalExampleEventsPerSecond: 300_000,
      goalQuietEventsPerSecond: 1_000_000,
      goalFirstRatio: 2,
      goalLaterRatio: 1,
      venueActions: options.venueActions === false ? [] : await runVenueActionBench(),
      goalUsPerAction: 5,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where a process's memory is, bytes: resident set, V8's heap (committed) and its spaces, memory outside it (`process.memoryUsage`). */
export interface MemoryBreakdown {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly newSpace: number;
  readonly oldSpace: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

export function memoryBreakdown(): MemoryBreakdown {
  const m = process.memoryUsage();
  const space = (name: string) => getHeapSpaceStatistics().find((s) => s.space_name === name)?.space_size ?? 0;
  return {
    rss: m.rss,
    heapTotal: m.heapTotal,
    heapUsed: m.heapUsed,
    newSpace: space('new_space'),
    oldSpace: space('old_space'),
    external: m.external,
    arrayBuffers: m.arrayBuffers,
  };
}

/** Replaying the large recording (made by scripts/make-large-recording.sh): its tape, then the quiet strategy over it, and the process's max RSS. */
export interface LargeReplayResult {
  readonly recording: string;
  /** The config's file name. */
  readonly config: string;
  readonly events: number;
  /** Orders placed and fills, from the report: what the replay's rows grow with. */
  readonly placed: number;
  readonly fills: number;
  readonly tapeBytes: number;
  /** Building (or reusing) its tape, ms; whether it was built. */
  readonly tapeMs: number;
  readonly built: boolean;
  readonly replayMs: number;
  readonly eventsPerSecond: number;
  /** Events per CPU second of the replay (the machine is shared: wall time counts the neighbours too). */
  readonly eventsPerCpuSecond: number;
  /** Max resident set of the process over the tape and the replay, bytes. */
  readonly maxRss: number;
  readonly goalMaxRss: number;
  /** The process's memory with the modules loaded (before the tape is opened), and at the end (the report written). */
  readonly memoryAtStart: MemoryBreakdown;
  readonly memoryAtEnd: MemoryBreakdown;
}

/** The quoting strategy replayed over the large recording for its memory (`--large-sweep`): the golden fixed-spread. */
export const LARGE_QUOTING_CONFIG = resolve(root, 'test/backtest/golden/fixed-spread.yaml');

/**
 * One backtest of the large recording as `linesmith backtest` runs it: its tape, the replay
 * heap settings, orders.csv and fills.csv written into a report folder as the replay makes
 * them, then report.json and report.html (a temporary folder, removed after). The rates
 * count the replay alone.
 */
export async function runLargeReplay(
  recording = LARGE_RECORDING,
  configPath = QUIET_CONFIG,
): Promise<LargeReplayResult> {
  // What `linesmith backtest` sets for its replay.
  applyReplayHeapSettings();
  const config = await loadConfig(configPath, { resolveStrategy: builtInStrategyResolver() });
  const memoryAtStart = memoryBreakdown();
  const reportDir = mkdtempSync(join(tmpdir(), 'linesmith-large-replay-'));
  const rows = new StreamedRows(reportDir);
  const t0 = performance.now();
  const cached = await openTape([recording], { dir: resolve(root, '.cache/tapes') });
  const t1 = performance.now();
  const c0 = process.cpuUsage();
  let result: BacktestResult;
  let cpu: NodeJS.CpuUsage;
  let t2: number;
  try {
    result = await runBacktest({ config, tape: cached.tape, logger: silentLogger(), rows: rows.start() });
    cpu = process.cpuUsage(c0);
    t2 = performance.now();
    rows.close();
    // The report is written as the CLI writes it: the max RSS covers the whole backtest.
    await writeReport(reportDir, result, { rowsWritten: true, pageFills: rows.pageFills });
  } finally {
    rows.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
  return {
    recording: basename(resolve(recording, '..')),
    config: basename(configPath),
    events: result.events,
    placed: result.report.metrics.orders.placed,
    fills: result.report.metrics.volume.fills,
    tapeBytes: cached.tape.size,
    tapeMs: t1 - t0,
    built: cached.built !== null,
    replayMs: t2 - t1,
    eventsPerSecond: (result.events / (t2 - t1)) * 1000,
    eventsPerCpuSecond: (result.events / (cpu.user + cpu.system)) * 1e6,
    maxRss: process.resourceUsage().maxRSS * 1024,
    goalMaxRss: 300e6,
    memoryAtStart,
    memoryAtEnd: memoryBreakdown(),
  };
}

/** A sweep of fixed-spread variants over the large recording on worker threads: wall time, events/s in all, the process's max RSS (workers included). */
export interface LargeSweepResult {
  readonly recording: string;
  readonly variants: number;
  readonly failed: number;
  readonly workers: number;
  /** Events replayed, all variants together. */
  readonly events: number;
  readonly wallMs: number;
  readonly eventsPerSecond: number;
  /** Max resident set of the process (worker threads are in it), bytes. */
  readonly maxRss: number;
  readonly goalMaxRss: number;
}

/** The sweep's axis: fixed-spread's edge per side (its half spread), eight values. */
export const LARGE_SWEEP_MARGINS = ['0.01', '0.015', '0.02', '0.025', '0.03', '0.035', '0.04', '0.05'];
const LARGE_SWEEP_WORKERS = 2;

export async function runLargeSweep(recording = LARGE_RECORDING): Promise<LargeSweepResult> {
  // What `linesmith backtest` sets for a sweep; V8's flags are the process's, so its worker threads have it too.
  applyReplayHeapSettings();
  const configPath = resolve(root, 'test/backtest/golden/fixed-spread.yaml');
  const { tape } = await openTape([recording], { dir: resolve(root, '.cache/tapes') });
  const runs = sweepRuns(
    readFileSync(configPath, 'utf8'),
    sweepGrid([{ key: 'strategies.fixed-spread.params.margin', values: LARGE_SWEEP_MARGINS }]),
  );
  // Each variant's report goes to its folder as it runs, as the CLI's sweep does: no rows wait in memory.
  const reportDir = mkdtempSync(join(tmpdir(), 'linesmith-large-sweep-'));
  const t0 = performance.now();
  const outcomes = await runSweep(tape, runs, configPath, {
    workers: LARGE_SWEEP_WORKERS,
    reportDir,
    onDone: (done, total) =>
      process.stderr.write(
        `large sweep: ${done}/${total} variants, ${((performance.now() - t0) / 1000).toFixed(0)} s, ` +
          `max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`,
      ),
  }).finally(() => rmSync(reportDir, { recursive: true, force: true }));
  const wallMs = performance.now() - t0;
  const events = outcomes.reduce((n, o) => n + (o.result?.events ?? 0), 0);
  const failed = outcomes.filter((o) => o.result === null);
  for (const f of failed) process.stderr.write(`large sweep: variant ${variantLabel(f.variant)} failed: ${f.error}\n`);
  return {
    recording: basename(resolve(recording, '..')),
    variants: runs.length,
    failed: failed.length,
    workers: LARGE_SWEEP_WORKERS,
    events,
    wallMs,
    eventsPerSecond: (events / wallMs) * 1000,
    maxRss: process.resourceUsage().maxRSS * 1024,
    goalMaxRss: 300e6 * (1 + LARGE_SWEEP_WORKERS),
  };
}

/**
 * The same in a fresh process (its best-of-3 figures are still warm ones): in the process that ran the
 * other benchmarks first, their garbage and JIT state made the replay a third slower and
 * the parse faster.
 */
export async function runBacktestBenchInChild(): Promise<BacktestBenchResult> {
  return runReplayJsonChild<BacktestBenchResult>('backtest', fileURLToPath(import.meta.url));
}

/**
 * A step over the large recording in a fresh process of its own, started as `linesmith
 * backtest`'s is (its max RSS is the figure); null when the large recording is not made.
 */
async function runLargeInChild<T>(name: string, flag: string): Promise<T | null> {
  if (!existsSync(LARGE_RECORDING)) return null;
  return runReplayJsonChild<T>(name, fileURLToPath(import.meta.url), [flag]);
}

/** The 8-variant sweep over the large recording. */
export const runLargeSweepInChild = () => runLargeInChild<LargeSweepResult>('backtest large sweep', '--large-sweep');

/** The quiet replay of the large recording. */
export const runLargeReplayInChild = () => runLargeInChild<LargeReplayResult>('backtest large', '--large');

/** The quoting strategy's replay of the large recording. */
export const runLargeQuotingReplayInChild = () =>
  runLargeInChild<LargeReplayResult>('backtest large quoting', '--large-quoting');

/** The value after `flag` on the command line, if any. */
function argAfter(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

if (runsAsScript(import.meta.url)) {
  // `--step venue-actions` runs only the per place or cancel micro-bench (bench/venue-actions.ts).
  // The main step alone, for chosen configs and runs (no venue micro-bench):
  //   node --import tsx bench/backtest.bench.ts --runs 8 --configs config/example.yaml,bench/backtest-quiet.yaml
  const configs = argAfter('--configs')
    ?.split(',')
    .map((c) => resolve(c));
  const runs = argAfter('--runs');
  // `--thread main|worker` forces where the first runs' builds read (default: by size).
  const threadArg = argAfter('--thread');
  if (threadArg !== undefined && threadArg !== 'auto' && threadArg !== 'main' && threadArg !== 'worker')
    throw new Error(`--thread takes auto, main or worker, not ${threadArg}`);
  const thread: 'auto' | 'main' | 'worker' | undefined = threadArg;
  const result = process.argv.includes('venue-actions')
    ? await runVenueActionBench()
    : process.argv.includes('--large')
      ? await runLargeReplay()
      : process.argv.includes('--large-quoting')
        ? await runLargeReplay(LARGE_RECORDING, LARGE_QUOTING_CONFIG)
        : process.argv.includes('--large-sweep')
          ? await runLargeSweep()
          : await runBacktestBench(
              configs !== undefined || runs !== undefined || thread !== undefined
                ? {
                    ...(configs !== undefined ? { configs } : {}),
                    ...(runs !== undefined ? { runs: Number(runs) } : {}),
                    ...(thread !== undefined ? { thread } : {}),
                    venueActions: false,
                  }
                : {},
            );
  // The ratios for a reader on stderr; stdout's last line is the result, for the bench runner.
  if ('figures' in result) for (const line of ratioLines(result)) process.stderr.write(`${line}\n`);
  console.log(JSON.stringify(result));
}
