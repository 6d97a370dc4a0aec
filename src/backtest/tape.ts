import { BOOK_COLLECTIONS } from '../exchange/schemas/book-order.ts';
import { OrderbookGame } from '../exchange/schemas/exchange.ts';
import type { PriceFeedEvent } from '../exchange/schemas/price-feed.ts';
import { createPriceFrameChecker, type PriceParseMode } from '../exchange/socket/price-parse.ts';
import type { FeedName, MetaData, SnapshotReason } from '../record/format.ts';
import { RecordingReader, type RecordingReadError } from '../record/reader.ts';
import { BacktestInputError, cannotRead, formatInputProblem, type InputProblem } from './errors.ts';

/** The score of one side in a recorded result. */
export interface TapeScore {
  readonly id: string;
  readonly score: number;
}

/**
 * One replayable step of a recording, parsed and checked once. A tape is the pre-parsed
 * cache of a recording: built once, then replayed by every backtest and sweep variant.
 */
export type TapeItem =
  | { readonly t: number; readonly kind: 'price'; readonly event: PriceFeedEvent }
  | {
      readonly t: number;
      readonly kind: 'snapshot';
      readonly batch: number;
      readonly reason: SnapshotReason;
      readonly game: OrderbookGame;
    }
  | { readonly t: number; readonly kind: 'snapshotDone'; readonly batch: number; readonly reason: SnapshotReason }
  | {
      readonly t: number;
      readonly kind: 'gap';
      readonly feed: FeedName;
      readonly from: number;
      readonly to: number;
      readonly resumed: boolean;
    }
  | {
      readonly t: number;
      readonly kind: 'result';
      readonly gameID: string;
      readonly away: TapeScore;
      readonly home: TapeScore;
    }
  | { readonly t: number; readonly kind: 'user'; readonly frame: unknown };

export interface TapeStats {
  readonly lines: number;
  readonly priceFrames: number;
  readonly userFrames: number;
  /** Frames a live client would also have skipped: not valid JSON, or not the contract's shape. */
  readonly malformedFrames: number;
  readonly unknownFrameTypes: number;
  /** Lines the reader could not use (corrupt, truncated, not a record). */
  readonly badLines: number;
  /** Orders of the recording account (from its user feed), and their listings taken out of the book. */
  readonly ownOrders: number;
  readonly ownListingsRemoved: number;
}

/**
 * Records earlier than a record read before them (recordings that overlap in time, or a
 * receive clock that stepped back): replayed at the time of the record before them, since
 * a replay clock only moves forward. The report says so.
 */
export interface LateRecords {
  readonly count: number;
  /** The largest step back, ms. */
  readonly maxStepBackMs: number;
  /** Where the first one is, file:line. */
  readonly first: { readonly file: string; readonly line: number };
}

export interface Tape {
  readonly files: readonly string[];
  readonly meta: readonly MetaData[];
  readonly items: readonly TapeItem[];
  readonly stats: TapeStats;
  /** Every skipped line, file:line first; the report lists them. */
  readonly problems: readonly InputProblem[];
  /** Whether the recording was closed cleanly (an `end` record). */
  readonly complete: boolean;
  readonly late: LateRecords | null;
}

export interface LoadTapeOptions {
  /** Stop at the first bad line (`--strict`) instead of skipping it. */
  readonly strict?: boolean;
  /** Keep user-feed frames (parity checks); the replay itself makes its own user feed. */
  readonly userFrames?: boolean;
  readonly parseMode?: PriceParseMode;
  /** Called for every problem as it is found. */
  readonly onProblem?: (p: InputProblem) => void;
}

const MAX_PROBLEMS_KEPT = 1_000;

/** What reading a recording found besides its items: everything a tape holds but the items. */
export interface RecordingSummary {
  readonly files: string[];
  readonly meta: MetaData[];
  readonly stats: Omit<TapeStats, 'ownOrders' | 'ownListingsRemoved'>;
  readonly problems: InputProblem[];
  readonly complete: boolean;
  readonly late: LateRecords | null;
  /** Orders of the recording account (from its user feed): replayed by the engine, so not market liquidity. */
  readonly own: ReadonlySet<string>;
  /** Items handed to `emit`. */
  readonly items: number;
}

