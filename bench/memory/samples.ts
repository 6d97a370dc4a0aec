/** One reading of memory at a point of market time. */
export interface MemorySample {
  /** Market time since the start of the run, ms. */
  readonly atMs: number;
  readonly rss: number;
  readonly heapUsed: number;
  /** What V8 holds for its heap, used or not (part of rss). */
  readonly heapTotal: number;
  /** Memory of C++ objects bound to JavaScript ones (buffers, sockets, zlib), outside the V8 heap. */
  readonly external: number;
  /** The simulator process's resident memory and heap in use, when it runs apart. */
  readonly simRss: number | null;
  readonly simHeapUsed: number | null;
}

export interface MemorySummary {
  readonly peakRss: number;
  readonly middleRss: number;
  readonly endRss: number;
  /** (end − middle) / middle, percent: growth over the second half of the run. */
  readonly rssGrowthPct: number;
  readonly middleHeap: number;
  readonly endHeap: number;
  readonly heapGrowthPct: number;
  /** The middle and end samples themselves, for the breakdown of what grew. */
  readonly middle: MemorySample;
  readonly end: MemorySample;
  readonly peakSimRss: number | null;
}

const growth = (from: number, to: number) => ((to - from) / from) * 100;

/**
 * Peak, middle and end of the samples taken after warm-up. The middle is the sample
 * nearest half the run's market time, so middle → end is the run's second half.
 */
export function summarize(samples: readonly MemorySample[], durationMs: number): MemorySummary {
  if (samples.length === 0) throw new Error('no memory samples: the run is shorter than its warm-up');
  const half = durationMs / 2;
  const middle = samples.reduce((best, s) => (Math.abs(s.atMs - half) < Math.abs(best.atMs - half) ? s : best));
  const end = samples[samples.length - 1]!;
  const sims = samples.map((s) => s.simRss).filter((x): x is number => x !== null);
  return {
    peakRss: Math.max(...samples.map((s) => s.rss)),
    middleRss: middle.rss,
    endRss: end.rss,
    rssGrowthPct: growth(middle.rss, end.rss),
    middleHeap: middle.heapUsed,
    endHeap: end.heapUsed,
    heapGrowthPct: growth(middle.heapUsed, end.heapUsed),
    middle,
    end,
    peakSimRss: sims.length > 0 ? Math.max(...sims) : null,
  };
}

const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;

/**
 * Where a sample's resident memory is: V8's heap in use, what V8 holds beyond that (its
 * committed but free pages), external memory (buffers, sockets), and the rest (code, stacks,
 * the allocator's own pages and what it keeps of freed memory).
 */
export function breakdown(s: MemorySample): string {
  const rest = s.rss - s.heapTotal - s.external;
  return (
    `rss ${mib(s.rss)} = heap in use ${mib(s.heapUsed)} + heap committed, ` +
    `free ${mib(s.heapTotal - s.heapUsed)} + external ${mib(s.external)} + other ${mib(rest)}`
  );
}
