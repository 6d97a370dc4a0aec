import { randomUUID } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { rm, writeFile } from 'node:fs/promises';
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { parse, stringify } from 'yaml';
import { ConfigError } from '../config/errors.ts';
import { parseConfigText, type LoadConfigOptions } from '../config/load.ts';
import type { BacktestConfig } from '../config/sections/backtest.ts';
import type { RunConfig } from '../config/types.ts';
import { BacktestConfigError } from '../backtest/errors.ts';
import { variantThreadLimits } from './replay-heap.ts';
import type { BacktestResult } from './backtest-run.ts';
import type { Tape } from '../backtest/tape.ts';
import { TapeFile } from '../backtest/tape/file.ts';
import type { FillModelKind } from '../backtest/venue/queue-model.ts';
import { variantFolder } from '../backtest/report/write.ts';
import { compiledWorker } from '../loader/compiled-entry.mjs';
import { namesBuiltInStrategiesOnly } from '../loader/module-path.mjs';

/** One `--sweep key=v1,v2,…`: a config path and the values it takes. */
export interface SweepAxis {
  readonly key: string;
  readonly values: readonly string[];
}

export type Variant = Readonly<Record<string, string>>;

export function parseSweepAxis(text: string): SweepAxis {
  const eq = text.indexOf('=');
  const key = eq > 0 ? text.slice(0, eq).trim() : '';
  const values =
    eq > 0
      ? text
          .slice(eq + 1)
          .split(',')
          .map((v) => v.trim())
      : [];
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(key) || values.length === 0 || values.some((v) => v === '')) {
    throw new BacktestConfigError(
      `invalid --sweep ${JSON.stringify(text)}: write key=v1,v2,… with a dotted config path, e.g. strategies.quotes.params.halfSpread=0.02,0.03`,
    );
  }
  return { key, values };
}

/** Every combination of the axes (several keys make a grid), first key slowest. */
export function sweepGrid(axes: readonly SweepAxis[]): Variant[] {
  let out: Record<string, string>[] = [{}];
  for (const a of axes) out = out.flatMap((v) => a.values.map((x) => ({ ...v, [a.key]: x })));
  return out;
}

/** `0.02` → 0.02, `true` → true, anything else stays text. */
function scalar(v: string): unknown {
  if (v === 'true' || v === 'false') return v === 'true';
  if (v !== '' && Number.isFinite(Number(v))) return Number(v);
  return v;
}

/**
 * The config text with a variant's values set. A path walks mappings by key and lists by
 * the `id` of their entries (or an index): `strategies.quotes.params.halfSpread`. Missing
 * mappings are created. A path that cannot be walked fails here; what the values make of the
 * config is checked by `checkSweepRuns`.
 */