/**
 * Read recording files (or directories of them) into a tape: frames go through the live
 * price feed's own checks, snapshots through the REST client's schema. A bad line is
 * reported with its file and line and skipped, or stops the load under `strict`.
 */
export async function loadTape(paths: readonly string[], options: LoadTapeOptions = {}): Promise<Tape> {
  const items: TapeItem[] = [];
  const s = await readRecording(paths, options, (it) => void items.push(it));
  const ownRemoved = s.own.size > 0 ? removeOwnOrders(items, s.own) : 0;
  return {
    files: s.files,
    meta: s.meta,
    items,
    stats: { ...s.stats, ownOrders: s.own.size, ownListingsRemoved: ownRemoved },
    problems: s.problems,
    complete: s.complete,
    late: s.late,
  };
}

/** How a streaming reader of `readRecording` follows it: the own orders as they are found, and a pause between batches. */
export interface ReadHooks {
  /** Filled with the recording account's orders as its user feed names them (the summary's `own` is this set). */
  readonly own?: Set<string>;
  /** Called after each batch of records; the reading waits for the promise it returns (a consumer that is behind). */
  readonly afterBatch?: () => Promise<void> | undefined;
}

/** The price frame checks, compiled once per mode: compiling them costs more than checking a small recording. */
const checkers = new Map<PriceParseMode, ReturnType<typeof createPriceFrameChecker>>();
function priceChecker(mode: PriceParseMode): ReturnType<typeof createPriceFrameChecker> {
  let c = checkers.get(mode);
  if (c === undefined) checkers.set(mode, (c = createPriceFrameChecker(mode)));
  return c;
}

/**
 * The streaming core of `loadTape`: every item is handed to `emit` as it is read, in
 * order, its time already moved up to the item before it where the recording stepped back.
 * The recording account's own listings are not taken out here (its orders are known only
 * at the end): `removeOwnOrders` does that with `own`.
 */
