import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import pino, { type Logger } from 'pino';
import { Subscription, type Observable, type SchedulerLike } from 'rxjs';
import type { PriceSelection } from '../exchange/socket/price-subscriptions.ts';
import type { SocketState } from '../exchange/socket/managed-socket.ts';
import type { Clock } from '../shared/clock.ts';
import { componentChild } from '../shared/logger.ts';
import {
  fileStamp,
  frameLine,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type EndRecord,
  type FeedName,
  type GapRecord,
  type MetaRecord,
  type RecordedSubscription,
  type RecordedVenue,
  type ResultRecord,
  type SnapshotDoneRecord,
  type SnapshotReason,
  type SnapshotRecord,
  type SnapshotScope,
} from './format.ts';
import { endedWithoutScore, gameUpdatePayload, resultOf } from './results.ts';
import { RotatingGzipWriter } from './rotating-writer.ts';
import { priceSelectionOf, RECORD_ALL, snapshotScopesOf } from './selection.ts';
import { LINESMITH_VERSION } from './version.ts';
import { RecorderUsageError } from './errors.ts';

/** A socket as the recorder sees it: raw text frames and the connection state. */
export interface FrameSocketLike {
  readonly frames$: Observable<string>;
  readonly state$: Observable<SocketState>;
}

/**
 * What the recorder needs of an exchange client; `ExchangeClient` is one. Only raw feed
 * frames and orderbook reads reach the files: the client keeps the token to itself.
 */
export interface RecorderSource {
  readonly rest: { getOrderbook(filter: { league: string } | { gameID: string }): Promise<readonly unknown[]> };
  readonly priceFeed: {
    readonly socket: FrameSocketLike;
    subscribe(selection: PriceSelection, options?: { readonly replace?: boolean }): void;
    start(): unknown;
  };
  readonly userFeed: { readonly socket: FrameSocketLike; start(): unknown };
}

export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

export interface FeedRecorderOptions {
  readonly source: RecorderSource;
  /** Created if missing. */
  readonly dir: string;
  /** What to narrow the price feed to and snapshot; default everything. */
  readonly subscription?: RecordedSubscription;
  readonly venue: RecordedVenue;
  /** Receive times (`t`) come from here. */
  readonly clock: Clock;
  /** Say in the meta record whether `clock` is the wall clock or a simulator's (default `wall`). */
  readonly clockKind?: 'wall' | 'exchange';
  /** Runs the periodic gzip flush. */
  readonly scheduler: SchedulerLike;
  /** Default both. */
  readonly feeds?: readonly FeedName[];
  /** Uncompressed bytes per file before the next one starts; default 64 MiB. */
  readonly maxFileBytes?: number;
  /** Start a new file at each UTC midnight (default true), with fresh snapshots. */
  readonly rotateDaily?: boolean;
  /** How often buffered records are pushed to disk (default 5 000 ms on `scheduler`); 0: only on close. */
  readonly flushIntervalMs?: number;
  /** File names are `<prefix>-<time>-<part>.jsonl.gz`; default `feed`. */
  readonly prefix?: string;
  /** Session id written in every meta record; default time plus random. */
  readonly session?: string;
  readonly linesmithVersion?: string;
  readonly logger?: Logger;
  /** A file could not be written: the recording is broken from here on. */
  readonly onError?: (err: Error) => void;
}

export interface RecorderStats {
  readonly frames: Readonly<Record<FeedName, number>>;
  /** Frames that were not JSON (recorded as `raw`). */
  readonly rawFrames: Readonly<Record<FeedName, number>>;
  readonly records: number;
  readonly snapshots: number;
  readonly gaps: number;
  readonly results: number;
  /** Uncompressed bytes of every file. */
  readonly bytes: number;
  readonly compressedBytes: number;
  readonly files: readonly string[];
}

export interface RecorderSummary extends RecorderStats {
  readonly session: string;
  readonly reason: string;
  /** The first write failure, if any: records after it were lost. */
  readonly error: Error | null;
}

interface FeedTrack {
  connection: number;
  downSince: number | null;
  reason: string | null;
}

const silent = (): Logger => pino({ level: 'silent' });

