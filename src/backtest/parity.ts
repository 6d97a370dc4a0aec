import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { MetaData } from '../record/format.ts';
import type { Decision } from '../runtime/runtime.ts';
import { BacktestInputError, cannotRead, formatInputProblem, type InputProblem } from './errors.ts';

/**
 * Parity of a replay with the session it replays: a `run`/`paper` session with
 * `recording.enabled` writes each change of its decisions beside its feeds, and a marker
 * when it begins to stop; a backtest of that recording with the same config should make
 * the same decisions at (nearly) the same instants. Where it does not, the first
 * difference says where the replay stops being a model of the session (a fill the queue
 * model gave differently, a latency, a strategy that reads the machine's clock).
 */

const DecisionLine = z.object({
  at: z.number().refine(Number.isFinite),
  strategyId: z.string(),
  gameID: z.string(),
  intents: z.array(z.looseObject({ key: z.string() })),
});
const StoppingLine = z.object({ stopping: z.number().refine(Number.isFinite) });

/**
 * How far apart in time two equal decisions may be and still match. A session on a wall
 * clock decides when it has processed the frame (its start-up reads, a GC pause, a
 * latency other than the model's), the replay at the frame's recorded instant.
 */
export const PARITY_TOLERANCE_MS = 1_000;

export interface RecordedDecisions {
  readonly decisions: readonly Decision[];
  /** When the session began to stop (its marker line), or null: its decisions after that are its shutdown's, not a quote's. */
  readonly stoppingAt: number | null;
  /** Lines that are neither (a session killed mid-write leaves a cut last line). */
  readonly problems: readonly InputProblem[];
}

/** The decisions file of a recorded session (`decisions-*.ndjson`): one JSON decision per line, and the stop marker. */
export async function readDecisions(file: string, options: { strict?: boolean } = {}): Promise<RecordedDecisions> {
  const decisions: Decision[] = [];
  const problems: InputProblem[] = [];
  let stoppingAt: number | null = null;
  let line = 0;
  const problem = (p: InputProblem) => {
    if (options.strict) throw new BacktestInputError(`${formatInputProblem(p)} (--strict: stopping)`, p);
    problems.push(p);
  };
  let lines: AsyncIterable<string>;
  try {
    const input = createReadStream(file);
    // The open fails asynchronously: wait for it, so a missing file is an input error.
    await new Promise<void>((resolve, reject) => input.once('open', () => resolve()).once('error', reject));
    lines = createInterface({ input, crlfDelay: Infinity });
  } catch (err) {
    throw new BacktestInputError(`cannot read the decisions file ${cannotRead(err, file)}`, null, true);
  }
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      problem({ file, line, problem: 'json', detail: (err as Error).message });
      continue;
    }
    const stop = StoppingLine.safeParse(value);
    if (stop.success) {
      stoppingAt ??= stop.data.stopping;
      continue;
    }
    const d = DecisionLine.safeParse(value);
    if (!d.success) {
      const issue = d.error.issues[0];
      problem({
        file,
        line,
        problem: 'record',
        detail: issue ? `${issue.path.join('.') || 'line'}: ${issue.message}` : 'not a decision',
      });
      continue;
    }
    // The intents as written, not as parsed: a parse puts the checked `key` first, and the
    // comparison reads their text, in the order the strategy built them.
    const raw = value as { intents: Decision['intents'] };
    decisions.push({
      priceEvents: 0,
      at: d.data.at,
      strategyId: d.data.strategyId,
      gameID: d.data.gameID,
      intents: raw.intents,
    });
  }
  return { decisions, stoppingAt, problems };
}

export interface ParityDifference {
  /** null: that run made no such decision. */
  readonly recorded: Decision | null;
  readonly replayed: Decision | null;
}

export interface ParityResult {
  /** Decisions before this instant are compared: each run ends by pulling its quotes at its own stop. */
  readonly until: number;
  readonly toleranceMs: number;
  readonly recorded: number;
  readonly replayed: number;
  /** Recorded decisions the replay made too. */
  readonly agreeing: number;
  /** The earliest difference, or null. */
  readonly first: ParityDifference | null;
}

const pairKey = (d: Decision) => `${d.strategyId}|${d.gameID}`;
const intentsText = (d: Decision) => JSON.stringify(d.intents);
const atOf = (x: ParityDifference) => Math.min(x.recorded?.at ?? Infinity, x.replayed?.at ?? Infinity);

