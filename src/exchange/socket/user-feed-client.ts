import pino, { type Logger } from 'pino';
import { asyncScheduler, BehaviorSubject, Subject, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { TokenSource } from '../auth/token-source.ts';
import { SocketFailedError } from '../errors.ts';
import { UserFeedMessage } from '../schemas/user-feed.ts';
import { backoffDelay } from '../../shared/backoff.ts';
import { jsonText } from '../../shared/json-text.ts';
import { frameForLog } from './frame-log.ts';
import { ManagedSocket, type SocketState, type SocketTuning } from './managed-socket.ts';
import { MessageCursor, parseMessageId, type MessageId } from './message-id.ts';
import {
  classifyMessage,
  type MessageSource,
  type UserFeedEvent,
  type UserFeedGapWarning,
} from './user-feed-events.ts';
import { fetchReplay, USER_FEED_REPLAY_PATH } from './user-feed-replay.ts';
import { httpUrl, socketUrl } from './urls.ts';

export const USER_FEED_PATH = '/v2/user';

/** The first wait before a failed reconciliation is tried again, ms; each failure doubles it, up to the max. */
export const RECONCILE_RETRY_MS = 1_000;
export const RECONCILE_RETRY_MAX_MS = 30_000;
/** 1 s doubling to 30 s, no jitter: one client per account, nothing to spread out. */
const RECONCILE_BACKOFF = {
  baseMs: RECONCILE_RETRY_MS,
  maxMs: RECONCILE_RETRY_MAX_MS,
  jitter: 0,
  resetAfterMs: 0,
} as const;

export interface UserFeedClientOptions<R> extends SocketTuning {
  /** The streaming base (`ExchangeUrls.streaming`): `/v2/user` over ws, `/v2/user/messages` over http. */
  readonly streamingUrl: string;
  readonly tokens: TokenSource;
  /** The last messageID an earlier run processed: the first connection replays from it. */
  readonly cursor?: string | null;
  /**
   * Rebuild state from REST when the feed cannot fill a gap (cache_expired, or a gap
   * before any cursor). Its result is emitted as a `reconciled` event.
   */
  readonly reconcile?: () => Promise<R>;
  /** Deadline of one replay request, ms. Default 15 000. */
  readonly replayTimeoutMs?: number;
  readonly dispatcher?: Dispatcher;
}

export interface UserFeedStats {
  readonly frames: number;
  /** Messages that passed the cursor and were emitted. */
  readonly processed: number;
  /** Messages not after the cursor (seen live and again in a replay): dropped. */
  readonly duplicates: number;
  readonly malformed: number;
  readonly replays: number;
  readonly replayedMessages: number;
  readonly replayFailures: number;
  readonly cacheExpired: number;
  readonly reconciles: number;
  readonly reconnects: number;
}

interface Recovery {
  readonly abort: AbortController;
  /** Live messages held while the replay runs. */
  readonly buffer: Checked[];
  /** Another gap was noticed meanwhile: recover once more afterwards. */
  again: boolean;
}

interface Checked {
  readonly message: UserFeedMessage;
  readonly id: MessageId;
}

type Reason = UserFeedGapWarning['reason'];

const checkMessage = z.compile(UserFeedMessage);

/**
 * The user feed (`/v2/user`, feeds-and-semantics §5) as classified events, with nothing
 * lost or counted twice across reconnects. After every (re)connect — and after a frame
 * that could not be read, which stood for a message — live messages are held while
 * `GET /v2/user/messages?afterID=<cursor>` fills the gap; then the replayed messages and
 * the held ones pass one forward-only cursor check, in that order. A replay that fails
 * drops the connection (the held messages may sit after a gap) and the next connection
 * replays from the same cursor. cache_expired: what is left is processed, a warning is
 * emitted and `reconcile()` runs.
 */
export class UserFeedClient<R = unknown> {
  readonly socket: ManagedSocket;
  readonly events$: Observable<UserFeedEvent<R>>;
  readonly state$: Observable<SocketState>;
  /**
   * True while what `events$` emitted may be missing a stretch of messages: from a drop
   * until the next connection's replay has filled the gap, and from a gap the replay cannot
   * fill until a REST reconciliation (retried until it succeeds) is emitted. It is true
   * before `state$` subscribers hear of the new connection, and turns false only after the
   * replayed messages, or the `reconciled` event, are out. The replay after one unreadable
   * frame on a connection that stays up does not count: it is one request, no longer than
   * an answer in flight (its cache_expired still does).
   */
  readonly recovering$: Observable<boolean>;

  readonly #events = new Subject<UserFeedEvent<R>>();
  readonly #cursor: MessageCursor;
  readonly #tokens: TokenSource;
  readonly #replayUrl: string;
  readonly #replayTimeoutMs: number;
  readonly #scheduler: SchedulerLike;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #reconcile: (() => Promise<R>) | undefined;
  readonly #log: Logger;
  readonly #wiring: Subscription;
  readonly #recovering = new BehaviorSubject(false);
  #seenConnection = 0;
  #recovery: Recovery | null = null;
  /** A connection dropped, or its replay failed: messages may be missing until a later connection's replay is through. */
  #dropped = false;
  /** A reconciliation runs, or waits on the scheduler to be tried again after a failure. */
  #reconciling = false;
  #reconcileAgain: Reason | null = null;
  /** The wait before a failed reconciliation is tried again. */
  #reconcileRetry: Subscription | null = null;
  #reconcileFailures = 0;
  #closed = false;
  readonly #counts = {
    processed: 0,
    duplicates: 0,
    malformed: 0,
    replays: 0,
    replayedMessages: 0,
    replayFailures: 0,
    cacheExpired: 0,
    reconciles: 0,
  };

  constructor(options: UserFeedClientOptions<R>) {
    this.#cursor = new MessageCursor(options.cursor ?? null);
    this.#tokens = options.tokens;
    this.#replayUrl = httpUrl(options.streamingUrl, USER_FEED_REPLAY_PATH);
    this.#replayTimeoutMs = options.replayTimeoutMs ?? 15_000;
    this.#scheduler = options.scheduler ?? asyncScheduler;
    this.#dispatcher = options.dispatcher;
    this.#reconcile = options.reconcile;
    this.#log = (options.logger ?? pino({ level: 'silent' })).child({ feed: 'user' });
    this.socket = new ManagedSocket({ ...options, name: 'user', url: socketUrl(options.streamingUrl, USER_FEED_PATH) });
    this.events$ = this.#events.asObservable();
    this.state$ = this.socket.state$;
    this.recovering$ = this.#recovering.asObservable();
    this.#wiring = this.socket.state$.subscribe((s) => this.#onState(s));
    this.#wiring.add(this.socket.frames$.subscribe((text) => this.#onFrame(text)));
  }

  /** The last messageID processed: persist it, and hand it back as `cursor` after a restart. */
  get cursor(): string | null {
    return this.#cursor.value;
  }

  get stats(): UserFeedStats {
    return { frames: this.socket.stats.framesReceived, ...this.#counts, reconnects: this.socket.stats.reconnects };
  }

  start(): this {
    this.socket.start();
    return this;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#recovery?.abort.abort();
    this.#recovery = null;
    this.#reconcileRetry?.unsubscribe();
    this.#reconcileRetry = null;
    await this.socket.close();
    this.#wiring.unsubscribe();
    this.#events.complete();
    this.#recovering.complete();
  }

  /** Called after every change of what recovery is under way: one place decides `recovering$`. */
  #updateRecovering(): void {
    const now = this.#dropped || this.#reconciling;
    if (now !== this.#recovering.value) this.#recovering.next(now);
  }

  #onState(s: SocketState): void {
    if (s.status !== 'open') {
      // Whatever was held belongs to a connection that is gone, possibly after a gap:
      // forget it; the next connection replays from the unchanged cursor.
      this.#recovery?.abort.abort();
      this.#recovery = null;
      if (this.#seenConnection !== 0 && !this.#closed) this.#dropped = true;
      this.#updateRecovering();
      return;
    }
    if (s.connection === this.#seenConnection) return;
    const first = this.#seenConnection === 0;
    this.#seenConnection = s.connection;
    // A fresh process with no cursor has nothing to catch up on.
    if (!(first && this.#cursor.value === null)) this.#recover();
    this.#updateRecovering();
  }

  #onFrame(text: string): void {
    const checked = this.#parseFrame(text);
    if (!checked) {
      // The unreadable frame most likely stood for a message: replay fetches the real one.
      this.#recover();
      this.#updateRecovering();
      return;
    }
    if (this.#recovery) this.#recovery.buffer.push(checked);
    else this.#process(checked, 'live');
  }

  #recover(): void {
    if (this.#cursor.value === null) {
      // Nothing to replay from: the reconciliation (or, without one, the warning) takes the drop over.
      this.#dropped = false;
      this.#gap('no_cursor', null, 0);
      return;
    }
    if (this.#recovery) {
      this.#recovery.again = true;
      return;
    }
    const recovery: Recovery = { abort: new AbortController(), buffer: [], again: false };
    this.#recovery = recovery;
    void this.#replay(recovery);
  }

  async #replay(recovery: Recovery): Promise<void> {
    const after = this.#cursor.value!;
    this.#counts.replays++;
    let answer;
    try {
      answer = await fetchReplay({
        url: this.#replayUrl,
        tokens: this.#tokens,
        afterID: after,
        timeoutMs: this.#replayTimeoutMs,
        scheduler: this.#scheduler,
        signal: recovery.abort.signal,
        ...(this.#dispatcher ? { dispatcher: this.#dispatcher } : {}),
      });
    } catch (err) {
      if (this.#recovery !== recovery) return;
      this.#recovery = null;
      // The gap is still there until the next connection replays it (and the socket reports
      // the drop only once the old one has closed).
      this.#dropped = true;
      this.#counts.replayFailures++;
      this.#log.warn({ err, afterID: after }, 'user feed replay failed: reconnecting to replay again');
      this.socket.reconnect(
        new SocketFailedError(`user feed replay failed: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        }),
      );
      this.#updateRecovering();
      return;
    }
    if (this.#recovery !== recovery) return;
    const messages = answer.status === 'success' ? answer.messages : answer.availableMessages;
    this.#counts.replayedMessages += messages.length;
    for (const raw of messages) {
      const checked = this.#check(raw, 'replay');
      if (checked) this.#process(checked, 'replay');
    }
    this.#recovery = null;
    for (const held of recovery.buffer) this.#process(held, 'live');
    // The gap of any drop before this connection is filled (or, expired, reconciled next).
    this.#dropped = false;
    this.#log.info(
      {
        afterID: after,
        replayed: messages.length,
        held: recovery.buffer.length,
        status: answer.status,
        cursor: this.#cursor.value,
      },
      'user feed replay done',
    );
    if (answer.status === 'cache_expired') this.#gap('cache_expired', after, messages.length);
    if (recovery.again) this.#recover();
    this.#updateRecovering();
  }

  #process(checked: Checked, source: MessageSource): void {
    if (!this.#cursor.advance(checked.id)) {
      this.#counts.duplicates++;
      return;
    }
    this.#counts.processed++;
    this.#events.next(classifyMessage(checked.message, source));
  }

  #parseFrame(text: string): Checked | null {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.#malformed('not JSON', text, 'live');
      return null;
    }
    return this.#check(json, 'live', text);
  }

  #check(value: unknown, source: MessageSource, text?: string): Checked | null {
    const parsed = checkMessage.safeParse(value);
    if (!parsed.success) {
      const reason = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      this.#malformed(reason, text ?? jsonText(value), source);
      return null;
    }
    const id = parseMessageId(parsed.data.messageID);
    if (!id) {
      this.#malformed('messageID out of range', text ?? jsonText(value), source);
      return null;
    }
    return { message: parsed.data, id };
  }

  #malformed(reason: string, text: string, source: MessageSource): void {
    this.#counts.malformed++;
    this.#log.warn({ reason, source, frame: frameForLog(text) }, 'user feed: malformed message skipped');
  }

  #gap(reason: Reason, cursor: string | null, availableMessages: number): void {
    if (reason === 'cache_expired') this.#counts.cacheExpired++;
    this.#log.warn(
      { reason, cursor, availableMessages },
      'user feed: gap the replay cannot fill; reconciling from REST',
    );
    this.#events.next({ type: 'gapWarning', reason, cursor, availableMessages });
    if (!this.#reconcile) return;
    // A retry already waiting reads REST after this gap: it covers it.
    if (this.#reconcileRetry) return;
    if (this.#reconciling) {
      this.#reconcileAgain = reason;
      return;
    }
    this.#runReconcile(this.#reconcile, reason);
  }

  #runReconcile(reconcile: () => Promise<R>, reason: Reason): void {
    this.#reconciling = true;
    this.#counts.reconciles++;
    Promise.resolve()
      .then(reconcile)
      .then(
        (result) => {
          this.#reconcileFailures = 0;
          this.#events.next({ type: 'reconciled', reason, result });
          this.#reconciling = false;
          const again = this.#reconcileAgain;
          this.#reconcileAgain = null;
          // A gap noticed while reconciling may postdate the REST snapshot: once more.
          if (again !== null && !this.#closed) this.#runReconcile(reconcile, again);
          this.#updateRecovering();
        },
        (err: unknown) => {
          const error = err instanceof Error ? err : new SocketFailedError(String(err));
          if (this.#closed) {
            this.#reconciling = false;
            return;
          }
          // Without a retry the gap would never be filled and whoever halted on it would stay
          // halted for good. Still reconciling meanwhile; the retry also covers any gap since.
          const retryInMs = backoffDelay(++this.#reconcileFailures, RECONCILE_BACKOFF, () => 0);
          const next = this.#reconcileAgain ?? reason;
          this.#reconcileAgain = null;
          this.#log.error({ err: error, reason, retryInMs }, 'user feed: reconciliation failed; trying again');
          this.#reconcileRetry = this.#scheduler.schedule(() => {
            this.#reconcileRetry = null;
            this.#runReconcile(reconcile, next);
          }, retryInMs);
          this.#events.next({ type: 'reconcileFailed', reason, error, retryInMs });
        },
      );
  }
}
