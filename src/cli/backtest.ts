import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { applyReplayHeapSettings, VARIANT_THREAD_OLD_SPACE_MB } from '../app/replay-heap.ts';
import { builtInStrategyResolver } from '../app/strategy-registry.ts';
import { BacktestConfigError, BacktestInputError, formatInputProblem, type InputProblem } from '../backtest/errors.ts';
import type { BacktestReport } from '../backtest/report/types.ts';
import { writeReport, writeSweepReport } from '../backtest/report/write.ts';
import { compareWithRecording, parityLines, readDecisions, type RecordedDecisions } from '../backtest/parity.ts';
import { runBacktest, runBacktestBuilding, type BacktestResult } from '../app/backtest-run.ts';
import { StreamedRows } from '../app/streamed-rows.ts';
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
} from '../app/sweep.ts';
import { loadTape, type Tape } from '../backtest/tape.ts';
import { findTape, type BuildReason } from '../backtest/tape/cache.ts';
import { TapeBuild } from '../backtest/tape/build.ts';
import type { TapeFile } from '../backtest/tape/file.ts';
import { BUILD_WHY, tapeLine, throughputLine } from './tape.ts';
import { FILL_MODEL_KINDS, type FillModelKind } from '../backtest/venue/queue-model.ts';
import { createRunLogger } from '../config/logging.ts';
import { LOG_LEVELS, type LogLevel } from '../config/fields.ts';
import { formatMoney } from '../money/rounding.ts';
import type { Decision } from '../runtime/runtime.ts';
import { loadRunConfigOrReport } from './run-config.ts';
import { EXIT, runtimeFailure, usageError } from './exit-codes.ts';
import {
  strategyErrorLines,
  type StrategyErrorCounts,
  type StrategyErrorKind,
  type StrategyErrorReport,
} from '../runtime/strategy-errors.ts';
import type { QueueSweepProgress } from '../app/queue/coordinator.ts';
import { QueueConfigError } from '../app/queue/errors.ts';
import { parseRedisAddress, type RedisAddress } from '../app/queue/redis-address.ts';
import { systemClock } from '../shared/clock.ts';

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
  readonly threadHeap?: string;
  readonly logLevel?: string;
  readonly queue?: string;
  readonly queueCredentials?: string;
  readonly sweepId?: string;
  readonly queueTapeDir?: string;
  readonly tape: boolean;
  readonly tapeDir?: string;
  readonly rebuildTape?: boolean;
}

const usage = (message: string): void => usageError('backtest', message);

/** The flag that gives each override, for messages. */
const OVERRIDE_FLAGS: { readonly [K in keyof SweepOverrides]-?: string } = {
  seed: '--seed',
  fillModel: '--fill-model',
};

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
function progressLine(
  enabled: boolean,
  render: (done: number, total: number, seconds: number) => string,
): ((done: number, total: number) => void) & { end(): void } {
  const started = performance.now();
  let shown = false;
  const f = (done: number, total: number) => {
    if (!enabled) return;
    process.stderr.write(`\r  ${render(done, total, (performance.now() - started) / 1000)}   `);
    shown = true;
  };
  return Object.assign(f, { end: () => shown && process.stderr.write('\n') });
}

/** `sweep 5/16 variants · 2 worker(s) · 310,402 events/s in all · ETA 8.1 s` */
export function queueSweepProgress(p: QueueSweepProgress): string {
  const seconds = p.elapsedMs / 1000;
  const rate = seconds > 0 ? p.events / seconds : 0;
  const eta = p.done > 0 && seconds > 0 ? ` · ETA ${(((p.total - p.done) * seconds) / p.done).toFixed(1)} s` : '';
  return `sweep ${int(p.done)}/${int(p.total)} variants · ${p.workers} worker(s) · ${int(rate)} events/s in all${eta}`;
}

/** The queue sweep's progress line on a terminal, with notices (the sweep id, Redis outages) printed above it everywhere. */
function queueProgressLine(
  enabled: boolean,
): ((p: QueueSweepProgress) => void) & { say(line: string): void; end(): void } {
  let shown = false;
  let last = '';
  const f = (p: QueueSweepProgress) => {
    last = queueSweepProgress(p);
    if (!enabled) return;
    process.stderr.write(`\r  ${last}   `);
    shown = true;
  };
  return Object.assign(f, {
    say: (line: string) => {
      process.stderr.write(`${shown ? '\r' : ''}  ${line}${' '.repeat(Math.max(0, last.length - line.length + 3))}\n`);
      if (shown) process.stderr.write(`\r  ${last}   `);
    },
    end: () => shown && process.stderr.write('\n'),
  });
}

