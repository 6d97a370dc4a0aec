import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { Decision } from '../runtime/runtime.ts';
import { BacktestInputError, type InputProblem } from './errors.ts';

/**
 * Parity of a replay with the session it replays: a `run`/`paper` session with
 * `recording.enabled` writes each change of its decisions beside its feeds; a backtest of
 * that recording with the same config should decide the same at the same instants. Where
 * it does not, the first difference says where the replay stops being a model of the
 * session (a fill the queue model gave differently, a latency, a strategy that reads the
 * machine's clock).
 */

const DecisionLine = z.object({
  at: z.number().refine(Number.isFinite),
  strategyId: z.string(),
  gameID: z.string(),
  intents: z.array(z.looseObject({ key: z.string() })),
});

export interface RecordedDecisions {
  readonly decisions: readonly Decision[];
  /** Lines that are not a decision (a session killed mid-write leaves a cut last line). */
  readonly problems: readonly InputProblem[];
}

/** The decisions file of a recorded session (`decisions-*.ndjson`): one JSON decision per line. */
export async function readDecisions(file: string): Promise<RecordedDecisions> {
  const decisions: Decision[] = [];
  const problems: InputProblem[] = [];
  let line = 0;
  try {
    for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      line++;
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        problems.push({ file, line, problem: 'json', detail: (err as Error).message });
        continue;
      }
      const d = DecisionLine.safeParse(value);
      if (!d.success) {
        const issue = d.error.issues[0];
        problems.push({ file, line, problem: 'record', detail: issue ? `${issue.path.join('.') || 'line'}: ${issue.message}` : 'not a decision' });
        continue;
      }
      decisions.push({ priceEvents: 0, ...d.data, intents: d.data.intents as unknown as Decision['intents'] });
    }
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new BacktestInputError(`cannot read the decisions file ${file}: ${e.code === 'ENOENT' ? 'no such file or directory' : e.message}`, null);
  }
  return { decisions, problems };
}

export interface ParityDifference {
  /** 0-based position in the compared decisions. */
  readonly index: number;
  /** null: the list ended here. */
  readonly recorded: Decision | null;
  readonly replayed: Decision | null;
}

export interface ParityResult {
  /** Decisions before this instant are compared: both runs end by pulling their quotes, each at its own stop. */
  readonly until: number;
  readonly recorded: number;
  readonly replayed: number;
  /** How many leading decisions agree. */
  readonly agreeing: number;
  readonly first: ParityDifference | null;
}

/**
 * What is compared of a decision: its instant in whole ms (the recording keeps whole ms), who
 * decided on which game, and the intents. Not the feed position: the replay's feed carries
 * its own orders' updates besides the recorded frames, so it counts more events.
 */
function decisionKey(d: Decision): string {
  return JSON.stringify([Math.floor(d.at), d.strategyId, d.gameID, d.intents]);
}

export function compareDecisions(recorded: readonly Decision[], replayed: readonly Decision[], until: number): ParityResult {
  const a = recorded.filter((d) => d.at < until);
  const b = replayed.filter((d) => d.at < until);
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && decisionKey(a[i]!) === decisionKey(b[i]!)) i++;
  const first = i === a.length && i === b.length ? null : { index: i, recorded: a[i] ?? null, replayed: b[i] ?? null };
  return { until, recorded: a.length, replayed: b.length, agreeing: i, first };
}

const shown = (d: Decision | null): string => {
  if (d === null) return 'nothing (the list ends)';
  const text = JSON.stringify(d.intents);
  return `${new Date(d.at).toISOString()} ${d.strategyId} on ${d.gameID}: ${d.intents.length} intent(s) ${text.length > 240 ? `${text.slice(0, 240)}…` : text}`;
};

/** The comparison for a terminal, a few lines. */
export function parityLines(p: ParityResult): string[] {
  const upTo = `up to ${new Date(p.until).toISOString()}`;
  if (p.first === null) return [`  parity         the replay made the same ${p.recorded} decision(s) at the same instants as the recorded session (${upTo})`];
  return [
    `  parity         DIFFERS: the first ${p.agreeing} of ${p.recorded} recorded decision(s) agree (${p.replayed} replayed, ${upTo}); decision #${p.first.index + 1}:`,
    `                 recorded ${shown(p.first.recorded)}`,
    `                 replayed ${shown(p.first.replayed)}`,
    '                 (after a fill of the session, decisions depend on the fill and latency models: a difference there is a difference of the models, not of the code)',
  ];
}
