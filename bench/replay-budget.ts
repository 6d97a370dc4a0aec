import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInStrategyResolver } from '../src/app/strategy-registry.ts';
import { runBacktest } from '../src/app/backtest-run.ts';
import { openTape } from '../src/backtest/tape/cache.ts';
import { loadConfig } from '../src/config/index.ts';
import type { RunConfig } from '../src/config/types.ts';
import { silentLogger } from '../src/shared/logger.ts';
import { REPLAY_NODE_ARGS, runJsonChild } from './child.ts';

/**
 * Where a replay's CPU time goes, per recorded event, split by the layer whose code runs:
 * the code issue 20 keeps (what live runs too: strategies, runtime, order manager and risk,
 * book model, RxJS; and the engine replica's rules) against the code only the backtest runs
 * (simulated venue, report collector, tape, replay loop and virtual clock). A target of E
 * events/s allows 10⁶/E µs per event; when the kept layers alone cost more than that, no
 * change to the backtest's own code reaches the target, and the figure says by how much
 * the kept code would have to speed up.
 *
 * Method: per config, warm-up replays of `paper-seed7` from its tape (the best of them is
 * the µs per event), then replays under V8's sampling profiler (100 µs interval); each
 * sample's self time goes to the layer of the function it hit, by source path. The shares
 * of the profiled runs are applied to the unprofiled µs per event (the profiler costs a few
 * percent). Strategy evaluations are counted by wrapping each module's `quote`.
 *
 *   npx tsx bench/replay-budget.ts [--runs N]   (or a step of `npm run bench`)
 */
const root = resolve(fileURLToPath(import.meta.url), '../..');
const RECORDING = resolve(root, 'backtest/data/paper-seed7');
const SAMPLING_INTERVAL_US = 100;

/** The configs issue 20 sets targets for, with their events/s goal. */
export const BUDGET_CONFIGS = [
  { file: 'bench/backtest-floor.yaml', goal: null },
  { file: 'bench/backtest-quiet.yaml', goal: 1_000_000 },
  { file: 'config/example.yaml', goal: 300_000 },
  { file: 'test/backtest/golden/fixed-spread.yaml', goal: 150_000 },
] as const;

export interface LayerCost {
  readonly layer: string;
  /**
   * Code whose behaviour issue 20 keeps: what live and paper run too (strategies, runtime,
   * order manager and risk, book model) and the engine replica's rules. Only its speed may change.
   */
  readonly kept: boolean;
  readonly usPerEvent: number;
}

export interface ReplayBudget {
  readonly config: string;
  readonly events: number;
  /** Best unprofiled replay, CPU µs per recorded event. */
  readonly usPerEvent: number;
  /** null: no target (the floor). */
  readonly goalEventsPerSecond: number | null;
  readonly evaluationsPerEvent: number;
  /** Places, cancels and edits sent per recorded event. */
  readonly actionsPerEvent: number;
  readonly layers: readonly LayerCost[];
}

interface Layer {
  readonly name: string;
  readonly kept: boolean;
  readonly holds: (url: string, fn: string) => boolean;
}

const inSrc = (url: string, ...dirs: string[]) => dirs.some((d) => url.includes(`/src/${d}`));

/** First match wins; a function outside every layer is "other". */
const LAYERS: readonly Layer[] = [
  { name: 'strategies', kept: true, holds: (u) => u.includes('/strategies/') || inSrc(u, 'strategy/') },
  { name: 'runtime (events, evaluation scheduling)', kept: true, holds: (u) => inSrc(u, 'runtime/') },
  { name: 'order manager, risk gate, own book, money', kept: true, holds: (u) => inSrc(u, 'orders/', 'money/') },
  { name: 'book model', kept: true, holds: (u) => inSrc(u, 'market-model/') },
  { name: 'engine replica', kept: true, holds: (u) => inSrc(u, 'engine/') },
  { name: 'RxJS (the runtime’s streams)', kept: true, holds: (u) => u.includes('/node_modules/rxjs/') },
  { name: 'odds, markets, exchange types', kept: true, holds: (u) => inSrc(u, 'odds/', 'markets/', 'exchange/') },
  { name: 'simulated venue', kept: false, holds: (u) => inSrc(u, 'backtest/venue/') },
  { name: 'report collector', kept: false, holds: (u) => inSrc(u, 'backtest/report/') },
  {
    name: 'tape read',
    kept: false,
    holds: (u) => inSrc(u, 'backtest/tape') || u === 'node:zlib' || u.startsWith('node:internal/fs'),
  },
  { name: 'replay loop, virtual clock', kept: false, holds: (u) => inSrc(u, 'app/', 'shared/', 'backtest/') },
  { name: 'garbage collection', kept: false, holds: (_u, fn) => fn === '(garbage collector)' },
];
const OTHER = 'other (V8, Node internals, the harness)';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly url: string; readonly functionName: string };
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/**
 * Self time per layer (µs), idle and the profiler's own calls excluded. A function of no layer (a builtin such as
 * `Map.prototype.set`, a Node internal, a library) counts for the layer that called it:
 * the work is done on that layer's behalf. Only what no layer called (V8's own work, the
 * harness) is "other".
 */