export function applyVariant(configText: string, variant: Variant): string {
  const doc: unknown = parse(configText) ?? {};
  for (const [path, value] of Object.entries(variant)) {
    const parts = path.split('.');
    let node = doc as Record<string, unknown> | unknown[];
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      if (Array.isArray(node)) {
        const idx = node.findIndex((e) => typeof e === 'object' && e !== null && (e as { id?: unknown }).id === part);
        const at = idx >= 0 ? idx : /^\d+$/.test(part) ? Number(part) : -1;
        if (at < 0 || at >= node.length)
          throw new BacktestConfigError(`--sweep ${path}: no entry with id ${JSON.stringify(part)}`);
        if (last) node[at] = scalar(value);
        else node = node[at] as Record<string, unknown>;
        return;
      }
      if (typeof node !== 'object' || node === null)
        throw new BacktestConfigError(`--sweep ${path}: ${parts.slice(0, i).join('.')} is not a mapping`);
      if (last) node[part] = scalar(value);
      else {
        if (node[part] === undefined || node[part] === null) node[part] = {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return stringify(doc);
}

/** One variant and the config text it runs with. */
export interface SweepRun {
  readonly variant: Variant;
  readonly configText: string;
}

/** Each variant applied to the config text; a bad path fails here, before anything runs. */
export function sweepRuns(configText: string, variants: readonly Variant[]): SweepRun[] {
  return variants.map((variant) => ({ variant, configText: applyVariant(configText, variant) }));
}

/**
 * Every variant's config validated as a config file is (schema, strategy modules and their
 * params), so a misspelt key or a bad value fails before the recording is read, not inside
 * a worker after other variants ran.
 */
export async function checkSweepRuns(
  runs: readonly SweepRun[],
  configPath: string,
  options: LoadConfigOptions,
): Promise<void> {
  for (const run of runs) {
    try {
      await parseConfigText(run.configText, configPath, options);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      // Paths, not lines: the lines would be those of the variant's generated text, not the file's.
      const what = err.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
      throw new BacktestConfigError(`--sweep variant ${variantLabel(run.variant)}: ${what || err.message}`);
    }
  }
}

/** `a=1 b=x`: how a variant is named in messages and tables. */
export function variantLabel(v: Variant): string {
  return Object.entries(v)
    .map(([k, x]) => `${k}=${x}`)
    .join(' ');
}

/** Overrides of every variant's backtest section, as the CLI flags give them. */
export interface SweepOverrides {
  readonly seed?: number;
  /** The kind only: each variant keeps its own `power`. */
  readonly fillModel?: FillModelKind;
}

/**
 * The config path each override sets, as a sweep axis names it. An axis on one of these
 * paths would be overridden in every variant (each row labelled with a value it did not
 * run with), so the CLI refuses the pair.
 */
export const OVERRIDE_KEYS: { readonly [K in keyof SweepOverrides]-?: string } = {
  seed: 'backtest.seed',
  fillModel: 'backtest.fillModel',
};

/** A run's overrides of its config's backtest section; a `--fill-model` keeps the config's `power`. */
export function backtestSettings(config: RunConfig, o: SweepOverrides): Partial<BacktestConfig> {
  return {
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.fillModel !== undefined ? { fillModel: { kind: o.fillModel, power: config.backtest.fillModel.power } } : {}),
  };
}

/** What a sweep worker is started with: a tape file it streams for every variant, or an in-memory tape serialised once. */
export interface SweepWorkerData {
  readonly tapePath: string;
  readonly kind: 'tape' | 'serialized';
}

/** One variant for a worker to run; a worker runs one after another. */
export interface SweepJob {
  readonly index: number;
  readonly configText: string;
  readonly configPath: string;
  readonly overrides: SweepOverrides;
  /** The folder the worker writes the variant's report into as it runs (VariantSpec.reportDir). */
  readonly reportDir?: string;
}

/**
 * How a sweep runs. The overrides are their own field, not spread in beside the rest, so
 * they go to every job as given: `onDone` is a function, which a worker message cannot carry.
 */
export interface SweepOptions {
  readonly overrides?: SweepOverrides;
  readonly workers?: number;
  readonly onDone?: (done: number, total: number) => void;
  /**
   * The sweep's report folder: each variant's worker writes the variant's report into its
   * variantFolder there as it runs (orders.csv and fills.csv a row at a time), and hands back
   * a summary (variantSummary) instead of every row. Without it every result is whole.
   */
  readonly reportDir?: string;
  /** Each worker thread's old-generation ceiling, MB (default VARIANT_THREAD_OLD_SPACE_MB). */
  readonly threadHeapMb?: number;
}

/** A worker's answer to one job. */
export interface SweepAnswer {
  readonly index: number;
  readonly result: BacktestResult | null;
  readonly error: string | null;
  readonly replayMs: number;
}

export interface SweepOutcome {
  readonly variant: Variant;
  readonly result: BacktestResult | null;
  readonly error: string | null;
  readonly replayMs: number;
  /** Where the worker wrote the variant's report (SweepOptions.reportDir); null or absent when the result is whole. */
  readonly reportDir?: string | null;
}

/** How many worker threads a sweep of `variants` runs on: as asked (default one per core), never more than the variants. */
export function sweepWorkers(variants: number, workers?: number): number {
  return Math.max(1, Math.min(workers ?? availableParallelism(), variants));
}

/**
 * Run the variants on worker threads, one per core, every worker replaying the same
 * pre-parsed tape (serialised once). A worker stays up for the variants of its lane: it
 * reads the tape once, and its later variants run on code the JIT has already warmed up
 * (a cold replay takes about twice as long as a warm one). A variant that fails, or
 * whose worker dies, fails alone: its lane goes on with a fresh worker. Strategy modules
 * load once per worker, so a strategy must keep no state of its own between runs (the
 * strategy contract: a pure function of its view). Outcomes come back in variant order.
 */
export async function runSweep(
  tape: Tape | TapeFile,
  runs: readonly SweepRun[],
  configPath: string,
  options: SweepOptions = {},
): Promise<SweepOutcome[]> {
  // A tape file is read by every worker a chunk at a time; an in-memory tape is serialised for them.
  const onFile = tape instanceof TapeFile;
  const tapePath = onFile ? tape.path : join(tmpdir(), `linesmith-tape-${randomUUID()}.bin`);
  if (!onFile) await writeFile(tapePath, serialize(tape));
  const kind = onFile ? 'tape' : 'serialized';
  const out = new Array<SweepOutcome>(runs.length);
  let next = 0;
  let done = 0;
  const lanes = sweepWorkers(runs.length, options.workers);
  const script = await sweepWorkerScript(runs);
  const overrides = options.overrides ?? {};
  const folderOf = (i: number) =>
    options.reportDir === undefined ? undefined : join(options.reportDir, variantFolder(i));
  const finish = (i: number, o: Omit<SweepOutcome, 'variant' | 'reportDir'>) => {
    const dir = folderOf(i);
    out[i] = { variant: runs[i]!.variant, ...o, reportDir: o.result !== null && dir !== undefined ? dir : null };
    options.onDone?.(++done, runs.length);
  };
  const lane = async () => {
    let worker: SweepLaneWorker | null = null;
    try {
      for (let i = next++; i < runs.length; i = next++) {
        // One that died between two variants (after answering) is replaced before the next.
        if (worker?.dead) worker = null;
        worker ??= new SweepLaneWorker({ tapePath, kind }, options.threadHeapMb, script);
        const dir = folderOf(i);
        const answer = await worker.run({
          index: i,
          configText: runs[i]!.configText,
          configPath,
          overrides,
          ...(dir !== undefined ? { reportDir: dir } : {}),
        });
        finish(i, answer);
        // A failed variant may leave work behind (a timer, a promise yet to reject) that
        // would fail the next one: its worker is not reused.
        if (answer.error !== null) {
          await worker.close();
          worker = null;
        }
      }
    } finally {
      await worker?.close();
    }
  };
  try {
    await Promise.all(Array.from({ length: lanes }, lane));
  } finally {
    if (!onFile) await rm(tapePath, { force: true });
  }
  return out;
}

/** A lane's worker run from source: the TypeScript loader, then the worker. */
const SWEEP_WORKER_SOURCE = new URL('./sweep-worker.mjs', import.meta.url);

/**
 * The script of the sweep's worker threads: compiled ahead when every variant names built-in
 * strategies only (a strategy in a file of its own needs the TypeScript loader), else from
 * source.
 */
export async function sweepWorkerScript(runs: readonly SweepRun[]): Promise<string | URL> {
  if (!runs.every((r) => namesBuiltInStrategiesOnly(r.configText))) return SWEEP_WORKER_SOURCE;
  return compiledWorker(new URL('./sweep-worker.ts', import.meta.url), SWEEP_WORKER_SOURCE);
}

/** One worker thread of a lane: runs the jobs it is given one at a time. */
export class SweepLaneWorker {
  readonly #worker: Worker;
  #pending: { index: number; resolve: (a: Omit<SweepAnswer, 'index'>) => void } | null = null;
  #dead: string | null = null;

  constructor(data: SweepWorkerData, threadHeapMb?: number, script: string | URL = SWEEP_WORKER_SOURCE) {
    this.#worker = new Worker(script, {
      workerData: data,
      resourceLimits: variantThreadLimits(threadHeapMb),
    });
    this.#worker.on('message', (m: SweepAnswer) => {
      const p = this.#pending;
      if (!p || m.index !== p.index) return;
      this.#pending = null;
      p.resolve({ result: m.result, error: m.error, replayMs: m.replayMs });
    });
    this.#worker.on('error', (err) => this.#die(err.message));
    this.#worker.on('exit', (code) => this.#die(`worker exited with code ${code}`));
  }

  /** Whether the worker is gone (it crashed or exited). */
  get dead(): boolean {
    return this.#dead !== null;
  }

  run(job: SweepJob): Promise<Omit<SweepAnswer, 'index'>> {
    return new Promise((resolve) => {
      this.#pending = { index: job.index, resolve };
      this.#worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    if (this.#dead === null) await this.#worker.terminate();
  }

  #die(reason: string): void {
    if (this.#dead !== null) return;
    this.#dead = reason;
    const p = this.#pending;
    this.#pending = null;
    p?.resolve({ result: null, error: reason, replayMs: 0 });
  }
}
