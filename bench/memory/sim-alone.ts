import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { manualTime } from '../../src/shared/time.ts';
import { fullGc } from './gc.ts';
import { startMarket } from './market.ts';
import { summarize, type MemorySample, type MemorySummary } from './samples.ts';

/**
 * The simulator alone — the memory run's synthetic market with nobody else trading — on a
 * manual clock moved a second at a time as fast as the machine allows, sampled like the
 * memory run (full GC and idle wall time, twice, then resident memory and heap in use).
 * Run as a script (`--json` prints the result as the last line of stdout).
 */
export interface SimAloneResult {
  readonly games: number;
  readonly hours: number;
  readonly warmupHours: number;
  readonly wallSeconds: number;
  readonly samples: readonly MemorySample[];
  readonly summary: MemorySummary;
  /** What the engine held at the end (games, orders, fills, grade versions). */
  readonly retained: {
    readonly games: number;
    readonly orders: number;
    readonly fills: number;
    readonly gradeVersions: number;
  };
  readonly maxRss: number;
}

const START = Date.UTC(2026, 0, 15, 12);

export async function runSimAlone(o: {
  hours: number;
  games: number;
  sampleMinutes: number;
  warmupHours?: number;
  quiesceMs?: number;
  onSample?: (s: MemorySample) => void;
}): Promise<SimAloneResult> {
  const warmupHours = o.warmupHours ?? Math.min(1, o.hours / 4);
  const quiesceMs = o.quiesceMs ?? 1_000;
  const time = manualTime(START);
  const gc = fullGc();
  const wall0 = performance.now();
  const market = await startMarket({ games: o.games, seed: 7, balance: 1_000_000, commission: 0.01, time });
  const samples: MemorySample[] = [];
  const durationMs = o.hours * 3_600_000;
  const sampleMs = o.sampleMinutes * 60_000;
  try {
    for (let at = 0, next = sampleMs; at < durationMs;) {
      at = Math.min(at + 1_000, durationMs, next);
      time.advanceTo(START + at);
      if (at !== next) continue;
      for (let round = 0; round < 2; round++) {
        gc();
        await new Promise((done) => setTimeout(done, quiesceMs / 2));
      }
      const u = process.memoryUsage();
      const sample: MemorySample = {
        atMs: at,
        rss: u.rss,
        heapUsed: u.heapUsed,
        heapTotal: u.heapTotal,
        external: u.external,
        simRss: null,
        simHeapUsed: null,
      };
      samples.push(sample);
      o.onSample?.(sample);
      next += sampleMs;
    }
  } finally {
    await market.sim.close();
  }
  return {
    games: o.games,
    hours: o.hours,
    warmupHours,
    wallSeconds: (performance.now() - wall0) / 1000,
    samples,
    summary: summarize(
      samples.filter((x) => x.atMs >= warmupHours * 3_600_000),
      durationMs,
    ),
    retained: market.sim.context.engine.retainedCounts(),
    maxRss: process.resourceUsage().maxRSS * 1024,
  };
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
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
  const result = await runSimAlone({
    hours: Number(values.hours),
    games: Number(values.games),
    sampleMinutes: Number(values.sample),
    onSample: (s) =>
      process.stderr.write(
        `simulator alone ${(s.atMs / 60_000).toFixed(0).padStart(4)} min  rss ${mb(s.rss)}  heap ${mb(s.heapUsed)} of ${mb(s.heapTotal)}\n`,
      ),
  });
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else
    process.stdout.write(
      `simulator alone: peak rss ${mb(result.summary.peakRss)}, ` +
        `middle ${mb(result.summary.middleRss)}, end ${mb(result.summary.endRss)}, ` +
        `growth ${result.summary.rssGrowthPct.toFixed(1)}%\n`,
    );
}
