import type { LargeFirstRunResult } from './large-first-run.ts';
import type { BacktestBenchResult, LargeReplayResult, LargeSweepResult } from './backtest.bench.ts';
import { LARGE_SWEEP_MARGINS, replayGoalOf } from './backtest.bench.ts';
import type { ClientRestFigure } from './client-rest.bench.ts';
import type { EngineBenchResult } from './engine.bench.ts';
import { machineLine, type MachineInfo } from './machine.ts';
import type { MemoryBenchResult } from './memory.bench.ts';
import type { PaperMemoryResult } from './paper-memory.bench.ts';
import type { PriceParseBenchResult } from './price-parse.bench.ts';
import type { FeedBenchResult } from './sim-feed.bench.ts';
import type { RestBenchResult } from './sim-rest.bench.ts';
import type { TickToOrderResult } from './tick-to-order.bench.ts';

/** Everything one `npm run bench` measured. */
import type { QueueSweepBenchResult } from './queue-sweep.bench.ts';
import { budgetVerdict, type ReplayBudget } from './replay-budget.ts';

export interface BenchResults {
  readonly machine: MachineInfo;
  /** ISO date and time the run started. */
  readonly date: string;
  readonly wallSeconds: number;
  readonly engine: EngineBenchResult;
  readonly simRest: RestBenchResult;
  readonly simFeed: FeedBenchResult;
  readonly parse: PriceParseBenchResult;
  readonly clientRest: readonly ClientRestFigure[];
  readonly tickToOrder: TickToOrderResult;
  readonly backtest: BacktestBenchResult;
  readonly replayBudget: readonly ReplayBudget[];
  readonly queueSweep: QueueSweepBenchResult;
  readonly large: LargeReplayResult | null;
  /** The sweep over the large recording: undefined when not asked for (`--large-sweep`), null when the recording is not made. */
  readonly largeSweep?: LargeSweepResult | null | undefined;
  /** A quoting strategy's backtest of the large recording: as `largeSweep`. */
  readonly largeQuoting?: LargeReplayResult | null | undefined;
  /** First and later runs over the large recording against its minimal read: null when the recording is not made. */
  readonly largeFirstRun: LargeFirstRunResult | null;
  readonly memory: MemoryBenchResult;
  readonly paperMemory: PaperMemoryResult;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(3)} ms`;
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

type Row = readonly [figure: string, value: string, goal: string];

function rows(r: BenchResults): Row[] {
  const out: Row[] = [];
  const e = r.engine;
  out.push([
    'engine operations per second (40% post, 40% cancel, 20% crossing; 8 moneyline books of ~1,000 resting orders; one core)',
    `${int(e.opsPerSecond)} (${int(e.ops)} ops in ${e.seconds.toFixed(2)} s, ${int(e.fills)} fills)`,
    `≥ 1,000,000: ${verdict(e.opsPerSecond >= 1_000_000)}`,
  ]);
  for (const f of r.simRest.figures) {
    const inThread = f.placement === 'thread';
    const client = inThread
      ? "in the server's thread (one core)"
      : `in a worker thread${f.connections > 1 ? `, ${f.connections} connections` : ''}`;
    out.push([
      `simulator place + cancel round trips per second, one keep-alive client ${client}`,
      `${int(f.roundTripsPerSecond)} (per call p50 ${ms(f.p50Ms)}, p99 ${ms(f.p99Ms)}; ${f.errors} errors)`,
      inThread
        ? `≥ ${int(r.simRest.goalRoundTripsPerSecond)}: ${verdict(f.roundTripsPerSecond >= r.simRest.goalRoundTripsPerSecond)}`
        : '',
    ]);
  }
  const feed = r.simFeed;
  out.push([
    `simulator price-feed messages per second delivered to ${feed.subscribers} WebSocket subscribers`,
    `${int(feed.deliveredPerSecond)} (${int(feed.averageFrameBytes)}-byte frames, ${int(feed.missing)} missing)`,
    `≥ ${int(feed.goalPerSecond)}: ${verdict(feed.deliveredPerSecond >= feed.goalPerSecond)}`,
  ]);
  const p = r.parse;
  const mode = (m: string) => p.figures.find((f) => f.mode === m)?.messagesPerSecond ?? NaN;
  out.push([
    `client: price-feed frames parsed into typed events per second, ` +
      `one core (${int(p.frames)} frames recorded from the simulator's market, ` +
      `${int(p.averageFrameBytes)} bytes average)`,
    `fast path ${int(p.fastPerSecond)}; compiled zod ${int(mode('compiled'))}; plain zod ${int(mode('zod'))}; \`JSON.parse\` alone ${int(mode('json'))}`,
    `≥ ${int(p.goalPerSecond)}: ${verdict(p.fastPerSecond >= p.goalPerSecond)}`,
  ]);
  const calls = ['getMe', 'place+cancel'] as const;
  out.push([
    'client: REST round trips per second against `linesmith sim`, keep-alive, answers validated, client and server on one core',
    calls
      .map(
        (c) =>
          `${c} ${r.clientRest
            .filter((f) => f.call === c)
            .map((f) => `${int(f.roundTripsPerSecond)} (${f.inFlight} in flight)`)
            .join(' / ')}`,
      )
      .join('; '),
    '',
  ]);
  const t = r.tickToOrder;
  out.push([
    `runtime tick-to-order latency: price frame in (before parsing) → place/cancel handed to ` +
      `the gateway, ${t.games} games, fixed-spread, no throttle, stub gateway`,
    `p50 ${t.p50Us.toFixed(1)} µs, p99 ${t.p99Us.toFixed(1)} µs, max ${int(t.maxUs)} µs (${int(t.measured)} of ${int(t.frames)} frames moved a quote)`,
    `p99 ≤ 200 µs: ${verdict(t.p99Us <= 200)}`,
  ]);
  const b = r.backtest;
  out.push([
    `backtest input: the tape of \`${b.recording}\` read alone (open, checksums, every chunk decoded), ` +
      `against a minimal read of the JSON (gunzip + split + JSON.parse) in the same run`,
    `${int((b.events / b.tapeReadMs) * 1000)} events/s, ` +
      `${(b.tapeReadMs / 1000).toFixed(2)} s = ${(b.tapeReadMs / b.minimalReadMs).toFixed(2)}x ` +
      `the minimal read (${(b.minimalReadMs / 1000).toFixed(2)} s); ` +
      `tape ${(b.tapeBytes / 1e6).toFixed(1)} MB`,
    `< 1: ${verdict(b.tapeReadMs < b.minimalReadMs)}`,
  ]);
  for (const f of b.figures) {
    const goal = replayGoalOf(b, f.config);
    out.push([
      `backtest of \`${b.recording}\` with \`${f.config}\`: events replayed per second, tape reused (replay only; best of ${b.runs} after ${f.warmUpReplays} warm-up replays)`,
      `${int(f.eventsPerSecond)} (${int(f.events)} events in ${(f.replayMs / 1000).toFixed(2)} s; the first, cold replay ${int(f.coldEventsPerSecond)})`,
      `≥ ${int(goal)}: ${verdict(f.eventsPerSecond >= goal)}`,
    ]);
    out.push([
      `backtest with \`${f.config}\`, first run: (cache check + one pass: read, tape written, replay) / minimal read`,
      `${f.firstRatio.toFixed(2)} (check ${(f.buildMs / 1000).toFixed(2)} s, one pass ${(f.firstReplayMs / 1000).toFixed(2)} s)`,
      `≤ ${b.goalFirstRatio}: ${verdict(f.firstRatio <= b.goalFirstRatio)}`,
    ]);
    out.push([
      `backtest with \`${f.config}\`, later runs: (tape open + replay) / minimal read`,
      `${f.laterRatio.toFixed(2)} (open ${(f.openMs / 1000).toFixed(2)} s)`,
      `≤ ${b.goalLaterRatio}: ${verdict(f.laterRatio <= b.goalLaterRatio)}`,
    ]);
  }
  const l = r.large;
  out.push(
    l === null
      ? ['backtest of the large recording (scripts/make-large-recording.sh)', 'not made: skipped', '—']
      : [
          `backtest of the large recording, ${int(l.events)} events, a strategy that quotes nothing, ` +
            `from its tape (${l.built ? 'built' : 'reused'}, ` +
            `${int(l.tapeBytes / 1e6)} MB): max resident set of the process`,
          `${mb(l.maxRss)} (${int(l.eventsPerSecond)} events/s, ${int(l.eventsPerCpuSecond)} per CPU second; ` +
            `at the end: V8 heap ${mb(l.memoryAtEnd.heapTotal)} (old generation ${mb(l.memoryAtEnd.oldSpace)}, ` +
            `young ${mb(l.memoryAtEnd.newSpace)}), the rest ${mb(l.memoryAtEnd.rss - l.memoryAtEnd.heapTotal)}; ` +
            `before the tape was opened ${mb(l.memoryAtStart.rss)})`,
          `≤ ${mb(l.goalMaxRss)}: ${verdict(l.maxRss <= l.goalMaxRss)}`,
        ],
  );
  out.push(...largeFirstRunRows(r.largeFirstRun));
  if (r.largeQuoting !== undefined) out.push(largeQuotingRow(r.largeQuoting));
  if (r.largeSweep !== undefined) out.push(largeSweepRow(r.largeSweep));
  const typed = b.venueActions.find((v) => v.boundary === 'typed');
  if (typed) {
    out.push([
      'backtest: CPU time per place or cancel through the simulated venue (latency legs, ' +
        'engine replica, answer, user-feed message, side sent again, collector, promise; best of 10)',
      `${typed.usPerAction.toFixed(2)} µs typed; ${b.venueActions
        .filter((v) => v !== typed)
        .map((v) => `${v.boundary === 'engine' ? 'the execution alone' : v.boundary} ${v.usPerAction.toFixed(2)} µs`)
        .join(', ')}`,
      `≤ ${b.goalUsPerAction} µs: ${verdict(typed.usPerAction <= b.goalUsPerAction)}`,
    ]);
  }
  const q = r.queueSweep;
  const cpu =
    q.cpuOverheadPct === null
      ? ''
      : `CPU time of every process, medians: threads ${(q.threadsCpuMs! / 1000).toFixed(2)} s, ` +
        `queue ${(q.queueCpuMs! / 1000).toFixed(2)} s, ${q.cpuOverheadPct.toFixed(1)} % more; `;
  out.push([
    `distributed sweep: ${q.variants} variants of fixed-spread over \`${q.recording}\`, ` +
      `two \`linesmith worker\` processes through Redis (started before the clock; ` +
      `the tape's store and fetch inside it) against two worker threads, ` +
      `${q.runs} runs of each alternating; ` +
      `overhead = median queue wall time ÷ median threads wall time − 1`,
    q.skipped !== null
      ? `not measured: ${q.skipped}`
      : `${q.overheadPct.toFixed(1)} % (medians: threads ${(q.threadsMs / 1000).toFixed(2)} s, ` +
        `queue ${(q.queueMs / 1000).toFixed(2)} s; ` +
        `runs: threads ${q.threadsRunsMs.map((t) => (t / 1000).toFixed(2)).join(', ')} s, ` +
        `queue ${q.queueRunsMs.map((t) => (t / 1000).toFixed(2)).join(', ')} s; ` +
        `${cpu}results ${q.identical ? 'identical' : 'differ'})`,
    `≤ ${q.goalOverheadPct} %: ${q.skipped !== null ? 'not measured' : verdict(q.overheadPct <= q.goalOverheadPct)}`,
  ]);
  const m = r.memory;
  const s = m.summary;
  const where =
    m.mode === 'split'
      ? 'linesmith alone (simulator in its own process)'
      : 'linesmith and the simulator in one process';
  out.push([
    `memory: resident set of ${where}, ${m.games} games, ` +
      `${m.hours} h of market time in ${int(m.wallSeconds)} s, ` +
      `sampled after a full GC every ${m.sampleMinutes} min after ${m.warmupHours} h of warm-up`,
    `peak ${mb(s.peakRss)}; at half the run ${mb(s.middleRss)}, at the end ${mb(s.endRss)}; high-water including warm-up ${mb(m.maxRss)}`,
    `< ${mb(m.goalRss)}: ${verdict(s.peakRss < m.goalRss)}`,
  ]);
  out.push([
    'memory: growth over the second half of the run (resident set; V8 heap in use)',
    `RSS ${pct(s.rssGrowthPct)}; heap ${pct(s.heapGrowthPct)} (${mb(s.middleHeap)} → ${mb(s.endHeap)})`,
    `RSS < ${m.goalGrowthPct}%: ${verdict(s.rssGrowthPct < m.goalGrowthPct)}`,
  ]);
  if (s.peakSimRss !== null)
    out.push([
      'memory: the simulator process of that run, for comparison (not linesmith)',
      `peak RSS ${mb(s.peakSimRss)}`,
      '',
    ]);
  out.push(...paperMemoryRows(r.paperMemory));
  return out;
}

