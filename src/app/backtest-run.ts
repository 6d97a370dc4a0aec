import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { RunConfig } from '../config/types.ts';
import type { BacktestConfig } from '../config/sections/backtest.ts';
import { Runtime, type Decision } from '../runtime/runtime.ts';
import { policyOf, runtimeOptions } from './runtime-options.ts';
import type { StrategyErrorEvent } from '../runtime/strategy-errors.ts';
import { createRandom } from '../shared/random.ts';
import { manualTime, type ManualTimeSource } from '../shared/time.ts';
import { BacktestCollector } from '../backtest/report/collector.ts';
import type { ReportRowSinks } from '../backtest/report/rows.ts';
import {
  REPORT_FORMAT,
  REPORT_VERSION,
  type BacktestReport,
  type BacktestResult,
  type GameInfo,
} from '../backtest/report/types.ts';

export type { BacktestResult };
import { formatInputProblem } from '../backtest/errors.ts';
import type { Tape, TapeItem } from '../backtest/tape.ts';
import { latencyLegs } from '../backtest/venue/latency.ts';
import type { SettledGameRetention } from '../backtest/venue/execution.ts';
import { SimulatedVenue, type VenueBoundary } from '../backtest/venue/simulated-venue.ts';
import { TapeFile } from '../backtest/tape/file.ts';
import type { TapeBuild } from '../backtest/tape/build.ts';
import { TapeCursor, tapeSource, type TapeSource } from '../backtest/tape/source.ts';

export interface BacktestOptions {
  readonly config: RunConfig;
  /** The recording: read into memory (`loadTape`), a tape file streamed a chunk at a time, or a tape being built (`TapeBuild`). */
  readonly tape: Tape | TapeFile | TapeSource;
  /** Overrides of the config's backtest section (CLI flags, sweep variants). */
  readonly settings?: Partial<BacktestConfig>;
  readonly logger: Logger;
  /** Called every few thousand items with how far the replay is. */
  readonly onProgress?: (done: number, total: number) => void;
  /** The runtime's decisions, as a live or paper run reports them (parity checks). */
  readonly onDecision?: (d: Decision) => void;
  /** How the venue hands the runtime its answers (default `typed`; `wire` for the contract test). */
  readonly boundary?: VenueBoundary;
  /** Stop the replay at the first strategy error (`--strict`); the report covers the replay up to it. */
  readonly stopAtStrategyError?: boolean;
  /** Where orders.csv's and fills.csv's rows go as they become final (the result then lists none); default: kept in the result. */
  readonly rows?: ReportRowSinks;
  /** How long the exchange keeps a settled game (default the simulator's: 6 h, at most 50 games). */
  readonly settledGameRetention?: SettledGameRetention;
  /** Each game the venue lets go of once the exchange forgot it. */
  readonly onGameForgotten?: (gameID: string) => void;
}

/** After the last record: time for the runtime to cancel its orders, and for the last mark-outs. */
const WIND_DOWN_MS = 60_000;
const PROGRESS_EVERY = 4_096;
/** Microtask turns a settle lets pass before it looks whether answers settled meanwhile. */
const SETTLE_TURNS = 4;

/**
 * Lets promise chains finish: `run()` resolves after SETTLE_TURNS microtask turns, again
 * and again while the venue says answers settled meanwhile. One callback queued per turn,
 * as one `await` of a settled promise per turn would queue one job, so other chains
 * interleave with it alike; without the resume closures, reaction and promise objects each
 * await makes, and with one callback for the whole replay rather than one per settle (the
 * replay settles at every virtual second, where the runtime's tick and the graded poll
 * fall). The replay awaits each settle before the next: one runs at a time.
 */
