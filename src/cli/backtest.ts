import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { builtInStrategyResolver } from '../../strategies/index.ts';
import { BacktestConfigError, BacktestInputError, formatInputProblem, type InputProblem } from '../backtest/errors.ts';
import { renderSweepHtml } from '../backtest/report/html.ts';
import type { BacktestReport } from '../backtest/report/types.ts';
import { writeReport } from '../backtest/report/write.ts';
import { compareWithRecording, parityLines, readDecisions, type RecordedDecisions } from '../backtest/parity.ts';
import { runBacktest } from '../backtest/run.ts';
import {
  backtestSettings,
  checkSweepRuns,
  OVERRIDE_KEYS,
  parseSweepAxis,
  runSweep,
  sweepGrid,
  sweepRuns,
  sweepWorkers,
  variantLabel,
  type SweepOverrides,
  type SweepRun,
} from '../backtest/sweep.ts';
import { loadTape, type Tape } from '../backtest/tape.ts';
import { openTape } from '../backtest/tape/cache.ts';
import type { TapeFile } from '../backtest/tape/file.ts';
import { tapeLine, throughputLine } from './tape.ts';
import { FILL_MODEL_KINDS, type FillModelKind } from '../backtest/venue/queue-model.ts';
import { createRunLogger } from '../config/logging.ts';
import { LOG_LEVELS, type LogLevel } from '../config/fields.ts';
import { formatMoney } from '../money/rounding.ts';
import type { Decision } from '../runtime/runtime.ts';
import { loadRunConfigOrReport } from './run-config.ts';
import { EXIT_USAGE } from './sim.ts';

interface BacktestOptions {
  readonly config: string;
  readonly feed: string[];
  readonly seed?: string;
  readonly report: string;
  readonly strict?: boolean;
  readonly fillModel?: string;
  readonly sweep?: string[];
  readonly decisions?: string;
  readonly progress: boolean;
  readonly workers?: string;
  readonly logLevel?: string;
  readonly tape: boolean;
  readonly tapeDir?: string;
  readonly rebuildTape?: boolean;
}

const EXIT_FAILED = 1;

function usage(message: string): void {
  process.stderr.write(`linesmith backtest: ${message}\n`);
  process.exitCode = EXIT_USAGE;
}

/** The replay decided otherwise than the recorded session (`--decisions`). */
const EXIT_PARITY = 3;

/** The flag that gives each override, for messages. */
const OVERRIDE_FLAGS: { readonly [K in keyof SweepOverrides]-?: string } = { seed: '--seed', fillModel: '--fill-model' };

const int = (x: number) => Math.round(x).toLocaleString('en-US');

/** `replay 12,288/26,745 events · 81,234/s · ETA 0.2 s` */
export function replayProgress(done: number, total: number, seconds: number): string {
  const rate = seconds > 0 ? done / seconds : 0;
  const eta = rate > 0 ? (total - done) / rate : 0;
  return `replay ${int(done)}/${int(total)} events · ${int(rate)}/s · ETA ${eta.toFixed(1)} s`;
}

/**
 * `sweep 3/8 variants · ETA 12.4 s`. The ETA is the time per finished variant so far times
 * those left: the lanes run side by side, so that time is already shared among them.
 */
export function sweepProgress(done: number, total: number, seconds: number): string {
  const head = `sweep ${int(done)}/${int(total)} variants`;
  return done > 0 && seconds > 0 ? `${head} · ETA ${(((total - done) * seconds) / done).toFixed(1)} s` : head;
}

/** One line rewritten in place on a terminal; nothing elsewhere. */
function progressLine(enabled: boolean, render: (done: number, total: number, seconds: number) => string): ((done: number, total: number) => void) & { end(): void } {
  const started = performance.now();
  let shown = false;
  const f = (done: number, total: number) => {
    if (!enabled) return;
    process.stderr.write(`\r  ${render(done, total, (performance.now() - started) / 1000)}   `);
    shown = true;
  };
  return Object.assign(f, { end: () => shown && process.stderr.write('\n') });
}