function selfTimeByLayer(p: Profile): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const layerOf = new Map<number, string | null>();
  const resolveLayer = (id: number): string | null => {
    const known = layerOf.get(id);
    if (known !== undefined) return known;
    const { url, functionName } = byId.get(id)!.callFrame;
    const parent = parentOf.get(id);
    // Idle time and the profiler's own calls (starting, stopping, building the profile) are no one's.
    const own =
      functionName === '(idle)' || url.startsWith('node:inspector')
        ? null
        : LAYERS.find((l) => l.holds(url, functionName))?.name;
    const layer = own !== undefined ? own : parent === undefined ? OTHER : resolveLayer(parent);
    layerOf.set(id, layer);
    return layer;
  };
  const out = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const layer = resolveLayer(id);
    if (layer) out.set(layer, (out.get(layer) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  return out;
}

/** The config with each strategy's `quote` counting its calls. */
function counting(config: RunConfig, count: { evaluations: number }): RunConfig {
  return {
    ...config,
    strategies: config.strategies.map((s) => ({
      ...s,
      module: {
        ...s.module,
        quote: (view, params) => {
          count.evaluations++;
          return s.module.quote(view, params);
        },
      },
    })),
  };
}

const cpuSeconds = (c0: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1e6;
};

export async function measureReplayBudget(runs = 8, profiledRuns = 4): Promise<ReplayBudget[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ls-budget-'));
  const logger = silentLogger();
  const session = new Session();
  session.connect();
  try {
    await openTape([RECORDING], { dir, rebuild: true });
    const out: ReplayBudget[] = [];
    for (const { file, goal } of BUDGET_CONFIGS) {
      const count = { evaluations: 0 };
      const config = counting(
        await loadConfig(resolve(root, file), { resolveStrategy: builtInStrategyResolver() }),
        count,
      );
      const replay = async (opened?: Awaited<ReturnType<typeof openTape>>) => {
        const { tape } = opened ?? (await openTape([RECORDING], { dir }));
        count.evaluations = 0;
        const c0 = process.cpuUsage();
        const res = await runBacktest({ config, tape, logger });
        return { res, seconds: cpuSeconds(c0) };
      };
      let best = Infinity;
      let last: Awaited<ReturnType<typeof replay>> | null = null;
      for (let r = 0; r < runs; r++) {
        last = await replay();
        best = Math.min(best, last.seconds / last.res.events);
      }
      // Opened before the profiler starts: opening (the recording's hash, the chunks' checksums)
      // is outside the replay's CPU time above, so its samples would count for a layer that
      // the µs per event do not hold.
      const opened: Awaited<ReturnType<typeof openTape>>[] = [];
      for (let r = 0; r < profiledRuns; r++) opened.push(await openTape([RECORDING], { dir }));
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
      await session.post('Profiler.start');
      for (const o of opened) await replay(o);
      const { profile } = await session.post('Profiler.stop');
      await session.post('Profiler.disable');
      const self = selfTimeByLayer(profile as unknown as Profile);
      const total = [...self.values()].reduce((a, b) => a + b, 0);
      const usPerEvent = best * 1e6;
      const layers = [...LAYERS.map((l) => ({ name: l.name, kept: l.kept })), { name: OTHER, kept: false }]
        .map((l) => ({ layer: l.name, kept: l.kept, usPerEvent: ((self.get(l.name) ?? 0) / total) * usPerEvent }))
        .filter((l) => l.usPerEvent > 0);
      const events = last!.res.events;
      const orders = last!.res.report.metrics.orders;
      out.push({
        config: file,
        events,
        usPerEvent,
        goalEventsPerSecond: goal,
        evaluationsPerEvent: count.evaluations / events,
        actionsPerEvent: (orders.placed + orders.cancelled + orders.edited) / events,
        layers,
      });
    }
    return out;
  } finally {
    session.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The kept layers' µs per event, and the target's budget per event (null: no target). */
export function budgetVerdict(b: ReplayBudget): { kept: number; budget: number | null } {
  const kept = b.layers.filter((l) => l.kept).reduce((a, l) => a + l.usPerEvent, 0);
  return { kept, budget: b.goalEventsPerSecond === null ? null : 1e6 / b.goalEventsPerSecond };
}

/** One line per config for a reader. */
export function budgetLines(budgets: readonly ReplayBudget[]): string[] {
  return budgets.map((b) => {
    const { kept, budget } = budgetVerdict(b);
    const parts = b.layers
      .slice()
      .sort((x, y) => y.usPerEvent - x.usPerEvent)
      .map((l) => `${l.layer}${l.kept ? '*' : ''} ${l.usPerEvent.toFixed(2)}`);
    return (
      `${b.config}: ${b.usPerEvent.toFixed(2)} µs/event (${Math.round(1e6 / b.usPerEvent).toLocaleString('en-US')} events per CPU-s)` +
      `, ${b.evaluationsPerEvent.toFixed(2)} evaluations and ${b.actionsPerEvent.toFixed(3)} order actions per event; ` +
      `kept code* ${kept.toFixed(2)} µs` +
      (budget === null ? '' : ` against a budget of ${budget.toFixed(2)} µs`) +
      ` — ${parts.join(', ')}`
    );
  });
}

/**
 * The same in a fresh process: JIT state and garbage of other benchmarks would count otherwise.
 * It runs from source, not compiled as the replay benchmarks' children are: the profile
 * tells the layers apart by each function's source file.
 */
export async function runReplayBudgetInChild(): Promise<ReplayBudget[]> {
  return runJsonChild<ReplayBudget[]>('replay budget', fileURLToPath(import.meta.url), [], REPLAY_NODE_ARGS);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--runs');
  const budgets = await measureReplayBudget(at > 0 ? Number(process.argv[at + 1]) : 8);
  for (const line of budgetLines(budgets)) process.stderr.write(`${line}\n`);
  console.log(JSON.stringify(budgets));
}