class Settler {
  readonly #venue: Pick<SimulatedVenue, 'takeSettled'>;
  #turns = 0;
  #done: () => void = () => undefined;
  readonly #turn = (): void => {
    if (++this.#turns < SETTLE_TURNS) void SETTLED.then(this.#turn);
    else if (this.#venue.takeSettled() > 0) {
      this.#turns = 0;
      void SETTLED.then(this.#turn);
    } else this.#done();
  };

  constructor(venue: Pick<SimulatedVenue, 'takeSettled'>) {
    this.#venue = venue;
  }

  /** The executor of every settle's promise, made once: a settle makes no closure for it. */
  readonly #start = (done: () => void): void => {
    this.#turns = 0;
    this.#done = done;
    void SETTLED.then(this.#turn);
  };

  run(): Promise<void> {
    return new Promise(this.#start);
  }
}

/** A settled promise: a callback on it runs one microtask turn later. */
const SETTLED = Promise.resolve();

/**
 * Whether an instant of the virtual clock may have left promise work to finish: whether any
 * RxJS action ran in it (the runtime's timers, the graded walk's polls: anyone's, and any may
 * chain on promises), or the venue settled an answer. Every other work of an instant is a
 * posted one of the replay's own, which runs to its end: the venue's latency legs (the engine
 * replica, the answers, the feeds' messages, whose subscribers in the runtime handle them
 * synchronously and reach promises only through the venue, which counts what it settles) and
 * the report's samples and mark-outs. After such an instant the microtask queue is empty, and
 * a settle would run empty turns: most instants of a replay with orders are only latency legs.
 */
function mayHaveLeftWork(time: ManualTimeSource, actionsBefore: number, venue: SimulatedVenue): boolean {
  return time.actionsRun() !== actionsBefore || venue.hasSettled();
}

/**
 * Replay a recording through the runtime — the same market model, strategies and order
 * manager as live — on a virtual clock, against a simulated venue built on the engine
 * replica. Nothing here reads the machine's clock or waits on a real timer: the same tape,
 * config and seed give the same report.
 */
export async function runBacktest(o: BacktestOptions): Promise<BacktestResult> {
  const settings: BacktestConfig = { ...o.config.backtest, ...o.settings };
  const tape = 'chunks' in o.tape && !(o.tape instanceof TapeFile) ? o.tape : tapeSource(o.tape);
  const cursor = new TapeCursor(tape);
  // The first item's time: a tape being built knows its start only once it is read.
  const time = manualTime((await cursor.fill()) ? cursor.chunk[cursor.pos]!.t : tape.start);
  const random = createRandom(settings.seed);
  let collector: BacktestCollector | null = null;
  // The report names every game it lists, those the venue let go of (settled hours before) too.
  const forgottenInfo = new Map<string, GameInfo>();
  const infoOf = (id: string): GameInfo | null => {
    const g = venue.execution.game(id);
    if (!g) return forgottenInfo.get(id) ?? null;
    return {
      league: g.league,
      away: g.participants.awayName,
      home: g.participants.homeName,
      start: Number.isFinite(g.start) ? g.start : null,
    };
  };
  const venue: SimulatedVenue = new SimulatedVenue({
    time,
    fillModel: settings.fillModel,
    latency: latencyLegs(settings.latency, random),
    balance: settings.balance,
    commission: settings.commission,
    logger: o.logger,
    ...(o.boundary ? { boundary: o.boundary } : {}),
    ...(o.settledGameRetention ? { settledGameRetention: o.settledGameRetention } : {}),
    onGameForgotten: (id) => {
      const info = infoOf(id);
      if (info) forgottenInfo.set(id, info);
      o.onGameForgotten?.(id);
    },
    onOwnEvent: (e) => collector?.onOwnEvent(e),
    onPlaceOutcome: (input, outcome) => collector?.onPlaceOutcome(input, outcome),
    onEditOutcome: (input, outcome) => collector?.onEditOutcome(input, outcome),
  });
  collector = new BacktestCollector({
    clock: time.clock,
    execution: venue.execution,
    post: time.post,
    ...(o.rows ? { rows: o.rows } : {}),
  });
  // Answers resolve promises; their callbacks (the order manager's, the runtime's) run as
  // microtasks. Let every chain finish before the clock or the tape moves on: four microtask
  // turns, and four more while answers settled meanwhile.
  const settler = new Settler(venue);
  const settle = () => settler.run();

  // The account's first view of the board: the recording's opening snapshot.
  let i = 0;
  while (await cursor.fill()) {
    const it = cursor.chunk[cursor.pos]!;
    if (it.kind === 'price') break;
    cursor.pos++;
    i++;
    if (it.kind === 'snapshot') venue.snapshot(it.game, it.t);
    else if (it.kind === 'snapshotDone') break;
  }

  // In an object: the runtime's callback sets it, which the compiler cannot see from the loop.
  const stop: { at: StrategyErrorEvent | null } = { at: null };
  const runtime = new Runtime(
    runtimeOptions(
      { ...policyOf(o.config), cancelUnknownOrdersAtStart: false },
      {
        exchange: venue,
        clock: time.clock,
        scheduler: time.scheduler,
        logger: o.logger,
        runId: `bt${(settings.seed >>> 0).toString(36)}`.slice(0, 8),
        ...(o.onDecision ? { onDecision: o.onDecision } : {}),
        ...(o.stopAtStrategyError ? { onStrategyError: (e: StrategyErrorEvent) => void (stop.at ??= e) } : {}),
      },
    ),
  );
  await runtime.start();
  await settle();

  const sampleEvery = settings.sampleMs;
  // One-shot posts, in the scheduler's queue and order: no RxJS action per sample.
  const sample = () => {
    collector.sample();
    time.post(sample, sampleEvery);
  };
  time.post(sample, 0);

  for (; (cursor.pos < cursor.chunk.length || (await cursor.fill())) && stop.at === null; i++) {
    const it = cursor.chunk[cursor.pos++]!;
    if (it.t > time.clock.now()) {
      // Most steps of the clock have nothing due: no promise for those. Those with something
      // due run it one instant at a time, settling after each that may have left promise
      // work behind, as advanceToSettling does; once nothing is due up to the item, time
      // moves there without a further settle (nothing ran since the last one).
      for (let due = time.nextDueAt(); due !== undefined && due <= it.t; due = time.nextDueAt()) {
        const actions = time.actionsRun();
        time.advanceTo(Math.max(due, time.clock.now()));
        if (mayHaveLeftWork(time, actions, venue)) await settle();
      }
      time.advanceTo(it.t);
    }
    replay(venue, it);
    if (venue.takeSettled() > 0) await settle();
    if (o.onProgress && (i & (PROGRESS_EVERY - 1)) === 0) o.onProgress(i, tape.count);
  }
  // Stopped early or not, the source is read to its end: a tape being built is then whole, and what it tells of its recording known.
  await cursor.close();
  const total = tape.count;
  o.onProgress?.(total, total);

  // The recording is over: cancel everything, as a run's shutdown does, on the virtual clock.
  let stopped = false;
  const stopping = runtime.stop(10_000).finally(() => (stopped = true));
  while (!stopped) await time.advanceToSettling(time.clock.now() + 100, settle);
  await stopping;
  await time.advanceToSettling(time.clock.now() + WIND_DOWN_MS, settle);
  collector.sample();

  const st = runtime.orders.stats;
  const done = collector.finish(
    { riskRejected: st.riskRejected, exchangeRejected: st.exchangeRejected, postArb: st.postArb },
    infoOf,
  );
  const notes = done.games
    .filter((g) => g.settlement === 'marked')
    .map(
      (g) =>
        `${g.gameID} (${g.name}): no result in the recording; its ${g.fills} fills are marked at the last consensus fair price`,
    );
  if (!tape.complete) notes.push('the recording has no end record: the recorder stopped without closing it');
  const late = tape.late;
  if (late) {
    notes.push(
      `${late.count} record(s) are earlier than a record read before them (the first at ` +
        `${basename(late.first.file)}:${late.first.line}, up to ${(late.maxStepBackMs / 1000).toFixed(3)} s back): ` +
        'the recordings overlap in time, or the receive clock stepped back; each was replayed at the time of the record before it',
    );
  }
  const stoppedAt = stop.at;
  if (stoppedAt !== null)
    notes.push(
      `the replay stopped at the first strategy error (--strict), after ${i} of ${total} events: strategy ` +
        `${stoppedAt.strategy} on game ${stoppedAt.gameID}: ${stoppedAt.error}`,
    );
  if (tape.problems.length > 0) notes.push(`${tape.problems.length} input line(s) skipped (see input.problems)`);
  const meta = tape.meta;
  const report: BacktestReport = {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    run: {
      config: basename(o.config.source),
      strategies: o.config.strategies
        .filter((s) => s.enabled)
        .map((s) => ({ id: s.id, module: s.moduleRef, params: s.params })),
      recording: {
        files: tape.files.map((f) => basename(f)),
        sessions: [...new Set(meta.map((m) => m.session))],
        start: tape.start,
        end: tape.end,
        complete: tape.complete,
      },
      seed: settings.seed,
      fillModel: settings.fillModel,
      latency: settings.latency,
      balance: settings.balance,
      commission: settings.commission,
    },
    input: {
      events: total,
      priceFrames: tape.stats.priceFrames,
      malformedFrames: tape.stats.malformedFrames,
      unknownFrameTypes: tape.stats.unknownFrameTypes,
      badLines: tape.stats.badLines,
      problems: tape.problems.slice(0, 50).map((p) => formatInputProblem({ ...p, file: basename(p.file) })),
    },
    metrics: done.metrics,
    games: done.games,
    markets: done.markets,
    strategies: done.strategies,
    execution: { ...venue.execution.stats },
    strategyErrors: runtime.strategyErrors.report(o.config.strategies.filter((s) => s.enabled).map((s) => s.id)),
    notes,
    series: { sampleMs: sampleEvery, ...done.series },
  };
  return { report, extras: done.extras, fills: done.fills, orders: done.orders, events: i, stoppedAt };
}

/**
 * The first replay of a recording: its tape is written while the replay reads the items
 * (`TapeBuild`), one pass over the recording. Where the one pass could not hand on exactly
 * the tape's items (an order of the recording account named by its user feed only after
 * its listing was read), the replay runs again from the tape just written. `rowsOfPass`
 * gives each pass its row sinks (a pass that runs again starts its rows afresh); without
 * it the result keeps its rows.
 */
export async function runBacktestBuilding(
  o: Omit<BacktestOptions, 'tape' | 'rows'>,
  build: TapeBuild,
  rowsOfPass?: () => ReportRowSinks,
): Promise<BacktestResult & { readonly tape: TapeFile; readonly again: boolean }> {
  const pass = () => (rowsOfPass ? { ...o, rows: rowsOfPass() } : o);
  const first = await runBacktest({ ...pass(), tape: build });
  if (build.exact) return { ...first, tape: build.tape, again: false };
  return { ...(await runBacktest({ ...pass(), tape: build.tape })), tape: build.tape, again: true };
}

function replay(venue: SimulatedVenue, it: TapeItem): void {
  switch (it.kind) {
    case 'price':
      venue.price(it.event, it.t);
      return;
    case 'snapshot':
      venue.snapshot(it.game, it.t);
      return;
    case 'result':
      venue.result(it.gameID, { away: it.away.score, home: it.home.score });
      return;
    case 'gap':
      venue.gap(it.feed, it.resumed);
      return;
    case 'snapshotDone':
      venue.snapshotDone();
      return;
    case 'user':
      return;
  }
}