/**
 * Each strategy's decisions on each game, in order, against the replay's: the same intents
 * within `toleranceMs` of each other. Compared per strategy and game, since two of them
 * deciding in one instant may be taken in either order. Recorded decisions before `until`
 * count; replayed ones up to `until + toleranceMs` may answer them, and one before `until`
 * that answers none is a difference too.
 */
export function compareDecisions(
  recorded: readonly Decision[],
  replayed: readonly Decision[],
  until: number,
  toleranceMs = PARITY_TOLERANCE_MS,
): ParityResult {
  const groups = new Map<string, { a: Decision[]; b: Decision[] }>();
  const group = (d: Decision) => {
    let g = groups.get(pairKey(d));
    if (!g) groups.set(pairKey(d), (g = { a: [], b: [] }));
    return g;
  };
  let recordedCount = 0;
  let replayedCount = 0;
  for (const d of recorded) {
    if (d.at >= until) continue;
    group(d).a.push(d);
    recordedCount++;
  }
  for (const d of replayed) {
    if (d.at >= until + toleranceMs) continue;
    group(d).b.push(d);
    if (d.at < until) replayedCount++;
  }
  let agreeing = 0;
  let first: ParityDifference | null = null;
  const differ = (x: ParityDifference) => {
    if (first === null || atOf(x) < atOf(first)) first = x;
  };
  for (const { a, b } of groups.values()) {
    let i = 0;
    for (; i < a.length; i++) {
      const r = a[i]!;
      const p = b[i];
      if (p === undefined || intentsText(p) !== intentsText(r) || Math.abs(p.at - r.at) > toleranceMs) {
        differ({ recorded: r, replayed: p ?? null });
        break;
      }
      agreeing++;
    }
    if (i === a.length && b.length > a.length && b[a.length]!.at < until)
      differ({ recorded: null, replayed: b[a.length]! });
  }
  return { until, toleranceMs, recorded: recordedCount, replayed: replayedCount, agreeing, first };
}

/**
 * How far apart a session's decision and the replay's may be: PARITY_TOLERANCE_MS of wall
 * time, which a paper session at `speed` × turns into `speed` times as much exchange time
 * (the clock its decisions and records carry). A session on a virtual clock has no wall delays.
 */
export function parityToleranceMs(meta: readonly MetaData[]): number {
  const speeds = meta.map((m) =>
    m.venue.kind === 'paper' && m.venue.paper && !m.venue.paper.virtualTime ? (m.venue.paper.speed ?? 1) : 1,
  );
  return PARITY_TOLERANCE_MS * Math.max(1, ...speeds);
}

/**
 * A recorded session's decisions against a replay of its recording: both runs end by pulling
 * their quotes, each at its own stop, so they are compared up to the session's stop marker,
 * or the recording's last record when it has none.
 */
export function compareWithRecording(
  recorded: RecordedDecisions,
  replayed: readonly Decision[],
  tape: { readonly meta: readonly MetaData[]; readonly items: readonly { readonly t: number }[] },
): ParityResult {
  const until = Math.min(recorded.stoppingAt ?? Infinity, tape.items[tape.items.length - 1]!.t);
  return compareDecisions(recorded.decisions, replayed, until, parityToleranceMs(tape.meta));
}

const shown = (d: Decision | null): string => {
  if (d === null) return 'nothing there';
  const text = JSON.stringify(d.intents);
  const intents = text.length > 240 ? `${text.slice(0, 240)}…` : text;
  return `${new Date(d.at).toISOString()} ${d.strategyId} on ${d.gameID}: ${d.intents.length} intent(s) ${intents}`;
};

/** The comparison for a terminal, a few lines. */
export function parityLines(p: ParityResult): string[] {
  const upTo = `up to ${new Date(p.until).toISOString()}, instants within ${p.toleranceMs} ms`;
  if (p.first === null)
    return [
      `  parity         the replay made the same ${p.recorded} decision(s) as the recorded session, at the same instants (${upTo})`,
    ];
  return [
    `  parity         DIFFERS: ${p.agreeing} of ${p.recorded} recorded decision(s) agree (${p.replayed} replayed, ${upTo}); the first difference:`,
    `                 recorded ${shown(p.first.recorded)}`,
    `                 replayed ${shown(p.first.replayed)}`,
    '                 (after a fill of the session, decisions depend on the fill and latency models: a ' +
      'difference there is a difference of the models, not of the code)',
  ];
}