/** The paper-memory step's rows: `linesmith paper` in one process, then the simulator alone. */
export function paperMemoryRows(r: PaperMemoryResult): Row[] {
  const p = r.paper;
  const ps = p.summary;
  const sim = r.sim;
  const ss = sim.summary;
  return [
    [
      `paper memory: resident set of \`linesmith paper\` in one process (simulator and ` +
        `linesmith), ${p.games} games, ${p.hours} h of market time in ${int(p.wallSeconds)} s, ` +
        `sampled after a full GC every ${p.sampleMinutes} min after ${p.warmupHours} h of warm-up`,
      `start ${mb(p.samples[0]?.rss ?? NaN)}; ` +
        `at half the run ${mb(ps.middleRss)}, at the end ${mb(ps.endRss)}; peak ${mb(ps.peakRss)}; ` +
        `high-water including warm-up ${mb(p.maxRss)}`,
      `< ${mb(r.goalPaperRss)}: ${verdict(ps.peakRss < r.goalPaperRss)}`,
    ],
    [
      'paper memory: growth over the second half of the run (resident set; V8 heap in use)',
      `RSS ${pct(ps.rssGrowthPct)}; heap ${pct(ps.heapGrowthPct)} (${mb(ps.middleHeap)} → ${mb(ps.endHeap)})`,
      `RSS < ${r.goalGrowthPct}%: ${verdict(ps.rssGrowthPct < r.goalGrowthPct)}`,
    ],
    [
      `paper memory: the simulator alone (its market, nobody else trading), ${sim.games} games, ${sim.hours} h of market time in ${int(sim.wallSeconds)} s`,
      `start ${mb(sim.samples[0]?.rss ?? NaN)}; ` +
        `at half the run ${mb(ss.middleRss)}, at the end ${mb(ss.endRss)}; ` +
        `peak ${mb(ss.peakRss)} (RSS ${pct(ss.rssGrowthPct)} over the second half); ` +
        `held at the end: ${int(sim.retained.games)} games, ${int(sim.retained.orders)} orders, ` +
        `${int(sim.retained.fills)} fills, ${int(sim.retained.gradeVersions)} grade versions`,
      `< ${mb(r.goalSimRss)}: ${verdict(ss.peakRss < r.goalSimRss)}`,
    ],
  ];
}