/** The closing line of a sweep: its whole replay against the wall clock, every worker at once. */
export function sweepThroughputLine(s: {
  variants: number;
  failed: number;
  events: number;
  wallMs: number;
  workers: number;
}): string {
  const rate = s.wallMs > 0 ? (s.events / s.wallMs) * 1000 : 0;
  const failed = s.failed > 0 ? ` (${s.failed} failed)` : '';
  return (
    `  throughput     ${s.variants} variant(s)${failed}, ${int(s.events)} events replayed in ${(s.wallMs / 1000).toFixed(2)} s on ${s.workers} worker(s): ` +
    `${int(rate)} events/s in all, ${int(rate / s.workers)} per worker`
  );
}

/** The input line: only when the recording held something that was not replayed. */
function inputLine(i: BacktestReport['input'] | undefined): string[] {
  if (!i || i.unknownFrameTypes + i.malformedFrames + i.badLines === 0) return [];
  return [
    `  input          ${int(i.events)} events replayed; skipped: ${int(i.unknownFrameTypes)} price ` +
      `frame(s) of a type the client does not know (a live client skips them too), ` +
      `${int(i.malformedFrames)} malformed frame(s), ${int(i.badLines)} unusable line(s)`,
  ];
}

export function summaryLines(
  r: Pick<BacktestReport, 'metrics' | 'notes'> & {
    readonly input?: BacktestReport['input'];
    readonly strategyErrors?: StrategyErrorReport;
  },
): string[] {
  const m = r.metrics;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    // Paid counts graded fills only, so a taker whose bets are still open would read 0: what they can still be charged is beside it.
    `  P&L            total ${formatMoney(m.pnl.total)} = settled ${formatMoney(m.pnl.settled)} + marked ` +
      `${formatMoney(m.pnl.marked)}; commission paid ${formatMoney(m.pnl.commissionPaid)}, at most ` +
      `${formatMoney(m.pnl.commissionAccrued)} more on open bets`,
    `  fills          ${m.volume.fills} (maker ${m.volume.makerFills}, taker ${m.volume.takerFills}): ` +
      `maker volume ${formatMoney(m.volume.maker)}, taker volume ${formatMoney(m.volume.taker)}`,
    `  orders         ${m.orders.placed} placed (${m.orders.postArb} postArb), ${m.orders.cancelled} ` +
      `cancelled, ${m.orders.edited} edited (${m.orders.editsReplacing} replacing a partly filled order, ` +
      `${m.orders.editsRejected} refused), ${m.orders.refusedByRisk} refused by risk, ` +
      `${m.orders.rejectedByExchange} rejected; fill ratio ${pct(m.orders.fillRatio)} of orders, ` +
      `${pct(m.orders.stakeFillRatio)} of stake`,
    `  mark-out       5 s ${formatMoney(m.markout['5s'].total)} ` +
      `(${m.markout['5s'].perStake.toFixed(4)}/stake), 60 s ${formatMoney(m.markout['60s'].total)} (${m.markout['60s'].perStake.toFixed(4)}/stake)`,
    `  risk           max drawdown ${formatMoney(m.maxDrawdown)}, max liability ${formatMoney(m.maxLiability)}`,
    ...(r.strategyErrors ? strategyErrorLines(r.strategyErrors, '  strategy errors ') : []),
    ...inputLine(r.input),
    ...r.notes.map((n) => `  note           ${n}`),
  ];
}