export async function readRecording(
  paths: readonly string[],
  options: LoadTapeOptions,
  emit: (it: TapeItem) => void,
  hooks: ReadHooks = {},
): Promise<RecordingSummary> {
  const strict = options.strict ?? false;
  const check = priceChecker(options.parseMode ?? 'fast');
  const meta: MetaData[] = [];
  const files = new Set<string>();
  const problems: InputProblem[] = [];
  const stats = { lines: 0, priceFrames: 0, userFrames: 0, malformedFrames: 0, unknownFrameTypes: 0, badLines: 0 };
  let complete = false;
  let count = 0;
  const own = hooks.own ?? new Set<string>();
  const report = (p: InputProblem) => {
    if (problems.length < MAX_PROBLEMS_KEPT) problems.push(p);
    options.onProblem?.(p);
    if (strict) throw new BacktestInputError(`${formatInputProblem(p)} (--strict: stopping)`, p);
  };
  // Files are read in time order; recordings that overlap, or a receive clock that stepped
  // back, may still step back in time (counted in `late`), and a replay clock cannot: such
  // an item is replayed at the time of the item before it.
  let lastItemT = -Infinity;
  const push = (it: TapeItem) => {
    if (it.t < lastItemT) (it as { t: number }).t = lastItemT;
    else lastItemT = it.t;
    count++;
    emit(it);
  };
  // A path that is not there is a mistake on the command line, not a bad line of a
  // recording to skip: replaying the other paths alone would answer another question.
  let late: { -readonly [K in keyof LateRecords]: LateRecords[K] } | null = null;
  let lastT = -Infinity;
  const reader = new RecordingReader(paths, {
    strict: false,
    onError: (err: RecordingReadError) => {
      stats.badLines++;
      report({ file: err.file, line: err.line, problem: err.problem, detail: err.detail });
    },
  });
  let found: string[];
  try {
    found = await reader.files();
  } catch (err) {
    throw new BacktestInputError(`cannot read the recording ${cannotRead(err, paths.join(', '))}`, null, true);
  }
  if (found.length === 0)
    throw new BacktestInputError(`no recording files (.jsonl.gz, .jsonl) in ${paths.join(', ')}`, null, true);
  for await (const batch of reader.batches()) {
    for (const { file, line, record: r } of batch) {
      stats.lines++;
      files.add(file);
      if (r.k !== 'meta' && r.k !== 'end') {
        if (r.t >= lastT) lastT = r.t;
        else if (late === null) late = { count: 1, maxStepBackMs: lastT - r.t, first: { file, line } };
        else {
          late.count++;
          late.maxStepBackMs = Math.max(late.maxStepBackMs, lastT - r.t);
        }
      }
      switch (r.k) {
        case 'meta':
          meta.push(r.d);
          break;
        case 'price': {
          stats.priceFrames++;
          const out =
            r.d !== undefined ? check(r.d) : ({ ok: false, problem: 'malformed', reason: 'not JSON' } as const);
          if (out.ok) push({ t: r.t, kind: 'price', event: out.event });
          else if (out.problem === 'unknownType') stats.unknownFrameTypes++;
          else {
            stats.malformedFrames++;
            report({ file, line, problem: 'frame', detail: out.reason });
          }
          break;
        }
        case 'user':
          stats.userFrames++;
          noteOwnOrders(r.d, own);
          if (options.userFrames) push({ t: r.t, kind: 'user', frame: r.d ?? r.raw });
          break;
        case 'snapshot': {
          const g = OrderbookGame.safeParse(r.d.game);
          if (g.success) push({ t: r.t, kind: 'snapshot', batch: r.d.batch, reason: r.d.reason, game: g.data });
          else {
            stats.badLines++;
            const issue = g.error.issues[0];
            report({
              file,
              line,
              problem: 'snapshot',
              detail: issue ? `d.game.${issue.path.join('.')}: ${issue.message}` : 'invalid game',
            });
          }
          break;
        }
        case 'snapshotDone':
          push({ t: r.t, kind: 'snapshotDone', batch: r.d.batch, reason: r.d.reason });
          break;
        case 'gap':
          push({ t: r.t, kind: 'gap', feed: r.d.feed, from: r.d.from, to: r.d.to, resumed: r.d.resumed });
          break;
        case 'result':
          push({
            t: r.t,
            kind: 'result',
            gameID: r.d.gameID,
            away: { id: r.d.away.id, score: r.d.away.score },
            home: { id: r.d.home.id, score: r.d.home.score },
          });
          break;
        case 'end':
          complete = true;
          break;
      }
    }
    const waiting = hooks.afterBatch?.();
    if (waiting) await waiting;
  }
  if (count === 0)
    throw new BacktestInputError(`nothing to replay in ${paths.join(', ')} (${stats.lines} records read)`, null);
  return { files: [...files], meta, stats, problems, complete, late, own, items: count };
}

function noteOwnOrders(d: unknown, own: Set<string>): void {
  if (typeof d !== 'object' || d === null) return;
  for (const k of ['matched', 'unmatched'] as const) {
    const part = (d as Record<string, unknown>)[k];
    const id = typeof part === 'object' && part !== null ? (part as Record<string, unknown>)['orderID'] : undefined;
    if (typeof id === 'string') own.add(id);
  }
}

/**
 * A recording of a session that traded lists its own orders in the book. In the replay our
 * orders are the engine's, so the recorded ones are taken out of every side and snapshot.
 */
export function removeOwnOrders(items: TapeItem[], own: ReadonlySet<string>): number {
  let removed = 0;
  const keep = <T extends { id: string }>(list: readonly T[]): T[] => {
    const out = list.filter((o) => !own.has(o.id));
    removed += list.length - out.length;
    return out;
  };
  items.forEach((it, i) => {
    if (
      it.kind === 'price' &&
      it.event.type === 'orderUpdate' &&
      it.event.payload.sideOrders.some((o) => own.has(o.id))
    ) {
      items[i] = {
        ...it,
        event: { ...it.event, payload: { ...it.event.payload, sideOrders: keep(it.event.payload.sideOrders) } },
      };
    } else if (it.kind === 'snapshot') {
      const g: Record<string, unknown> = { ...it.game };
      for (const c of BOOK_COLLECTIONS) g[c] = keep(it.game[c]);
      items[i] = { ...it, game: g as OrderbookGame };
    }
  });
  return removed;
}