/** The paper-memory step's samples, as a paragraph. */
export function paperMemorySamples(r: PaperMemoryResult): string {
  const list = (xs: readonly { atMs: number; rss: number; heapUsed: number }[]) =>
    xs.map((x) => `${(x.atMs / 60_000).toFixed(0)} min ${mb(x.rss)} / ${mb(x.heapUsed)}`).join('; ');
  return (
    `Paper memory samples (market time: RSS / heap in use): \`linesmith paper\` in one process ${list(r.paper.samples)}. ` +
    `At the end: ${r.paper.counters.modelGames} games in linesmith's model, ` +
    `${int(r.paper.counters.placesSent)} places and ${int(r.paper.counters.cancelsSent)} ` +
    `cancels sent, ${r.paper.openOrdersLeft} orders left open after shutdown. ` +
    `The simulator alone: ${list(r.sim.samples)}.`
  );
}

const cell = (s: string) => s.replaceAll('|', '\\|');

/** BENCHMARKS.md: the hand-written header, then the machine, date and one table of every figure. */
export function renderBenchmarks(r: BenchResults, header: string): string {
  const m = r.memory;
  const lines = [
    header.trimEnd(),
    '',
    '## Latest run',
    '',
    `Measured ${r.date} on ${machineLine(r.machine)} (\`npm run bench\`, ${int(r.wallSeconds)} s).`,
    '',
    '| figure | value | goal |',
    '|---|---|---|',
    ...rows(r).map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
    `Memory samples (market time: linesmith RSS / heap in use${m.mode === 'split' ? ' / simulator RSS' : ''}): ` +
      m.samples
        .map(
          (x) =>
            `${(x.atMs / 60_000).toFixed(0)} min ${mb(x.rss)} / ${mb(x.heapUsed)}${x.simRss !== null ? ` / ${mb(x.simRss)}` : ''}`,
        )
        .join('; ') +
      `. At the end: ${m.counters.modelGames} games in the model, ` +
      `${int(m.counters.placesSent)} places and ${int(m.counters.cancelsSent)} cancels sent, ` +
      `${m.openOrdersLeft} orders left open after shutdown.`,
    '',
    paperMemorySamples(r.paperMemory),
    '',
    ...replayBudgetTable(r.replayBudget),
  ];
  return lines.join('\n');
}