async function backtest(o: BacktestOptions): Promise<void> {
  const seed = o.seed !== undefined ? Number(o.seed) : undefined;
  if (seed !== undefined && !Number.isSafeInteger(seed))
    return usage(`--seed must be a whole number, got ${JSON.stringify(o.seed)}`);
  const workers = o.workers !== undefined ? Number(o.workers) : undefined;
  if (workers !== undefined && !(Number.isSafeInteger(workers) && workers >= 1))
    return usage(`--workers must be a whole number of at least 1, got ${JSON.stringify(o.workers)}`);
  const threadHeapMb = o.threadHeap !== undefined ? Number(o.threadHeap) : undefined;
  if (threadHeapMb !== undefined && !(Number.isSafeInteger(threadHeapMb) && threadHeapMb >= 64))
    return usage(`--thread-heap must be a whole number of MB, at least 64, got ${JSON.stringify(o.threadHeap)}`);
  if (o.logLevel !== undefined && !LOG_LEVELS.includes(o.logLevel as LogLevel))
    return usage(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  if (o.fillModel !== undefined && !FILL_MODEL_KINDS.includes(o.fillModel as FillModelKind))
    return usage(`--fill-model must be one of ${FILL_MODEL_KINDS.join(', ')}`);
  let axes;
  try {
    axes = (o.sweep ?? []).map(parseSweepAxis);
  } catch (err) {
    return usage((err as Error).message);
  }
  // Built once: the single run's settings come from it, and a sweep sends it to every variant.
  const overrides: SweepOverrides = {
    ...(seed !== undefined ? { seed } : {}),
    ...(o.fillModel !== undefined ? { fillModel: o.fillModel as FillModelKind } : {}),
  };
  for (const k of Object.keys(overrides) as (keyof SweepOverrides)[]) {
    const axis = axes.find((a) => a.key === OVERRIDE_KEYS[k]);
    // The flag would win in every variant, and the rows would be labelled with values they did not run with.
    if (axis)
      return usage(
        `${OVERRIDE_FLAGS[k]} ${String(overrides[k])} conflicts with --sweep ` +
          `${axis.key}=${axis.values.join(',')}: the flag would set ${axis.key} in every variant; give one or the other`,
      );
  }
  if (o.decisions !== undefined && axes.length > 0)
    return usage('--decisions compares one replay with the session it replays; it cannot be given with --sweep');
  if ((o.queue !== undefined || o.sweepId !== undefined || o.queueTapeDir !== undefined) && axes.length === 0)
    return usage('--queue, --sweep-id and --queue-tape-dir run a sweep on workers; give --sweep too');
  if (
    (o.sweepId !== undefined || o.queueTapeDir !== undefined || o.queueCredentials !== undefined) &&
    o.queue === undefined
  )
    return usage('--sweep-id, --queue-tape-dir and --queue-credentials need --queue');
  if (o.sweepId !== undefined && !/^[A-Za-z0-9_.-]{1,80}$/.test(o.sweepId))
    return usage(
      `--sweep-id may hold letters, digits, ".", "_" and "-" (at most 80), got ${JSON.stringify(o.sweepId)}`,
    );
  let queueAddress: RedisAddress | null = null;
  if (o.queue !== undefined) {
    try {
      queueAddress = await parseRedisAddress(
        o.queue,
        o.queueCredentials !== undefined ? { credentialsFile: o.queueCredentials } : {},
      );
    } catch (err) {
      if (err instanceof QueueConfigError) return usage(err.message);
      throw err;
    }
  }
  // Everything that can be wrong with the config is found before a line is replayed.
  const config = await loadRunConfigOrReport(o.config);
  if (!config) return;
  // Before the first item is read: the heap's growth is set for the whole replay.
  applyReplayHeapSettings();
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
  /** A tape being built is read by the replay as it is written (one pass over the recording). */
  let tape: Tape | TapeFile | TapeBuild;
  let building: { readonly path: string; readonly reason: BuildReason } | null = null;
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
    const reading = {
      strict: o.strict === true,
      ...(o.strict === true
        ? {}
        : { onProblem: (p: InputProblem) => process.stderr.write(`  skipped ${formatInputProblem(p)}\n`) }),
    };
    // The parity check compares with every item at once, so it reads the recording into memory.
    if (o.tape && recorded === null) {
      const found = await findTape(o.feed, {
        ...reading,
        ...(o.tapeDir !== undefined ? { dir: o.tapeDir } : {}),
        rebuild: o.rebuildTape === true,
      });
      if ('build' in found) {
        tape = found.build;
        building = { path: found.path, reason: found.built };
        tapeNote = `its tape is written as the replay reads it (${BUILD_WHY[found.built]}): ${found.path}`;
      } else {
        tape = found.tape;
        tapeNote = tapeLine(found);
        minimalReadMs = found.tape.footer.build.minimalReadMs;
      }
    } else {
      tape = await loadTape(o.feed, reading);
      tapeNote = o.tape ? 'read into memory (--decisions compares every item)' : 'read into memory (--no-tape)';
    }
  } catch (err) {
    // A path on the command line that is not there is a usage error; a bad line in a recording (--strict) a failure.
    if (err instanceof BacktestInputError)
      return err.unreadable ? usage(err.message) : runtimeFailure('backtest', err.message);
    throw err;
  }
  let loadMs = performance.now() - loadStarted;
  if (tape instanceof TapeBuild && runs.length > 0) {
    // A sweep's variants each read the tape file: it is built first.
    try {
      tape = await tape.run();
    } catch (err) {
      if (err instanceof BacktestInputError) return runtimeFailure('backtest', err.message);
      throw err;
    }
    loadMs = performance.now() - loadStarted;
    tapeNote = tapeLine({ tape, path: tape.path, built: building!.reason, ms: loadMs });
    minimalReadMs = tape.footer.build.minimalReadMs;
    building = null;
  }
  if (tape instanceof TapeBuild) {
    process.stdout.write(`reading the recording and replaying it in one pass; ${tapeNote}\n`);
  } else {
    const loaded =
      'items' in tape
        ? { events: tape.items.length, files: tape.files.length, problems: tape.problems.length }
        : { events: tape.footer.count, files: tape.footer.files.length, problems: tape.footer.problems.length };
    process.stdout.write(
      `loaded ${loaded.events.toLocaleString('en-US')} events from ${loaded.files} file(s) in ` +
        `${(loadMs / 1000).toFixed(2)} s (${loaded.problems} line(s) skipped); ${tapeNote}\n`,
    );
  }

  if (runs.length > 0 && !(tape instanceof TapeBuild)) {
    let lanes = sweepWorkers(runs.length, workers);
    const sweepStarted = performance.now();
    let outcomes;
    if (queueAddress !== null) {
      process.stdout.write(`sweep: ${runs.length} variant(s) through the queue at ${queueAddress.display}\n`);
      const progress = queueProgressLine(tty);
      // Loaded only for a queue sweep: the Redis client and the queue stay out of every other backtest's memory.
      const { runQueueSweep } = await import('../app/queue/coordinator.ts');
      const queued = await runQueueSweep(tape, runs, config.source, {
        address: queueAddress,
        overrides,
        ...(o.sweepId !== undefined ? { sweepId: o.sweepId } : {}),
        ...(o.queueTapeDir !== undefined ? { tapeDir: resolve(o.queueTapeDir) } : {}),
        clock: systemClock,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        onProgress: progress,
        onNotice: (line) => progress.say(line),
      }).finally(() => progress.end());
      lanes = Math.max(1, new Set(queued.map((q) => q.worker).filter((w) => w !== null)).size);
      outcomes = queued;
    } else {
      process.stdout.write(`sweep: ${runs.length} variant(s) on ${lanes} worker thread(s)\n`);
      const progress = progressLine(tty, sweepProgress);
      progress(0, runs.length);
      // Each worker writes its variant's report as it runs: no variant's rows wait in memory.
      const options = {
        overrides,
        workers: lanes,
        onDone: progress,
        reportDir: o.report,
        ...(threadHeapMb !== undefined ? { threadHeapMb } : {}),
      };
      outcomes = await runSweep(tape, runs, config.source, options).finally(() => progress.end());
    }
    const wallMs = performance.now() - sweepStarted;
    let events = 0;
    // Settled P&L is net of the commission paid, marked P&L of the expected commission on open taker bets; the column is the most those can still be charged.
    const table = [
      [
        'variant',
        'total P&L',
        'settled',
        'marked',
        'comm. paid',
        'comm. open (max)',
        'fills',
        'fill ratio',
        'mark-out 60s',
        'max drawdown',
        'max liability',
        'strategy errors',
        'replay ev/s',
      ],
    ];
    const allFailed: string[] = [];
    for (const out of outcomes) {
      const name = variantLabel(out.variant);
      if (!out.result) {
        table.push([name, `failed: ${out.error ?? 'unknown'}`]);
        process.exitCode = EXIT.failure;
        continue;
      }
      const failing = everyEvaluationFailed(out.result.report.strategyErrors);
      if (failing.length > 0) allFailed.push(name);
      events += out.result.events;
      const m = out.result.report.metrics;
      table.push([
        name,
        formatMoney(m.pnl.total),
        formatMoney(m.pnl.settled),
        formatMoney(m.pnl.marked),
        formatMoney(m.pnl.commissionPaid),
        formatMoney(m.pnl.commissionAccrued),
        String(m.volume.fills),
        `${(m.orders.fillRatio * 100).toFixed(1)}%`,
        formatMoney(m.markout['60s'].total),
        formatMoney(m.maxDrawdown),
        formatMoney(m.maxLiability),
        strategyErrorCell(out.result.report.strategyErrors, failing),
        Math.round((out.result.events / out.replayMs) * 1000).toLocaleString('en-US'),
      ]);
    }
    const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => (r[c] ?? '').length)));
    for (const r of table) process.stdout.write(`  ${r.map((x, c) => x.padEnd(widths[c] ?? 0)).join('  ')}\n`);
    process.stdout.write(
      `${sweepThroughputLine({ variants: runs.length, failed: outcomes.filter((x) => !x.result).length, events, wallMs, workers: lanes })}\n`,
    );
    await writeSweepReport(o.report, outcomes);
    process.stdout.write(`reports in ${resolve(o.report)} (sweep.html compares the variants)\n`);
    if (allFailed.length > 0)
      runtimeFailure(
        'backtest',
        `${allFailed.length} variant(s) had a strategy fail on every evaluation, so their figures mean nothing: ${allFailed.join('; ')}`,
      );
    return;
  }

  const replayed: Decision[] = [];
  const progress = progressLine(tty, replayProgress);
  const started = performance.now();
  const replaying = {
    config,
    logger,
    settings,
    onProgress: progress,
    stopAtStrategyError: o.strict === true,
    ...(recorded ? { onDecision: (d: Decision) => replayed.push(d) } : {}),
  };
  // orders.csv and fills.csv go into the report folder as the replay makes them: a long
  // recording's orders are not all held until the end.
  const rows = new StreamedRows(o.report);
  let result: BacktestResult;
  let onePass: Awaited<ReturnType<typeof runBacktestBuilding>> | null = null;
  try {
    if (tape instanceof TapeBuild) result = onePass = await runBacktestBuilding(replaying, tape, () => rows.start());
    else result = await runBacktest({ ...replaying, tape, rows: rows.start() });
    rows.close();
  } catch (err) {
    await rows.discard();
    // Read in the same pass: a bad line under --strict stops the replay.
    if (!(err instanceof BacktestInputError)) throw err;
    progress.end();
    return runtimeFailure('backtest', err.message);
  }
  const replayMs = performance.now() - started;
  progress.end();
  if (onePass !== null && building !== null) {
    const f = onePass.tape.footer;
    const line = tapeLine({ tape: onePass.tape, path: building.path, built: building.reason, ms: loadMs + replayMs });
    const again = onePass.again
      ? ' (replayed again from it: the recording names an order of its account after its listing)'
      : '';
    process.stdout.write(`${line}${again}; ${f.problems.length} line(s) skipped\n`);
    minimalReadMs = f.build.minimalReadMs;
  }
  const paths = await writeReport(o.report, result, { rowsWritten: true, pageFills: rows.pageFills });
  process.stdout.write(
    `backtest of ${config.strategies
      .filter((s) => s.enabled)
      .map((s) => s.id)
      .join(', ')}\n`,
  );
  for (const l of summaryLines(result.report)) process.stdout.write(`${l}\n`);
  process.stdout.write(
    `${throughputLine({ events: result.events, loadMs, replayMs, minimalReadMs, onePass: building !== null })}\n`,
  );
  process.stdout.write(`report: ${paths.html} (also ${paths.json}, ${paths.orders}, ${paths.fills})\n`);
  if (recorded) {
    const parity = compareWithRecording(recorded, replayed, tape as Tape);
    await writeFile(join(o.report, 'parity.json'), `${JSON.stringify(parity, null, 2)}\n`);
    for (const l of parityLines(parity)) process.stdout.write(`${l}\n`);
    if (parity.first !== null) process.exitCode = EXIT.parity;
  }
  const stop = result.stoppedAt;
  if (stop)
    return runtimeFailure(
      'backtest',
      `--strict: strategy ${stop.strategy} ${KIND_VERB[stop.kind]} on game ${stop.gameID}: ${stop.error}`,
    );
  const failing = everyEvaluationFailed(result.report.strategyErrors);
  if (failing.length > 0) {
    const why = failing.map(
      (f) =>
        `strategy ${f.strategy} failed on every one of its ${int(f.evaluations)} evaluations: ${f.distinct[0]?.error ?? 'see the log'}`,
    );
    runtimeFailure('backtest', why.join('; '));
  }
}

