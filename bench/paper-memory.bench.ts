import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runJsonChild } from './child.ts';
import { runMemoryBenchInChild, type MemoryBenchResult } from './memory.bench.ts';
import { breakdown } from './memory/samples.ts';
import type { SimAloneResult } from './memory/sim-alone.ts';

/**
 * Memory of `linesmith paper` over a long run: the simulator's synthetic market with
 * `games` concurrent games and linesmith quoting them in ONE process, on one virtual clock
 * (the memory run's `in-process` mode: what `linesmith paper` runs), then the simulator
 * alone (its market with nobody else trading) in a process of its own. Each runs in a
 * fresh process; both are sampled after a full GC every `sampleMinutes` of market time.
 * Goals: paper RSS < 400 MB with growth < 5% over the second half; the simulator alone
 * RSS < 300 MB.
 */
export interface PaperMemoryResult {
  readonly paper: MemoryBenchResult;
  readonly sim: SimAloneResult;
  readonly goalPaperRss: number;
  readonly goalGrowthPct: number;
  readonly goalSimRss: number;
}

export interface PaperMemoryOptions {
  readonly hours: number;
  readonly games: number;
  readonly sampleMinutes: number;
}

export async function runPaperMemoryBench(o: PaperMemoryOptions): Promise<PaperMemoryResult> {
  const paper = await runMemoryBenchInChild({
    hours: o.hours,
    games: o.games,
    mode: 'in-process',
    sampleMinutes: o.sampleMinutes,
  });
  const simScript = fileURLToPath(new URL('./memory/sim-alone.ts', import.meta.url));
  const sim = await runJsonChild<SimAloneResult>(
    'simulator memory',
    simScript,
    ['--json', '--hours', String(o.hours), '--games', String(o.games), '--sample', String(o.sampleMinutes)],
    ['--expose-gc'],
  );
  return { paper, sim, goalPaperRss: 400 * 2 ** 20, goalGrowthPct: 5, goalSimRss: 300 * 2 ** 20 };
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
const verdict = (ok: boolean) => (ok ? 'met' : 'not met');

/**
 * The figures as printed: the two goals of the paper run (peak, and growth over the second
 * half: from the sample at half the run to the last) and the simulator's peak, each with its
 * verdict; where the resident memory of the middle and end samples is (heap in use, heap
 * committed but free, external, other); then every sample.
 */
export function describePaperMemory(r: PaperMemoryResult): string[] {
  const p = r.paper;
  const s = r.sim;
  const first = (xs: readonly { rss: number }[]) => xs[0]?.rss ?? NaN;
  const at = (x: { atMs: number }) => `${(x.atMs / 60_000).toFixed(0)} min`;
  const c = p.counters;
  return [
    `paper memory: linesmith paper in one process (simulator and linesmith), ${p.games} games, ` +
      `${p.hours} h of market time in ${p.wallSeconds.toFixed(0)} s, ` +
      `sampled after ${p.warmupHours} h of warm-up`,
    `  peak RSS ${mb(p.summary.peakRss)} (goal < ${mb(r.goalPaperRss)}: ` +
      `${verdict(p.summary.peakRss < r.goalPaperRss)}); ` +
      `first sample ${mb(first(p.samples))}, high-water including warm-up ${mb(p.maxRss)}`,
    `  second-half growth: RSS ${mb(p.summary.middleRss)} at ${at(p.summary.middle)} -> ` +
      `${mb(p.summary.endRss)} at ${at(p.summary.end)} = ${pct(p.summary.rssGrowthPct)} (goal < ` +
      `${r.goalGrowthPct}%: ${verdict(p.summary.rssGrowthPct < r.goalGrowthPct)}); ` +
      `heap in use ${mb(p.summary.middleHeap)} -> ${mb(p.summary.endHeap)} = ` +
      `${pct(p.summary.heapGrowthPct)}`,
    `  at ${at(p.summary.middle)}: ${breakdown(p.summary.middle)}`,
    `  at ${at(p.summary.end)}: ${breakdown(p.summary.end)}`,
    `  at the end: ${c.modelGames} games in linesmith's model, ` +
      `${c.ownOrders} orders in its own book, ` +
      `${c.placesSent} places and ${c.cancelsSent} cancels sent, ${c.fills} fills; ` +
      `${p.openOrdersLeft} orders left open` +
      (c.simRetained
        ? `; ` +
          `the simulator holds ${c.simRetained.games} games, ${c.simRetained.orders} orders, ` +
          `${c.simRetained.fills} fills, ${c.simRetained.gradeVersions} grade versions`
        : ''),
    `  samples (market time: RSS / heap in use): ${p.samples.map((x) => `${at(x)} ${mb(x.rss)} / ${mb(x.heapUsed)}`).join('; ')}`,
    `simulator alone: ${s.games} games, ${s.hours} h of market time in ${s.wallSeconds.toFixed(0)} s, after ${s.warmupHours} h of warm-up`,
    `  peak RSS ${mb(s.summary.peakRss)} (goal < ${mb(r.goalSimRss)}: ` +
      `${verdict(s.summary.peakRss < r.goalSimRss)}); ` +
      `start ${mb(first(s.samples))}, middle ${mb(s.summary.middleRss)}, ` +
      `end ${mb(s.summary.endRss)}; ` +
      `second-half growth RSS ${pct(s.summary.rssGrowthPct)}, heap in use ${pct(s.summary.heapGrowthPct)}`,
    `  at ${at(s.summary.end)}: ${breakdown(s.summary.end)}; ` +
      `held: ${s.retained.games} games, ${s.retained.orders} orders, ${s.retained.fills} fills, ` +
      `${s.retained.gradeVersions} grade versions`,
    `  samples (market time: RSS / heap in use): ${s.samples.map((x) => `${at(x)} ${mb(x.rss)} / ${mb(x.heapUsed)}`).join('; ')}`,
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      hours: { type: 'string', default: '4' },
      games: { type: 'string', default: '200' },
      sample: { type: 'string', default: '15' },
      json: { type: 'boolean', default: false },
    },
  });
  const result = await runPaperMemoryBench({
    hours: Number(values.hours),
    games: Number(values.games),
    sampleMinutes: Number(values.sample),
  });
  for (const line of describePaperMemory(result)) process.stderr.write(`${line}\n`);
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
}