/**
 * Writes what a client's feeds deliver, frame by frame with its receive time, to rotating
 * gzip JSON Lines (format: src/record/README.md). At the price feed's first open, after each
 * reopen and at each UTC day change it reads the orderbook of everything subscribed and
 * writes one `snapshot` per game; a feed that went down and came back leaves a `gap`; final
 * scores become `result` records. The recorder narrows the price feed and starts the feeds
 * it records: give it a client nobody else drives.
 */
export class FeedRecorder {
  readonly session: string;
  readonly #o: FeedRecorderOptions;
  readonly #log: Logger;
  readonly #subscription: RecordedSubscription;
  readonly #feeds: readonly FeedName[];
  readonly #writer: RotatingGzipWriter;
  readonly #wiring = new Subscription();
  readonly #track: Record<FeedName, FeedTrack> = {
    price: { connection: 0, downSince: null, reason: null },
    user: { connection: 0, downSince: null, reason: null },
  };
  readonly #frames: Record<FeedName, number> = { price: 0, user: 0 };
  readonly #rawFrames: Record<FeedName, number> = { price: 0, user: 0 };
  readonly #counts = { records: 0, snapshots: 0, gaps: 0, results: 0 };
  /** Score last recorded per game, so a result is written once (and again only when it changes). */
  readonly #results = new Map<string, string>();
  /** Games already read back over REST for their score. */
  readonly #lookedUp = new Set<string>();
  readonly #pending = new Set<Promise<unknown>>();
  #last = -Infinity;
  #sessionStart = 0;
  #batch = 0;
  #snapshotRunning = false;
  #snapshotAgain: SnapshotReason | null = null;
  #state: 'new' | 'recording' | 'stopped' = 'new';
  #stopping: Promise<RecorderSummary> | null = null;
  #error: Error | null = null;

  constructor(options: FeedRecorderOptions) {
    this.#o = options;
    this.#log = componentChild(options.logger ?? silent(), 'recorder');
    this.#subscription = options.subscription ?? RECORD_ALL;
    this.#feeds = options.feeds ?? ['price', 'user'];
    if (!this.#feeds.includes('price'))
      throw new RecorderUsageError('the price feed is always recorded: snapshots and gaps are keyed to it');
    this.session = options.session ?? `${fileStamp(options.clock.now())}-${randomBytes(4).toString('hex')}`;
    const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const rotateDaily = options.rotateDaily ?? true;
    this.#writer = new RotatingGzipWriter({
      dir: options.dir,
      prefix: options.prefix ?? 'feed',
      maxFileBytes,
      rotateDaily,
      flushIntervalMs: options.flushIntervalMs ?? 5_000,
      scheduler: options.scheduler,
      header: (t, part) => {
        this.#counts.records++;
        return JSON.stringify(this.#meta(t, part, maxFileBytes, rotateDaily));
      },
      onRotate: (reason) => {
        this.#log.info({ reason, file: this.#writer.stats.files.at(-1) }, 'recording: new file');
        if (reason === 'day' && this.#track.price.connection > 0) this.#requestSnapshot('day');
      },
      onError: (err) => {
        this.#error ??= err;
        this.#log.error({ err }, 'recording: cannot write; records from here on are lost');
        this.#o.onError?.(err);
      },
    });
  }

  get stats(): RecorderStats {
    const w = this.#writer.stats;
    return {
      frames: { ...this.#frames },
      rawFrames: { ...this.#rawFrames },
      ...this.#counts,
      bytes: w.bytes,
      compressedBytes: w.compressedBytes,
      files: w.files,
    };
  }

  get error(): Error | null {
    return this.#error;
  }

  /** Open the first file, narrow the price feed, start the feeds. Snapshots follow the price feed's open. */
  async start(): Promise<void> {
    if (this.#state !== 'new') throw new RecorderUsageError('a FeedRecorder starts once');
    await mkdir(this.#o.dir, { recursive: true });
    this.#state = 'recording';
    this.#sessionStart = this.#now();
    this.#writer.begin(this.#sessionStart);
    const { source } = this.#o;
    for (const feed of this.#feeds) {
      const socket = feed === 'price' ? source.priceFeed.socket : source.userFeed.socket;
      this.#wiring.add(socket.state$.subscribe((s) => this.#onState(feed, s)));
      this.#wiring.add(socket.frames$.subscribe((text) => this.#onFrame(feed, text)));
    }
    const selection = priceSelectionOf(this.#subscription);
    if (selection) source.priceFeed.subscribe(selection, { replace: true });
    source.priceFeed.start();
    if (this.#feeds.includes('user')) source.userFeed.start();
  }

  /** Resolves once no snapshot or score read is in flight (tests and the virtual-time driver wait on it). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /**
   * Stop recording: a feed still down gets its gap (`resumed: false`), then an `end`
   * record, and every file is flushed and closed. Reads still in flight are dropped. The
   * client is left as it is; close it after.
   */
  stop(reason: string): Promise<RecorderSummary> {
    this.#stopping ??= this.#stop(reason);
    return this.#stopping;
  }

  async #stop(reason: string): Promise<RecorderSummary> {
    const wasRecording = this.#state === 'recording';
    this.#state = 'stopped';
    this.#wiring.unsubscribe();
    if (wasRecording) {
      const t = this.#now();
      for (const feed of this.#feeds) {
        const track = this.#track[feed];
        if (track.connection > 0 && track.downSince !== null) this.#gap(t, feed, track, track.connection, false);
      }
      this.#write(t, () => {
        const end: EndRecord = {
          t,
          k: 'end',
          d: {
            reason,
            records: this.#counts.records,
            frames: { ...this.#frames },
            files: this.#writer.stats.files.length,
          },
        };
        return JSON.stringify(end);
      });
    }
    await this.#writer.close();
    return { ...this.stats, session: this.session, reason, error: this.#error };
  }

  // ------------------------------------------------------------------ feeds

  #onFrame(feed: FeedName, text: string): void {
    if (this.#state !== 'recording') return;
    const t = this.#now();
    const { line, parsed, json } = frameLine(t, feed, this.#track[feed].connection, text);
    this.#frames[feed]++;
    if (!json) this.#rawFrames[feed]++;
    this.#write(t, line);
    if (feed === 'price' && json) {
      const game = gameUpdatePayload(parsed);
      if (game) this.#noteGame(game, 'feed');
    }
  }

  #onState(feed: FeedName, s: SocketState): void {
    if (this.#state !== 'recording') return;
    const track = this.#track[feed];
    if (s.status === 'open') {
      if (s.connection === track.connection) return;
      const first = track.connection === 0;
      if (!first) this.#gap(this.#now(), feed, track, s.connection, true);
      track.connection = s.connection;
      track.downSince = null;
      track.reason = null;
      // The book may have changed while the feed was down: read it again.
      if (feed === 'price') this.#requestSnapshot(first ? 'start' : 'reconnect');
      return;
    }
    // `closed` is the client shutting down, not an outage.
    if (s.status === 'closed' || track.connection === 0 || track.downSince !== null) return;
    track.downSince = this.#now();
    track.reason = s.lastError ? s.lastError.message.slice(0, 300) : null;
  }

  #gap(t: number, feed: FeedName, track: FeedTrack, connection: number, resumed: boolean): void {
    const gap: GapRecord = {
      t,
      k: 'gap',
      d: { feed, from: track.downSince ?? t, to: t, connection, resumed, reason: track.reason },
    };
    this.#counts.gaps++;
    this.#write(t, JSON.stringify(gap));
  }

  // ------------------------------------------------------------------ snapshots

  /** Batches never overlap: a request during one runs once more after it, with the latest reason. */
  #requestSnapshot(reason: SnapshotReason): void {
    if (this.#snapshotRunning) {
      this.#snapshotAgain = reason;
      return;
    }
    this.#snapshotRunning = true;
    this.#background(
      this.#snapshot(reason).finally(() => {
        this.#snapshotRunning = false;
        const again = this.#snapshotAgain;
        this.#snapshotAgain = null;
        if (again !== null && this.#state === 'recording') this.#requestSnapshot(again);
      }),
    );
  }

  async #snapshot(reason: SnapshotReason): Promise<void> {
    const batch = ++this.#batch;
    const req = this.#now();
    const written: string[] = [];
    const seen = new Set<string>();
    const failed: { scope: SnapshotScope; error: string }[] = [];
    const scopes = snapshotScopesOf(this.#subscription);
    // Read in parallel, written in scope order: the same answers give the same records.
    const answers = await Promise.allSettled(
      scopes.map((scope) =>
        this.#o.source.rest.getOrderbook(
          scope.gameID !== undefined ? { gameID: scope.gameID } : { league: scope.league ?? 'all' },
        ),
      ),
    );
    if (this.#state !== 'recording') return;
    answers.forEach((answer, i) => {
      const scope = scopes[i]!;
      if (answer.status === 'rejected') {
        const error = answer.reason instanceof Error ? answer.reason.message : String(answer.reason);
        this.#log.warn({ scope, error }, 'recording: orderbook snapshot failed');
        failed.push({ scope, error });
        return;
      }
      const sports = scope.sports?.map((s) => s.toLowerCase());
      for (const game of answer.value) {
        const id = idOf(game);
        if (id === null || seen.has(id)) continue;
        if (sports && !sports.includes(sportOf(game))) continue;
        seen.add(id);
        written.push(id);
        const t = this.#now();
        const rec: SnapshotRecord = { t, k: 'snapshot', d: { batch, reason, req, scope, game } };
        this.#counts.snapshots++;
        this.#write(t, JSON.stringify(rec));
        this.#noteGame(game, 'snapshot');
      }
    });
    if (this.#state !== 'recording') return;
    const t = this.#now();
    const done: SnapshotDoneRecord = { t, k: 'snapshotDone', d: { batch, reason, req, games: written, failed } };
    this.#write(t, JSON.stringify(done));
  }

  // ------------------------------------------------------------------ results

  #noteGame(game: unknown, via: 'feed' | 'rest' | 'snapshot'): void {
    const result = resultOf(game);
    if (result) {
      const score = `${result.away.score}:${result.home.score}`;
      if (this.#results.get(result.gameID) === score) return;
      this.#results.set(result.gameID, score);
      const t = this.#now();
      const rec: ResultRecord = { t, k: 'result', d: { ...result, via } };
      this.#counts.results++;
      this.#write(t, JSON.stringify(rec));
      return;
    }
    // An exchange may announce the end before the score: read the game back, once.
    const id = via === 'feed' ? endedWithoutScore(game) : null;
    if (id === null || this.#lookedUp.has(id)) return;
    this.#lookedUp.add(id);
    this.#background(
      this.#o.source.rest.getOrderbook({ gameID: id }).then(
        (games) => {
          if (this.#state !== 'recording') return;
          for (const g of games) if (idOf(g) === id) this.#noteGame(g, 'rest');
        },
        (err: unknown) => this.#log.warn({ gameID: id, err }, 'recording: could not read an ended game for its score'),
      ),
    );
  }

  // ------------------------------------------------------------------ plumbing

  #meta(t: number, part: number, maxFileBytes: number, utcDay: boolean): MetaRecord {
    return {
      t,
      k: 'meta',
      d: {
        format: RECORDING_FORMAT,
        version: RECORDING_VERSION,
        session: this.session,
        part,
        sessionStart: this.#sessionStart,
        linesmith: this.#o.linesmithVersion ?? LINESMITH_VERSION,
        venue: this.#o.venue,
        subscription: this.#subscription,
        feeds: this.#feeds,
        rotation: { maxFileBytes, utcDay },
        clock: this.#o.clockKind ?? 'wall',
      },
    };
  }

  #write(t: number, line: string | (() => string)): void {
    this.#counts.records++;
    this.#writer.write(t, line);
  }

  /**
   * Receive time in whole ms, never going back: a clock stepped backwards is flattened, so
   * file order is time order. (A virtual clock may stand between two ms.)
   */
  #now(): number {
    const now = Math.floor(this.#o.clock.now());
    if (now > this.#last) this.#last = now;
    return this.#last;
  }

  #background(work: Promise<unknown>): void {
    const p = work.catch((err: unknown) => this.#log.error({ err }, 'recording: background read failed'));
    this.#pending.add(p);
    void p.finally(() => this.#pending.delete(p));
  }
}

function idOf(game: unknown): string | null {
  const id = typeof game === 'object' && game !== null ? (game as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : null;
}

function sportOf(game: unknown): string {
  const sport = typeof game === 'object' && game !== null ? (game as { sport?: unknown }).sport : undefined;
  return typeof sport === 'string' ? sport.toLowerCase() : '';
}