const KIND_VERB: Readonly<Record<StrategyErrorKind, string>> = {
  threw: 'threw',
  'bad-result': 'returned no list of intents',
  'malformed-intent': 'returned a malformed intent',
};

/** The strategies of a report whose every evaluation failed: its figures are those of a strategy that never ran. */
function everyEvaluationFailed(r: StrategyErrorReport): StrategyErrorCounts[] {
  return r.strategies.filter((s) => s.evaluations > 0 && s.failed === s.evaluations);
}

/** `0`, `1,204`, or `14,346 (broken: every evaluation)`. */
function strategyErrorCell(r: StrategyErrorReport, failing: readonly StrategyErrorCounts[]): string {
  return failing.length > 0
    ? `${int(r.total)} (${failing.map((f) => f.strategy).join(', ')}: every evaluation)`
    : int(r.total);
}

export function registerBacktest(program: Command): void {
  program
    .command('backtest')
    .description(
      'replay recorded feeds through the strategies, order manager and risk checks of a config, with ' +
        'simulated execution on the engine replica, and write a report',
    )
    .requiredOption(
      '--config <file>',
      'run configuration (YAML): strategies, risk, and the backtest section (fill model, latency, balance)',
    )
    .requiredOption('--feed <path...>', 'recording files or directories (linesmith record output)')
    .option('--seed <n>', 'seed of the latency model (default: backtest.seed of the config)')
    .option('--report <dir>', 'directory for report.json, report.html, orders.csv, fills.csv', 'backtest-report')
    .option(
      '--strict',
      'stop at the first bad recording line instead of skipping it, and fail at the first strategy error (exit 1)',
    )
    .option('--fill-model <kind>', `queue model for our resting orders: ${FILL_MODEL_KINDS.join(', ')}`)
    .option(
      '--sweep <key=values...>',
      'run a grid of variants on worker threads: KEY=V1,V2 with KEY a path in the config, e.g. ' +
        'strategies.<id>.params.margin=0.02,0.03 or backtest.seed=1,2 (see the examples)',
    )
    .option('--workers <n>', 'worker threads for --sweep (default: one per core)')
    .option(
      '--thread-heap <MB>',
      `old-generation ceiling of each --sweep worker thread (default ${VARIANT_THREAD_OLD_SPACE_MB}; a variant that outgrows it fails alone)`,
    )
    .option(
      '--queue <url>',
      'run the --sweep variants on `linesmith worker` processes through Redis: redis://HOST:PORT[/DB] or ' +
        'rediss://… (password from LINESMITH_REDIS_PASSWORD or --queue-credentials)',
    )
    .option('--queue-credentials <file>', 'YAML or JSON file with the Redis password (and username), mode 600')
    .option(
      '--sweep-id <id>',
      'name of the distributed sweep; the same id again resumes it (default: a hash of the tape, config and variants)',
    )
    .option(
      '--queue-tape-dir <dir>',
      'with --queue: share the tape as a file in this directory, which every worker reads, instead of in Redis (for large tapes)',
    )
    .option(
      '--decisions <file>',
      'the decisions file of the recorded session (decisions-*.ndjson, written with recording.enabled): ' +
        "compare the replay's decisions with it, write parity.json, exit 3 where they differ",
    )
    .option('--log-level <level>', 'log level of the replayed runtime (default error)')
    .option(
      '--tape-dir <dir>',
      'where the binary tapes of recordings are kept (default: .linesmith-tape beside the recording)',
    )
    .option('--rebuild-tape', 'build the tape again even if a good one is there')
    .option('--no-tape', 'read the JSON recording into memory instead of building or reusing its binary tape')
    .option('--no-progress', 'no progress line')
    .action((o: BacktestOptions) => backtest(o));
}