/** The closing line of a sweep: its whole replay against the wall clock, every worker at once. */
export function sweepThroughputLine(s: { variants: number; failed: number; events: number; wallMs: number; workers: number }): string {
  const rate = s.wallMs > 0 ? (s.events / s.wallMs) * 1000 : 0;
  const failed = s.failed > 0 ? ` (${s.failed} failed)` : '';
  return (
    `  throughput     ${s.variants} variant(s)${failed}, ${int(s.events)} events replayed in ${(s.wallMs / 1000).toFixed(2)} s on ${s.workers} worker(s): ` +
    `${int(rate)} events/s in all, ${int(rate / s.workers)} per worker`
  );
}

export function summaryLines(r: Pick<BacktestReport, 'metrics' | 'notes'>): string[] {
  const m = r.metrics;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    // Paid counts graded fills only, so a taker whose bets are still open would read 0: what they can still be charged is beside it.
    `  P&L            total ${formatMoney(m.pnl.total)} = settled ${formatMoney(m.pnl.settled)} + marked ${formatMoney(m.pnl.marked)}; commission paid ${formatMoney(m.pnl.commissionPaid)}, at most ${formatMoney(m.pnl.commissionAccrued)} more on open bets`,
    `  fills          ${m.volume.fills} (maker ${m.volume.makerFills}, taker ${m.volume.takerFills}): maker volume ${formatMoney(m.volume.maker)}, taker volume ${formatMoney(m.volume.taker)}`,
    `  orders         ${m.orders.placed} placed (${m.orders.postArb} postArb), ${m.orders.cancelled} cancelled, ${m.orders.edited} edited (${m.orders.editsReplacing} replacing a partly filled order, ${m.orders.editsRejected} refused), ${m.orders.refusedByRisk} refused by risk, ${m.orders.rejectedByExchange} rejected; fill ratio ${pct(m.orders.fillRatio)} of orders, ${pct(m.orders.stakeFillRatio)} of stake`,
    `  mark-out       5 s ${formatMoney(m.markout['5s'].total)} (${m.markout['5s'].perStake.toFixed(4)}/stake), 60 s ${formatMoney(m.markout['60s'].total)} (${m.markout['60s'].perStake.toFixed(4)}/stake)`,
    `  risk           max drawdown ${formatMoney(m.maxDrawdown)}, max liability ${formatMoney(m.maxLiability)}`,
    ...r.notes.map((n) => `  note           ${n}`),
  ];
}

