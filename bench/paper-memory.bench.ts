import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runJsonChild } from './child.ts';
import { runMemoryBenchInChild, type MemoryBenchResult } from './memory.bench.ts';
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
  const paper = await runMemoryBenchInChild({ hours: o.hours, games: o.games, mode: 'in-process', sampleMinutes: o.sampleMinutes });
  const simScript = fileURLToPath(new URL('./memory/sim-alone.ts', import.meta.url));
  const sim = await runJsonChild<SimAloneResult>('simulator memory', simScript, ['--json', '--hours', String(o.hours), '--games', String(o.games), '--sample', String(o.sampleMinutes)], ['--expose-gc']);
  return { paper, sim, goalPaperRss: 400 * 2 ** 20, goalGrowthPct: 5, goalSimRss: 300 * 2 ** 20 };
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
const verdict = (ok: boolean) => (ok ? 'met' : 'not met');

/** The figures as printed: samples, start / middle / end, growth over the second half, goals. */
export function describePaperMemory(r: PaperMemoryResult): string[] {
  const p = r.paper;
  const s = r.sim;
  const first = (xs: readonly { rss: number }[]) => xs[0]?.rss ?? NaN;
  return [
    `paper memory: linesmith paper in one process (simulator and linesmith), ${p.games} games, ${p.hours} h of market time in ${p.wallSeconds.toFixed(0)} s, after ${p.warmupHours} h of warm-up: ` +
      `start ${mb(first(p.samples))}, middle ${mb(p.summary.middleRss)}, end ${mb(p.summary.endRss)}, peak ${mb(p.summary.peakRss)} (goal < ${mb(r.goalPaperRss)}: ${verdict(p.summary.peakRss < r.goalPaperRss)}); ` +
      `second-half growth RSS ${pct(p.summary.rssGrowthPct)} (goal < ${r.goalGrowthPct}%: ${verdict(p.summary.rssGrowthPct < r.goalGrowthPct)}), heap ${pct(p.summary.heapGrowthPct)}; ${p.openOrdersLeft} orders left open`,
    `paper memory samples (market time: RSS / heap in use): ${p.samples.map((x) => `${(x.atMs / 60_000).toFixed(0)} min ${mb(x.rss)} / ${mb(x.heapUsed)}`).join('; ')}`,
    `simulator alone: ${s.games} games, ${s.hours} h of market time in ${s.wallSeconds.toFixed(0)} s, after ${s.warmupHours} h of warm-up: start ${mb(first(s.samples))}, middle ${mb(s.summary.middleRss)}, end ${mb(s.summary.endRss)}, ` +
      `peak ${mb(s.summary.peakRss)} (goal < ${mb(r.goalSimRss)}: ${verdict(s.summary.peakRss < r.goalSimRss)}); second-half growth RSS ${pct(s.summary.rssGrowthPct)}, heap ${pct(s.summary.heapGrowthPct)}; ` +
      `held at the end: ${s.retained.games} games, ${s.retained.orders} orders, ${s.retained.fills} fills, ${s.retained.gradeVersions} grade versions`,
    `simulator alone samples (market time: RSS / heap in use): ${s.samples.map((x) => `${(x.atMs / 60_000).toFixed(0)} min ${mb(x.rss)} / ${mb(x.heapUsed)}`).join('; ')}`,
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { hours: { type: 'string', default: '4' }, games: { type: 'string', default: '200' }, sample: { type: 'string', default: '15' }, json: { type: 'boolean', default: false } } });
  const result = await runPaperMemoryBench({ hours: Number(values.hours), games: Number(values.games), sampleMinutes: Number(values.sample) });
  for (const line of describePaperMemory(result)) process.stderr.write(`${line}\n`);
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
}