/**
 * Where each replay's CPU time goes, per recorded event, by layer: the evidence for what a
 * target would need (bench/replay-budget.ts). Kept layers are the code whose behaviour issue 20 keeps.
 */
export function replayBudgetTable(budgets: readonly ReplayBudget[]): string[] {
  if (budgets.length === 0) return [];
  const layers = [...new Set(budgets.flatMap((b) => b.layers.map((l) => l.layer)))];
  const kept = new Set(budgets.flatMap((b) => b.layers.filter((l) => l.kept).map((l) => l.layer)));
  const us = (b: ReplayBudget, layer: string) =>
    b.layers.find((l) => l.layer === layer)?.usPerEvent.toFixed(2) ?? '0.00';
  const name = (b: ReplayBudget) => b.config.split('/').pop()!;
  const byLayer = layers.map((layer) =>
    [kept.has(layer) ? `${layer} (kept)` : layer, ...budgets.map((b) => us(b, layer))].join(' | '),
  );
  return [
    "### Where a replay's CPU time goes",
    '',
    "CPU µs per recorded event of `paper-seed7` replayed from its tape, split by the layer whose code ran (V8's sampling " +
      'profiler; a builtin counts for the layer that called it; `npx tsx bench/replay-budget.ts`). *Kept* layers are the ' +
      "code whose behaviour issue 20 keeps: what live and paper run too, and the engine replica's rules; they may get " +
      'faster, not different. A target of E events/s allows 10⁶/E µs per event; where the kept layers alone cost more, no ' +
      "change to the backtest's own code (venue, report, tape, replay loop) reaches it. Garbage collection is shown apart: " +
      "every layer's allocations cause it.",
    '',
    `| layer | ${budgets.map(name).join(' | ')} |`,
    `|---|${budgets.map(() => '---:').join('|')}|`,
    ...byLayer.map((row) => `| ${row} |`),
    `| **all** (best unprofiled replay) | ${budgets.map((b) => `**${b.usPerEvent.toFixed(2)}**`).join(' | ')} |`,
    `| kept layers together | ${budgets.map((b) => budgetVerdict(b).kept.toFixed(2)).join(' | ')} |`,
    `| the target's budget per event | ${budgets
      .map((b) => {
        const v = budgetVerdict(b);
        return v.budget === null ? '—' : v.budget.toFixed(2);
      })
      .join(' | ')} |`,
    `| strategy evaluations per event | ${budgets.map((b) => b.evaluationsPerEvent.toFixed(2)).join(' | ')} |`,
    `| order actions (place, cancel, edit) per event | ${budgets.map((b) => b.actionsPerEvent.toFixed(3)).join(' | ')} |`,
    '',
  ];
}