async function backtest(o: BacktestOptions): Promise<void> {
  const seed = o.seed !== undefined ? Number(o.seed) : undefined;
  if (seed !== undefined && !Number.isSafeInteger(seed)) return usage(`--seed must be a whole number, got ${JSON.stringify(o.seed)}`);
  const workers = o.workers !== undefined ? Number(o.workers) : undefined;
  if (workers !== undefined && !(Number.isSafeInteger(workers) && workers >= 1)) return usage(`--workers must be a whole number of at least 1, got ${JSON.stringify(o.workers)}`);
  if (o.logLevel !== undefined && !LOG_LEVELS.includes(o.logLevel as LogLevel)) return usage(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  if (o.fillModel !== undefined && !FILL_MODEL_KINDS.includes(o.fillModel as FillModelKind)) return usage(`--fill-model must be one of ${FILL_MODEL_KINDS.join(', ')}`);
  let axes;
  try {
    axes = (o.sweep ?? []).map(parseSweepAxis);
  } catch (err) {
    return usage((err as Error).message);
  }
  // Built once: the single run's settings come from it, and a sweep sends it to every variant.
  const overrides: SweepOverrides = { ...(seed !== undefined ? { seed } : {}), ...(o.fillModel !== undefined ? { fillModel: o.fillModel as FillModelKind } : {}) };
  for (const k of Object.keys(overrides) as (keyof SweepOverrides)[]) {
    const axis = axes.find((a) => a.key === OVERRIDE_KEYS[k]);
    // The flag would win in every variant, and the rows would be labelled with values they did not run with.
    if (axis) return usage(`${OVERRIDE_FLAGS[k]} ${String(overrides[k])} conflicts with --sweep ${axis.key}=${axis.values.join(',')}: the flag would set ${axis.key} in every variant; give one or the other`);
  }
  if (o.decisions !== undefined && axes.length > 0) return usage('--decisions compares one replay with the session it replays; it cannot be given with --sweep');
  // Everything that can be wrong with the config is found before a line is replayed.
  const config = await loadRunConfigOrReport(o.config);
  if (!config) return;
  const settings = backtestSettings(config, overrides);
  let runs: SweepRun[] = [];
  if (axes.length > 0) {
    try {
      runs = sweepRuns(await readFile(config.source, 'utf8'), sweepGrid(axes));
      await checkSweepRuns(runs, config.source, { resolveStrategy: builtInStrategyResolver() });
    } catch (err) {
      if (err instanceof BacktestConfigError) return usage(err.message);
      throw err;
    }
  }
  // The replay's own log: quiet unless asked, since a recording of hours logs every rejection.
  const logger = createRunLogger({ ...config.logging, level: (o.logLevel ?? 'error') as LogLevel });
  const tty = o.progress && process.stderr.isTTY === true;
  let loadStarted = 0;

  let recorded: RecordedDecisions | null = null;
  let tape: Tape | TapeFile;
  /** How the events were got: a tape built or reused, or the JSON read into memory. */
  let tapeNote: string;
  let minimalReadMs: number | null = null;
  try {
    if (o.decisions !== undefined) {
      recorded = await readDecisions(o.decisions, { strict: o.strict === true });
      for (const p of recorded.problems) process.stderr.write(`  skipped ${formatInputProblem(p)}\n`);
    }
    loadStarted = performance.now();
    // Under --strict the first problem stops the load, and the error names it: nothing was skipped.
    const reading = { strict: o.strict === true, ...(o.strict === true ? {} : { onProblem: (p: InputProblem) => process.stderr.write(`  skipped ${formatInputProblem(p)}\n`) }) };
    // The parity check compares with every item at once, so it reads the recording into memory.
    if (o.tape && recorded === null) {
      const cached = await openTape(o.feed, { ...reading, ...(o.tapeDir !== undefined ? { dir: o.tapeDir } : {}), rebuild: o.rebuildTape === true });
      tape = cached.tape;
      tapeNote = tapeLine(cached);
      minimalReadMs = cached.tape.footer.build.minimalReadMs;
    } else {
      tape = await loadTape(o.feed, reading);
      tapeNote = o.tape ? 'read into memory (--decisions compares every item)' : 'read into memory (--no-tape)';
    }
  } catch (err) {
    if (err instanceof BacktestInputError) {
      process.stderr.write(`linesmith backtest: ${err.message}\n`);
      process.exitCode = EXIT_FAILED;
      return;
    }
    throw err;
  }
  const loadMs = performance.now() - loadStarted;
  const loaded = 'items' in tape ? { events: tape.items.length, files: tape.files.length, problems: tape.problems.length } : { events: tape.footer.count, files: tape.footer.files.length, problems: tape.footer.problems.length };
  process.stdout.write(`loaded ${loaded.events.toLocaleString('en-US')} events from ${loaded.files} file(s) in ${(loadMs / 1000).toFixed(2)} s (${loaded.problems} line(s) skipped); ${tapeNote}\n`);

  if (runs.length > 0) {
    const lanes = sweepWorkers(runs.length, workers);
    process.stdout.write(`sweep: ${runs.length} variant(s) on ${lanes} worker thread(s)\n`);
    const progress = progressLine(tty, sweepProgress);
    progress(0, runs.length);
    const sweepStarted = performance.now();
    const outcomes = await runSweep(tape, runs, config.source, { overrides, workers: lanes, onDone: progress }).finally(() => progress.end());
    const wallMs = performance.now() - sweepStarted;
    const rows = [];
    let events = 0;
    // Settled P&L is net of the commission paid, marked P&L of the expected commission on open taker bets; the column is the most those can still be charged.
    const table = [['variant', 'total P&L', 'settled', 'marked', 'comm. paid', 'comm. open (max)', 'fills', 'fill ratio', 'mark-out 60s', 'max drawdown', 'max liability', 'replay ev/s']];
    for (const [i, out] of outcomes.entries()) {
      const name = variantLabel(out.variant);
      if (!out.result) {
        table.push([name, `failed: ${out.error ?? 'unknown'}`]);
        process.exitCode = EXIT_FAILED;
        continue;
      }
      await writeReport(join(o.report, `variant-${String(i + 1).padStart(3, '0')}`), out.result);
      rows.push({ variant: out.variant, report: out.result.report });
      events += out.result.events;
      const m = out.result.report.metrics;
      table.push([name, formatMoney(m.pnl.total), formatMoney(m.pnl.settled), formatMoney(m.pnl.marked), formatMoney(m.pnl.commissionPaid), formatMoney(m.pnl.commissionAccrued), String(m.volume.fills), `${(m.orders.fillRatio * 100).toFixed(1)}%`, formatMoney(m.markout['60s'].total), formatMoney(m.maxDrawdown), formatMoney(m.maxLiability), Math.round((out.result.events / out.replayMs) * 1000).toLocaleString('en-US')]);
    }
    const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => (r[c] ?? '').length)));
    for (const r of table) process.stdout.write(`  ${r.map((x, c) => x.padEnd(widths[c] ?? 0)).join('  ')}\n`);
    process.stdout.write(`${sweepThroughputLine({ variants: runs.length, failed: runs.length - rows.length, events, wallMs, workers: lanes })}\n`);
    await mkdir(o.report, { recursive: true });
    await writeFile(join(o.report, 'sweep.html'), renderSweepHtml(rows));
    process.stdout.write(`reports in ${resolve(o.report)} (sweep.html compares the variants)\n`);
    return;
  }

  const replayed: Decision[] = [];
  const progress = progressLine(tty, replayProgress);
  const started = performance.now();
  const result = await runBacktest({ config, tape, logger, settings, onProgress: progress, ...(recorded ? { onDecision: (d: Decision) => replayed.push(d) } : {}) });
  const replayMs = performance.now() - started;
  progress.end();
  const paths = await writeReport(o.report, result);
  process.stdout.write(`backtest of ${config.strategies.filter((s) => s.enabled).map((s) => s.id).join(', ')}\n`);
  for (const l of summaryLines(result.report)) process.stdout.write(`${l}\n`);
  process.stdout.write(`${throughputLine({ events: result.events, loadMs, replayMs, minimalReadMs })}\n`);
  process.stdout.write(`report: ${paths.html} (also ${paths.json}, ${paths.orders}, ${paths.fills})\n`);
  if (recorded) {
    const parity = compareWithRecording(recorded, replayed, tape as Tape);
    await writeFile(join(o.report, 'parity.json'), `${JSON.stringify(parity, null, 2)}\n`);
    for (const l of parityLines(parity)) process.stdout.write(`${l}\n`);
    if (parity.first !== null) process.exitCode = EXIT_PARITY;
  }
}

