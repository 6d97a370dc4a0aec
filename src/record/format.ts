/**
 * The feed recording format, version 1: gzip-compressed JSON Lines, one record per line,
 * every record `{"t": <ms>, "k": <kind>, …}`. src/record/README.md is the reference; the
 * types here are the contract the recorder writes and the reader checks.
 */

export const RECORDING_FORMAT = 'linesmith.feed-recording';
/** Bumped only by a change an older reader would misread; added fields keep the version. */
export const RECORDING_VERSION = 1;
export const RECORDING_EXTENSION = '.jsonl.gz';

export type FeedName = 'price' | 'user';
export const FEED_NAMES: readonly FeedName[] = ['price', 'user'];

/** What the price feed was narrowed to; `all` means broadcast-all (every list then empty). */
export interface RecordedSubscription {
  readonly all: boolean;
  readonly leagues: readonly string[];
  readonly sports: readonly string[];
  readonly gameIds: readonly string[];
}

/** Where the frames came from. Never a URL with credentials, a token or a username. */
export interface RecordedVenue {
  readonly kind: 'live' | 'paper';
  /** Host (and port) of the streaming endpoint. */
  readonly host?: string;
  /** Paper runs: how the simulator was started, so the run can be made again. */
  readonly paper?: {
    readonly seed: number;
    readonly speed: number | null;
    readonly scenario: string | null;
    readonly virtualTime: boolean;
  };
}

export interface MetaData {
  readonly format: typeof RECORDING_FORMAT;
  readonly version: number;
  /** Shared by every file of one recording session. */
  readonly session: string;
  /** 1-based number of this file within its session. */
  readonly part: number;
  /** `t` of the session's first record. */
  readonly sessionStart: number;
  readonly linesmith: string;
  readonly venue: RecordedVenue;
  readonly subscription: RecordedSubscription;
  readonly feeds: readonly FeedName[];
  readonly rotation: { readonly maxFileBytes: number; readonly utcDay: boolean };
  /** What `t` is read from: `wall` (the system clock) or `exchange` (a simulator's clock, possibly sped up). */
  readonly clock: 'wall' | 'exchange';
}

export interface MetaRecord {
  readonly t: number;
  readonly k: 'meta';
  readonly d: MetaData;
}

/**
 * One text frame as the socket delivered it. `c` is the connection serial (1, 2, … per
 * feed; a new value follows a `gap`). Exactly one of `d` (the frame parsed as JSON) and
 * `raw` (the text, when it was not JSON) is present.
 */
export interface FrameRecord {
  readonly t: number;
  readonly k: FeedName;
  readonly c: number;
  readonly d?: unknown;
  readonly raw?: string;
}

export type SnapshotReason = 'start' | 'reconnect' | 'day';

/** The REST query one snapshot answer came from. */
export interface SnapshotScope {
  readonly league?: string;
  readonly gameID?: string;
  /** With `league: "all"`: only games of these sports were kept. */
  readonly sports?: readonly string[];
}

/**
 * One game of a v2 orderbook read (`getOrderbook`), as the REST client decoded it. The
 * book it shows is from some instant between `req` and `t`, so frames recorded in that
 * window may be older or newer than it; frames after `t` are newer.
 */
export interface SnapshotRecord {
  readonly t: number;
  readonly k: 'snapshot';
  readonly d: {
    readonly batch: number;
    readonly reason: SnapshotReason;
    readonly req: number;
    readonly scope: SnapshotScope;
    readonly game: unknown;
  };
}

/**
 * Closes a snapshot batch: every game it wrote, and the queries that failed. A game of the
 * subscription missing from `games` was not on the board (ended, or not listed yet) —
 * unless its query is among `failed`.
 */
export interface SnapshotDoneRecord {
  readonly t: number;
  readonly k: 'snapshotDone';
  readonly d: {
    readonly batch: number;
    readonly reason: SnapshotReason;
    readonly req: number;
    readonly games: readonly string[];
    readonly failed: readonly { readonly scope: SnapshotScope; readonly error: string }[];
  };
}

/**
 * A feed was down from `from` to `to`: frames of that interval are missing. `resumed`
 * false: the recording ended while it was still down (`to` is then the end).
 */
export interface GapRecord {
  readonly t: number;
  readonly k: 'gap';
  readonly d: {
    readonly feed: FeedName;
    readonly from: number;
    readonly to: number;
    readonly connection: number;
    readonly resumed: boolean;
    readonly reason: string | null;
  };
}

export interface ResultSide {
  readonly id: string;
  readonly name: string | null;
  readonly score: number;
}

/** A final score, once per game (again if a regrade changes it). */
export interface ResultRecord {
  readonly t: number;
  readonly k: 'result';
  readonly d: {
    readonly gameID: string;
    readonly league: string | null;
    readonly sport: string | null;
    readonly away: ResultSide;
    readonly home: ResultSide;
    /** Where the score was read: a `gameUpdate` frame, a REST read after the end, or a snapshot. */
    readonly via: 'feed' | 'rest' | 'snapshot';
  };
}

/** The last record of a session that was closed cleanly; its absence means the recorder died. */
export interface EndRecord {
  readonly t: number;
  readonly k: 'end';
  readonly d: {
    readonly reason: string;
    readonly records: number;
    readonly frames: Readonly<Record<FeedName, number>>;
    readonly files: number;
  };
}

export type RecordingRecord =
  MetaRecord | FrameRecord | SnapshotRecord | SnapshotDoneRecord | GapRecord | ResultRecord | EndRecord;
export type RecordKind = RecordingRecord['k'];
export const RECORD_KINDS: readonly RecordKind[] = [
  'meta',
  'price',
  'user',
  'snapshot',
  'snapshotDone',
  'gap',
  'result',
  'end',
];

/** A frame kept as text (`raw`): not JSON, or JSON that cannot be re-serialised. */
function rawFrameLine(head: string, text: string): { line: string; parsed: unknown; json: boolean } {
  return { line: `${head},"raw":${JSON.stringify(text)}}`, parsed: undefined, json: false };
}

/**
 * The line of a frame record. A frame that is JSON on one line is embedded verbatim, so
 * its numbers keep their exact spelling and nothing is re-serialised; JSON that spans
 * lines is re-serialised, since a raw newline would split the record.
 */
export function frameLine(
  t: number,
  feed: FeedName,
  connection: number,
  text: string,
): { line: string; parsed: unknown; json: boolean } {
  const head = `{"t":${t},"k":"${feed}","c":${connection}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return rawFrameLine(head, text);
  }
  let body = text.trim();
  if (text.includes('\n') || text.includes('\r')) {
    try {
      body = JSON.stringify(parsed);
    } catch {
      // Nested deeper than JSON.stringify can follow: kept as text, like a frame that is not JSON.
      return rawFrameLine(head, text);
    }
  }
  return { line: `${head},"d":${body}}`, parsed, json: true };
}

/** `20260501T180000123Z`: fixed width, so names sort in time order. */
export function fileStamp(t: number): string {
  return new Date(t).toISOString().replace(/[-:.]/g, '');
}

/** `<prefix>-<stamp of the first record>-<part>.jsonl.gz`: a directory listing sorts files in time order. */
export function recordingFileName(prefix: string, t: number, part: number): string {
  return `${prefix}-${fileStamp(t)}-${String(part).padStart(6, '0')}${RECORDING_EXTENSION}`;
}

export const DAY_MS = 86_400_000;

export function utcDay(t: number): number {
  return Math.floor(t / DAY_MS);
}