/** The large recording's first-run and later-run ratios, a row per config (issue 20's goals, at research scale). */
export function largeFirstRunRows(lf: LargeFirstRunResult | null): Row[] {
  if (lf === null)
    return [
      ['first and later runs over the large recording (scripts/make-large-recording.sh)', 'not made: skipped', '—'],
    ];
  return lf.figures.map((f) => [
    `backtest of the large recording, ${int(lf.events)} events, with \`${f.config}\`: first run (cache check + one ` +
      `pass: read${f.buildThread ? ' and tape written on a thread of their own' : ', tape written'}, replay) and ` +
      `later run (tape open + replay) / a minimal read of its files in the same process (one run each)`,
    `first ${f.firstRatio.toFixed(2)}, later ${f.laterRatio.toFixed(2)} (first ${(f.firstMs / 1000).toFixed(1)} s, ` +
      `later ${(f.laterMs / 1000).toFixed(1)} s, minimal read ${(lf.minimalReadMs / 1000).toFixed(1)} s)`,
    `≤ ${lf.goalFirstRatio} and ≤ ${lf.goalLaterRatio}: ` +
      `${verdict(f.firstRatio <= lf.goalFirstRatio)} and ${verdict(f.laterRatio <= lf.goalLaterRatio)}`,
  ]);
}

