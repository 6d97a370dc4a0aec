import { randomInt } from 'node:crypto';
import pino, { type Logger } from 'pino';
import {
  asyncScheduler,
  BehaviorSubject,
  interval,
  Subject,
  Subscription,
  timer,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { WebSocket, type RawData } from 'ws';
import type { Clock } from '../../shared/clock.ts';
import { createRandom } from '../../shared/random.ts';
import type { TokenSource } from '../auth/token-source.ts';
import { AuthenticationError, SocketClosedError, SocketFailedError } from '../errors.ts';
import { assertSecureUrl } from '../http/urls.ts';
import { backoffDelay, resolveBackoff, type BackoffOptions } from '../../shared/backoff.ts';

export type SocketStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface SocketState {
  /** `connecting` until the first open; `reconnecting` whenever it is down after that. */
  readonly status: SocketStatus;
  /** Number of the attempt under way, scheduled or (when open) that succeeded, counted since the last healthy connection. */
  readonly attempt: number;
  /** Why the last connection or attempt ended; null until something went wrong. */
  readonly lastError: Error | null;
  /** Clock time this state began. */
  readonly since: number;
  /** Serial of the current (or last) open connection: 1, 2, …; 0 before the first open. */
  readonly connection: number;
  /** While waiting to retry: the delay chosen, ms. */
  readonly retryInMs: number | null;
}

/** What every socket client passes through to its ManagedSocket. */
export interface SocketTuning {
  /** Every timer runs here (default asyncScheduler); tests and backtests inject a virtual one. */
  readonly scheduler?: SchedulerLike;
  /** Time of day; defaults to the scheduler's own `now()` so both agree. */
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Default 10 000 (feeds-and-semantics §1). */
  readonly pingIntervalMs?: number;
  /** Default 30 000: a connection this long without a pong is dead. */
  readonly pongTimeoutMs?: number;
  /** A handshake not done within this is abandoned. Default 15 000. */
  readonly connectTimeoutMs?: number;
  /** After close(), how long the closing handshake may take before the socket is cut. Default 1 000. */
  readonly closeTimeoutMs?: number;
  readonly backoff?: BackoffOptions;
  /** Uniform [0, 1) for jitter; default a generator seeded per socket. */
  readonly random?: () => number;
}

export interface ManagedSocketOptions extends SocketTuning {
  /** ws:// or wss:// address, path included. Plain ws is refused unless the host is loopback. */
  readonly url: string;
  /** For logs: `price`, `user`, `orders`. */
  readonly name: string;
  readonly tokens: TokenSource;
}

export interface SocketStats {
  framesReceived: number;
  framesSent: number;
  /** Binary frames, which none of the feeds send: ignored. */
  binaryFrames: number;
  opens: number;
  /** Opens after the first. */
  reconnects: number;
  failedAttempts: number;
  pongTimeouts: number;
  handshakeRejections: number;
}

interface Connection {
  readonly ws: WebSocket;
  readonly token: string;
  readonly timers: Subscription;
  error: Error | null;
  openedAt: number | null;
  lastPong: number;
  refused401: boolean;
  pongWaiters: { resolve: () => void; reject: (err: Error) => void }[];
}

const silentLogger = (): Logger => pino({ level: 'silent' });

/**
 * One logical WebSocket that stays connected: token in the handshake, ping/pong liveness,
 * reconnect with capped exponential backoff and jitter. Consumers see text frames and the
 * connection state; what to re-send or replay after a reconnect is theirs to decide (they
 * watch `state$` for a new `connection` serial). Frames of a superseded connection are
 * dropped, so a consumer never mixes two connections' streams.
 */
export class ManagedSocket {
  readonly name: string;
  readonly url: string;
  readonly stats: SocketStats = {
    framesReceived: 0,
    framesSent: 0,
    binaryFrames: 0,
    opens: 0,
    reconnects: 0,
    failedAttempts: 0,
    pongTimeouts: 0,
    handshakeRejections: 0,
  };
  readonly state$: Observable<SocketState>;
  /** Text frames of the open connection, in order. Completes on close(). */
  readonly frames$: Observable<string>;

  readonly #tokens: TokenSource;
  readonly #scheduler: SchedulerLike;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #pingIntervalMs: number;
  readonly #pongTimeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #closeTimeoutMs: number;
  readonly #backoff: Required<BackoffOptions>;
  readonly #random: () => number;
  readonly #state: BehaviorSubject<SocketState>;
  readonly #frames = new Subject<string>();

  #conn: Connection | null = null;
  #retry: Subscription | null = null;
  /** Bumped by every attempt, so a token that arrives for an abandoned attempt is dropped. */
  #attemptSerial = 0;
  /** Consecutive failures since the last healthy connection. */
  #failures = 0;
  #connection = 0;
  #refusedToken: string | null = null;
  #started = false;
  #closed = false;
  #stateDone = false;
  #closedPromise: Promise<void> | null = null;

  constructor(options: ManagedSocketOptions) {
    assertSecureUrl(options.url);
    this.url = options.url;
    this.name = options.name;
    this.#tokens = options.tokens;
    const scheduler = options.scheduler ?? asyncScheduler;
    this.#scheduler = scheduler;
    this.#clock = options.clock ?? { now: () => scheduler.now() };
    this.#log = (options.logger ?? silentLogger()).child({ socket: options.name });
    this.#pingIntervalMs = positive('pingIntervalMs', options.pingIntervalMs ?? 10_000);
    this.#pongTimeoutMs = positive('pongTimeoutMs', options.pongTimeoutMs ?? 30_000);
    this.#connectTimeoutMs = positive('connectTimeoutMs', options.connectTimeoutMs ?? 15_000);
    this.#closeTimeoutMs = positive('closeTimeoutMs', options.closeTimeoutMs ?? 1_000);
    this.#backoff = resolveBackoff(options.backoff);
    this.#random = options.random ?? createRandom(randomInt(0, 2 ** 31 - 1)).float;
    this.#state = new BehaviorSubject<SocketState>({
      status: 'connecting',
      attempt: 0,
      lastError: null,
      since: this.#clock.now(),
      connection: 0,
      retryInMs: null,
    });
    this.state$ = this.#state.asObservable();
    this.frames$ = this.#frames.asObservable();
  }

  get state(): SocketState {
    return this.#state.getValue();
  }

  get isOpen(): boolean {
    const conn = this.#conn;
    return conn !== null && conn.openedAt !== null;
  }

  /** Begin connecting; idempotent. */
  start(): this {
    if (this.#started || this.#closed) return this;
    this.#started = true;
    this.#attempt();
    return this;
  }

  /** Send a text frame on the open connection; false (nothing sent) when there is none. */
  send(text: string): boolean {
    const conn = this.#conn;
    if (!conn || conn.openedAt === null || conn.ws.readyState !== WebSocket.OPEN) return false;
    conn.ws.send(text);
    this.stats.framesSent++;
    return true;
  }

  /** Resolves on the next pong: every frame sent before has then been read by the server. */
  roundTrip(): Promise<void> {
    const conn = this.#conn;
    if (!conn || conn.openedAt === null) return Promise.reject(new SocketClosedError(`${this.name}: not connected`));
    return new Promise((resolve, reject) => {
      conn.pongWaiters.push({ resolve, reject });
      conn.ws.ping();
    });
  }

  /** Drop the current connection (it will be re-established with backoff), e.g. after a failed replay. */
  reconnect(reason: Error): void {
    const conn = this.#conn;
    if (!conn) return;
    conn.error = reason;
    conn.ws.terminate();
  }

  /** Stop for good: no more reconnects; streams complete. Resolves once the socket is closed. */
  close(): Promise<void> {
    if (this.#closedPromise) return this.#closedPromise;
    this.#closed = true;
    this.#retry?.unsubscribe();
    this.#retry = null;
    const conn = this.#conn;
    this.#emit('closed', null);
    this.#stateDone = true;
    this.#state.complete();
    this.#frames.complete();
    if (!conn) return (this.#closedPromise = Promise.resolve());
    this.#closedPromise = new Promise<void>((resolve) => conn.ws.once('close', () => resolve()));
    if (conn.ws.readyState === WebSocket.OPEN) {
      conn.ws.close(1000, 'client closing');
      conn.timers.add(timer(this.#closeTimeoutMs, this.#scheduler).subscribe(() => conn.ws.terminate()));
    } else {
      conn.ws.terminate();
    }
    return this.#closedPromise;
  }

  #attempt(): void {
    if (this.#closed) return;
    const serial = ++this.#attemptSerial;
    this.#emit(this.#connection > 0 ? 'reconnecting' : 'connecting', null);
    // A 401 means the token was refused: ask for a fresh one, once per refusal.
    const refused = this.#refusedToken;
    this.#refusedToken = null;
    const token = refused !== null ? this.#tokens.refresh(refused) : this.#tokens.token();
    token.then(
      (t) => {
        if (serial === this.#attemptSerial && !this.#closed) this.#dial(t);
      },
      (err: unknown) => {
        if (serial !== this.#attemptSerial || this.#closed) return;
        if (refused !== null) this.#refusedToken = refused;
        this.#failed(asError(err), false);
      },
    );
  }

  #dial(token: string): void {
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url, { headers: { Authorization: token }, perMessageDeflate: false });
    } catch (err) {
      this.#failed(asError(err), false);
      return;
    }
    const conn: Connection = {
      ws,
      token,
      timers: new Subscription(),
      error: null,
      openedAt: null,
      lastPong: 0,
      refused401: false,
      pongWaiters: [],
    };
    this.#conn = conn;
    const handshake = timer(this.#connectTimeoutMs, this.#scheduler).subscribe(() => {
      conn.error ??= new SocketFailedError(`${this.name}: no handshake within ${this.#connectTimeoutMs} ms`);
      ws.terminate();
    });
    conn.timers.add(handshake);
    ws.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      this.stats.handshakeRejections++;
      conn.refused401 = status === 401;
      conn.error =
        status === 401
          ? new AuthenticationError(`${this.name}: handshake refused with HTTP 401`)
          : new SocketFailedError(`${this.name}: handshake refused with HTTP ${status}`);
      ws.terminate();
    });
    ws.on('error', (err) => {
      conn.error ??= err;
    });
    ws.on('open', () => {
      handshake.unsubscribe();
      this.#opened(conn);
    });
    ws.on('message', (data, isBinary) => this.#message(conn, data, isBinary));
    ws.on('pong', () => {
      conn.lastPong = this.#clock.now();
      const waiters = conn.pongWaiters;
      conn.pongWaiters = [];
      for (const w of waiters) w.resolve();
    });
    ws.once('close', (code, reason) => this.#closedConnection(conn, code, reason.toString('utf8')));
  }

  #opened(conn: Connection): void {
    if (conn !== this.#conn || this.#closed) return;
    const now = this.#clock.now();
    conn.openedAt = now;
    conn.lastPong = now;
    this.#connection++;
    this.stats.opens++;
    if (this.#connection > 1) this.stats.reconnects++;
    conn.timers.add(interval(this.#pingIntervalMs, this.#scheduler).subscribe(() => this.#liveness(conn)));
    this.#log.info({ url: this.url, connection: this.#connection, attempt: this.#failures + 1 }, 'socket open');
    this.#emit('open', null);
  }

  #liveness(conn: Connection): void {
    const silentMs = this.#clock.now() - conn.lastPong;
    if (silentMs >= this.#pongTimeoutMs) {
      this.stats.pongTimeouts++;
      conn.error ??= new SocketFailedError(`${this.name}: no pong for ${silentMs} ms`);
      this.#log.warn({ silentMs }, 'no pong: terminating socket');
      conn.ws.terminate();
      return;
    }
    try {
      conn.ws.ping();
    } catch (err) {
      conn.error ??= asError(err);
      conn.ws.terminate();
    }
  }

  #message(conn: Connection, data: RawData, isBinary: boolean): void {
    if (conn !== this.#conn) return;
    if (isBinary) {
      this.stats.binaryFrames++;
      return;
    }
    this.stats.framesReceived++;
    this.#frames.next(rawText(data));
  }

  #closedConnection(conn: Connection, code: number, reason: string): void {
    conn.timers.unsubscribe();
    const lost = new SocketClosedError(`${this.name}: connection closed before the pong`);
    for (const w of conn.pongWaiters) w.reject(lost);
    conn.pongWaiters = [];
    if (conn !== this.#conn) return;
    this.#conn = null;
    if (this.#closed) return;
    if (conn.refused401) this.#refusedToken = conn.token;
    const wasOpen = conn.openedAt !== null;
    const error =
      conn.error ??
      (wasOpen
        ? new SocketClosedError(`${this.name}: connection closed (code ${code}${reason ? `: ${reason}` : ''})`)
        : new SocketFailedError(`${this.name}: connection failed (code ${code})`));
    const healthy = conn.openedAt !== null && this.#clock.now() - conn.openedAt >= this.#backoff.resetAfterMs;
    this.#failed(error, healthy);
  }

  #failed(error: Error, afterHealthyConnection: boolean): void {
    this.#failures = afterHealthyConnection ? 1 : this.#failures + 1;
    if (!afterHealthyConnection) this.stats.failedAttempts++;
    const delay = backoffDelay(this.#failures, this.#backoff, this.#random);
    this.#log.warn({ err: error, retryInMs: delay, failures: this.#failures }, 'socket down; reconnecting');
    this.#emit(this.#connection > 0 ? 'reconnecting' : 'connecting', error, delay);
    this.#retry = timer(delay, this.#scheduler).subscribe(() => {
      this.#retry = null;
      this.#attempt();
    });
  }

  #emit(status: SocketStatus, error: Error | null, retryInMs: number | null = null): void {
    if (this.#stateDone) return;
    const prev = this.#state.getValue();
    this.#state.next({
      status,
      attempt: this.#failures + 1,
      lastError: error ?? prev.lastError,
      since: this.#clock.now(),
      connection: this.#connection,
      retryInMs,
    });
  }
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new SocketFailedError(String(err));
}

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value))
    throw new RangeError(`${name} must be a positive number of ms, got ${value}`);
  return value;
}
