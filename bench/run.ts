import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  LARGE_RECORDING,
  LARGE_SWEEP_MARGINS,
  replayGoalOf,
  runBacktestBenchInChild,
  runLargeReplayInChild,
  runLargeQuotingReplayInChild,
  runLargeSweepInChild,
} from './backtest.bench.ts';
import { renderBenchmarks } from './benchmarks-md.ts';
import { describeLargeFirstRun, runLargeFirstRunInChild } from './large-first-run.ts';
import { runClientRestBench } from './client-rest.bench.ts';
import { runEngineBench } from './engine.bench.ts';
import { machineInfo, machineLine } from './machine.ts';
import { runMemoryBenchInChild } from './memory.bench.ts';
import { describePaperMemory, runPaperMemoryBench } from './paper-memory.bench.ts';
import { runPriceParseBench } from './price-parse.bench.ts';
import { budgetLines, runReplayBudgetInChild } from './replay-budget.ts';
import { describeQueueSweep, runQueueSweepBench } from './queue-sweep.bench.ts';
import { runSimFeedBench } from './sim-feed.bench.ts';
import { runSimRestBench } from './sim-rest.bench.ts';
import { runTickToOrderBench } from './tick-to-order.bench.ts';

/**
 * Every benchmark of the project, one after the other, each figure printed as it comes;
 * then BENCHMARKS.md at the repository root is rewritten with all of them, the machine,
 * the Node version and the date. `--memory-hours H` sets the memory run's market time
 * and the paper-memory runs' market time (default 4: about three minutes of wall time each).
 * `--large-sweep` adds a fixed-spread backtest of the large recording (its memory) and the
 * 8-variant sweep over it: 9 × 1.7M events of an active strategy, tens of minutes of wall
 * time on two cores, so they run only when asked.
 */