/**
 * A quoting strategy's backtest of the large recording, as `linesmith backtest` runs it: its
 * max resident set against the bound issue 20 sets for a replay of that recording.
 */
export function largeQuotingRow(l: LargeReplayResult | null): Row {
  if (l === null)
    return ['quoting backtest of the large recording (scripts/make-large-recording.sh)', 'not made: skipped', '—'];
  return [
    `backtest of the large recording, ${int(l.events)} events, with \`${l.config}\` (${int(l.placed)} orders ` +
      `placed, ${int(l.fills)} fills; orders.csv and fills.csv written as it goes), from its tape: max resident set of the process`,
    `${mb(l.maxRss)} (${int(l.eventsPerSecond)} events/s, ${int(l.eventsPerCpuSecond)} per CPU second; ` +
      `at the end: V8 heap ${mb(l.memoryAtEnd.heapTotal)} (old generation ${mb(l.memoryAtEnd.oldSpace)}, ` +
      `young ${mb(l.memoryAtEnd.newSpace)}), the rest ${mb(l.memoryAtEnd.rss - l.memoryAtEnd.heapTotal)})`,
    `≤ ${mb(l.goalMaxRss)}: ${verdict(l.maxRss <= l.goalMaxRss)}`,
  ];
}

/** The large sweep's row: its memory bound counts as kept only if every variant ran to its end. */
export function largeSweepRow(sw: LargeSweepResult | null): Row {
  if (sw === null)
    return ['sweep over the large recording (scripts/make-large-recording.sh)', 'not made: skipped', '—'];
  return [
    `sweep of ${sw.variants} fixed-spread variants (margin ${LARGE_SWEEP_MARGINS.join(', ')}) over the large ` +
      `recording on ${sw.workers} worker threads: max resident set of the process with its workers`,
    `${mb(sw.maxRss)} (${sw.variants - sw.failed} of ${sw.variants} variants done, ` +
      `${(sw.wallMs / 1000).toFixed(1)} s wall, ${int(sw.eventsPerSecond)} events/s in all)`,
    // A bound kept by variants that failed is no bound kept.
    `≤ ${mb(sw.goalMaxRss)}, none failed: ${verdict(sw.failed === 0 && sw.maxRss <= sw.goalMaxRss)}`,
  ];
}