export function registerBacktest(program: Command): void {
  program
    .command('backtest')
    .description('replay recorded feeds through the strategies, order manager and risk checks of a config, with simulated execution on the engine replica, and write a report')
    .requiredOption('--config <file>', 'run configuration (YAML): strategies, risk, and the backtest section (fill model, latency, balance)')
    .requiredOption('--feed <path...>', 'recording files or directories (linesmith record output)')
    .option('--seed <n>', 'seed of the latency model (default: backtest.seed of the config)')
    .option('--report <dir>', 'directory for report.json, report.html, orders.csv, fills.csv', 'backtest-report')
    .option('--strict', 'stop at the first bad recording line instead of skipping it')
    .option('--fill-model <kind>', `queue model for our resting orders: ${FILL_MODEL_KINDS.join(', ')}`)
    .option('--sweep <key=values...>', 'run a grid of variants on worker threads, e.g. strategies.quotes.params.halfSpread=0.02,0.03')
    .option('--workers <n>', 'worker threads for --sweep (default: one per core)')
    .option('--decisions <file>', 'the decisions file of the recorded session (decisions-*.ndjson, written with recording.enabled): compare the replay\'s decisions with it, write parity.json, exit 3 where they differ')
    .option('--log-level <level>', 'log level of the replayed runtime (default error)')
    .option('--tape-dir <dir>', 'where the binary tapes of recordings are kept (default: .linesmith-tape beside the recording)')
    .option('--rebuild-tape', 'build the tape again even if a good one is there')
    .option('--no-tape', 'read the JSON recording into memory instead of building or reusing its binary tape')
    .option('--no-progress', 'no progress line')
    .action((o: BacktestOptions) => backtest(o));
}