const { values } = parseArgs({
  options: { 'memory-hours': { type: 'string', default: '4' }, 'large-sweep': { type: 'boolean', default: false } },
});
const root = resolve(fileURLToPath(import.meta.url), '../..');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(3)} ms`;
const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
const met = (value: number, goal: number) => (value >= goal ? 'met' : 'not met');

const machine = machineInfo();
const date = new Date().toISOString();
const wall0 = performance.now();
console.log(`linesmith benchmarks — ${machineLine(machine)}`);
console.log(`date: ${date}`);
// Warm up the JIT on a short run, then measure.
runEngineBench(200_000, 7);
const engine = runEngineBench(2_000_000, 42);
console.log(
  `engine: ${fmt(engine.opsPerSecond)} ops/s (${fmt(engine.ops)} ops in ${engine.seconds.toFixed(2)} s; 40% post, 40% cancel, 20% crossing; ` +
    `8 books of ~1,000 resting orders, ${fmt(engine.restingAtEnd)} resting at end, ${fmt(engine.fills)} fills)`,
);

const simRest = await runSimRestBench();
const where = (f: (typeof simRest.figures)[number]) =>
  f.placement === 'thread'
    ? "with the client in the server's thread"
    : `with the client in a worker thread${f.connections > 1 ? `, ${f.connections} connections` : ''}`;
console.log(
  `sim REST place+cancel (1 client, undici Pool, pipelining 1, per-IP limit lifted; ` +
    `goal ≥ ${fmt(simRest.goalRoundTripsPerSecond)} round trips/s on one core): ` +
    simRest.figures
      .map(
        (f) =>
          `${fmt(f.roundTripsPerSecond)}/s ${where(f)} (` +
          (f.placement === 'thread' ? `goal ${met(f.roundTripsPerSecond, simRest.goalRoundTripsPerSecond)}; ` : '') +
          `${fmt(f.roundTrips)} in ${f.seconds.toFixed(2)} s, per call p50 ${ms(f.p50Ms)} p99 ${ms(f.p99Ms)}, ${f.errors} errors)`,
      )
      .join('; '),
);

const simFeed = await runSimFeedBench();
console.log(
  `sim price feed: ${fmt(simFeed.deliveredPerSecond)} messages/s delivered to ` +
    `${simFeed.subscribers} subscribers (goal ≥ ${fmt(simFeed.goalPerSecond)}/s: ` +
    `${met(simFeed.deliveredPerSecond, simFeed.goalPerSecond)}; ` +
    `${fmt(simFeed.perSubscriberMin)}–${fmt(simFeed.perSubscriberMax)}/s per subscriber, average frame ${fmt(simFeed.averageFrameBytes)} bytes, ` +
    `${fmt(simFeed.operations)} post/cancel ops in ${simFeed.seconds.toFixed(2)} s, ` +
    `${fmt(simFeed.missing)} missing, ${fmt(simFeed.otherFrames)} other frames; ` +
    `clients in a worker thread)`,
);

const parse = await runPriceParseBench();
console.log(
  `client price-feed parsing (one core, ${fmt(parse.frames)} recorded frames, ` +
    `average ${fmt(parse.averageFrameBytes)} bytes; goal ≥ ${fmt(parse.goalPerSecond)}/s): ` +
    parse.figures.map((f) => `${f.mode} ${fmt(f.messagesPerSecond)}/s (${f.nsPerMessage.toFixed(0)} ns)`).join(', ') +
    ` — the client uses the fast path: goal ${met(parse.fastPerSecond, parse.goalPerSecond)}`,
);

const clientRest = await runClientRestBench();
console.log(
  `client REST round trips against linesmith sim (keep-alive, validated, client and server on one core; limits lifted): ` +
    clientRest
      .map(
        (f) =>
          `${f.call} ×${f.inFlight} in flight ${fmt(f.roundTripsPerSecond)}/s (p50 ${ms(f.p50Ms)}, p99 ${ms(f.p99Ms)})`,
      )
      .join('; '),
);

await runTickToOrderBench({ frames: 3_000 }); // warm-up
const tickToOrder = await runTickToOrderBench();
console.log(
  `runtime tick-to-order latency (price frame in → place/cancel handed to the gateway, ` +
    `${tickToOrder.games} games, fixed-spread, no throttle; goal p99 ≤ 200 µs): ` +
    `p50 ${tickToOrder.p50Us.toFixed(1)} µs, p99 ${tickToOrder.p99Us.toFixed(1)} µs, ` +
    `max ${tickToOrder.maxUs.toFixed(0)} µs over ${fmt(tickToOrder.measured)} frames that ` +
    `moved a quote (of ${fmt(tickToOrder.frames)}): ` +
    `goal ${met(200, tickToOrder.p99Us)}`,
);

const backtest = await runBacktestBenchInChild();
const minimal = `a minimal read (gunzip + split + JSON.parse) of the same files ${(backtest.minimalReadMs / 1000).toFixed(2)} s`;
console.log(
  `backtest of ${backtest.recording}, ` +
    `${fmt(backtest.events)} events (best of ${backtest.runs}; ${minimal}; ` +
    `tape ${(backtest.tapeBytes / 1e6).toFixed(1)} MB, ` +
    `read alone ${(backtest.tapeReadMs / 1000).toFixed(2)} s = ` +
    `${fmt((backtest.events / backtest.tapeReadMs) * 1000)} events/s, ${(backtest.tapeReadMs / backtest.minimalReadMs).toFixed(2)}x the minimal read): ` +
    backtest.figures
      .map((f) => {
        const goal = replayGoalOf(backtest, f.config);
        return (
          `${f.config}: ${fmt(f.eventsPerSecond)} events/s replayed after ${f.warmUpReplays} warm-up replays ` +
          `(cold ${fmt(f.coldEventsPerSecond)}; goal ≥ ${fmt(goal)}: ${met(f.eventsPerSecond, goal)}), ` +
          `first run (read, tape written and replayed in one pass ${((f.buildMs + f.firstReplayMs) / 1000).toFixed(2)} s) ` +
          `${f.firstRatio.toFixed(2)}x the minimal read ` +
          `(goal ≤ ${backtest.goalFirstRatio}: ${f.firstRatio <= backtest.goalFirstRatio ? 'met' : 'not met'}), ` +
          `later runs ${f.laterRatio.toFixed(2)}x (goal ≤ ${backtest.goalLaterRatio}: ${f.laterRatio <= backtest.goalLaterRatio ? 'met' : 'not met'})`
        );
      })
      .join('; '),
);
console.log(
  "where a replay's CPU time goes, per recorded event (* marks code live shares; a fresh process, a minute)…",
);
const replayBudget = await runReplayBudgetInChild();
for (const line of budgetLines(replayBudget)) console.log(`replay budget: ${line}`);
const large = await runLargeReplayInChild();
console.log(
  large === null
    ? 'backtest of the large recording: not made (scripts/make-large-recording.sh makes it), skipped'
    : `backtest of the large recording (${fmt(large.events)} events, ` +
        `tape ${(large.tapeBytes / 1e6).toFixed(0)} MB ` +
        `${large.built ? `built in ${(large.tapeMs / 1000).toFixed(1)} s` : 'reused'}), ` +
        `a strategy that quotes nothing: ` +
        `${fmt(large.eventsPerSecond)} events/s (${fmt(large.eventsPerCpuSecond)} per CPU second), ` +
        `max rss ${mb(large.maxRss)} (goal ≤ ${mb(large.goalMaxRss)}: ` +
        `${large.maxRss <= large.goalMaxRss ? 'met' : 'not met'})`,
);
const largeFirstRun = large === null ? null : await runLargeFirstRunInChild(LARGE_RECORDING);
if (largeFirstRun !== null) for (const line of describeLargeFirstRun(largeFirstRun)) console.log(line);
const largeQuoting = values['large-sweep'] ? await runLargeQuotingReplayInChild() : undefined;
console.log(
  largeQuoting === undefined
    ? 'quoting backtest of the large recording: skipped (`npm run bench -- --large-sweep` runs it)'
    : largeQuoting === null
      ? 'quoting backtest of the large recording: not made (scripts/make-large-recording.sh makes it), skipped'
      : `quoting backtest of the large recording with ${largeQuoting.config} (${fmt(largeQuoting.placed)} orders placed, ` +
        `${fmt(largeQuoting.fills)} fills): ${fmt(largeQuoting.eventsPerSecond)} events/s, max rss ${mb(largeQuoting.maxRss)} ` +
        `(goal ≤ ${mb(largeQuoting.goalMaxRss)}: ${largeQuoting.maxRss <= largeQuoting.goalMaxRss ? 'met' : 'not met'})`,
);
const largeSweep = values['large-sweep'] ? await runLargeSweepInChild() : undefined;
console.log(
  largeSweep === undefined
    ? 'sweep over the large recording: skipped (tens of minutes; `npm run bench -- --large-sweep` runs it)'
    : largeSweep === null
      ? 'sweep over the large recording: not made (scripts/make-large-recording.sh makes it), skipped'
      : `sweep over the large recording: ${largeSweep.variants} fixed-spread variants (margin ` +
        `${LARGE_SWEEP_MARGINS.join(', ')}) on ${largeSweep.workers} worker threads` +
        `${largeSweep.failed > 0 ? ` (${largeSweep.failed} failed)` : ''}: ${(largeSweep.wallMs / 1000).toFixed(1)} s wall, ` +
        `${fmt(largeSweep.eventsPerSecond)} events/s in all, max rss of the process with its workers ${mb(largeSweep.maxRss)} ` +
        `(bound ${mb(largeSweep.goalMaxRss)}, none failed: ` +
        `${largeSweep.failed === 0 && largeSweep.maxRss <= largeSweep.goalMaxRss ? 'met' : 'not met'})`,
);

console.log(
  `place or cancel through the simulated venue (CPU µs each; goal ≤ ${backtest.goalUsPerAction} µs typed): ` +
    backtest.venueActions.map((v) => `${v.boundary} ${v.usPerAction.toFixed(2)} µs`).join(', '),
);

const queueSweep = await runQueueSweepBench();
console.log(describeQueueSweep(queueSweep));

const hours = Number(values['memory-hours']);
console.log(`memory: ${hours} h of market time with 200 games (a fresh process; a few minutes)…`);
const memory = await runMemoryBenchInChild({ hours, games: 200, mode: 'split', sampleMinutes: 15 });
const s = memory.summary;
console.log(
  `memory (${memory.mode}, ${memory.games} games, ` +
    `${memory.hours} h of market time in ${memory.wallSeconds.toFixed(0)} s; ` +
    `goals rss < ${mb(memory.goalRss)}, growth < ${memory.goalGrowthPct}%): ` +
    `peak rss ${mb(s.peakRss)} (goal ${s.peakRss < memory.goalRss ? 'met' : 'not met'}), middle ${mb(s.middleRss)}, end ${mb(s.endRss)}, ` +
    `second-half growth ${s.rssGrowthPct.toFixed(1)}% (goal ` +
    `${s.rssGrowthPct < memory.goalGrowthPct ? 'met' : 'not met'}); ` +
    `heap ${mb(s.middleHeap)} → ${mb(s.endHeap)} (${s.heapGrowthPct.toFixed(1)}%)`,
);

console.log(
  `paper memory: linesmith paper in one process, then the simulator alone, ${hours} h of market time with 200 games each (fresh processes; several minutes)…`,
);
const paperMemory = await runPaperMemoryBench({ hours, games: 200, sampleMinutes: 15 });
for (const line of describePaperMemory(paperMemory)) console.log(line);

const header = await readFile(resolve(root, 'bench/benchmarks-header.md'), 'utf8');
const text = renderBenchmarks(
  {
    machine,
    date,
    wallSeconds: (performance.now() - wall0) / 1000,
    engine,
    simRest,
    simFeed,
    parse,
    clientRest,
    tickToOrder,
    backtest,
    replayBudget,
    large,
    largeFirstRun,
    largeQuoting,
    largeSweep,
    queueSweep,
    memory,
    paperMemory,
  },
  header,
);
await writeFile(resolve(root, 'BENCHMARKS.md'), text);
console.log(`written: ${resolve(root, 'BENCHMARKS.md')}`);
