import { interval, type Subscription } from 'rxjs';
import type { WebSocket } from 'ws';
import type { Random } from '../../shared/random.ts';
import type { Faults, SimContext } from '../context.ts';

export type FeedKind = 'price' | 'user' | 'orders';

/** The server pings every connection this often (feeds-and-semantics §1)… */
export const PING_INTERVAL_MS = 10_000;
/**
 * …and terminates one that showed no sign of life (pong, ping or frame) for this long,
 * counted only at ticks the peer had a chance to answer (see `#tick`). Both are wall time:
 * on a sped-up clock they are scaled by its speed, since a peer answers a ping in wall time
 * and at 60× an unscaled 30 s would be half a wall second, which a busy machine misses.
 */
export const PONG_TIMEOUT_MS = 30_000;
/** A subscriber this far behind is not reading: cut it off rather than buffer without bound. */
export const MAX_BUFFERED_BYTES = 32 << 20;

const OPEN = 1;

/** One socket of one of the three paths. */
export class FeedConnection {
  lastSeen: number;
  /** Writes held until the end of the current synchronous work (see FeedHub). */
  corked = false;

  constructor(
    readonly ws: WebSocket,
    readonly kind: FeedKind,
    readonly userId: string,
    now: number,
  ) {
    this.lastSeen = now;
  }

  get isOpen(): boolean {
    return this.ws.readyState === OPEN;
  }
}

/**
 * Every socket connection of the simulator: liveness (server pings on the context's
 * scheduler and drops silent peers), the socket faults (periodic drops, malformed frames)
 * and a guarded send. Timers run on `ctx.time.scheduler`, so manual time drives them too.
 */
export class FeedHub {
  readonly #ctx: SimContext;
  readonly #conns = new Set<FeedConnection>();
  #ping: Subscription | null = null;
  #drop: Subscription | null = null;
  #dropEveryMs = 0;
  #random: Random | null = null;
  #closed = false;
  #tickedThisTurn = false;
  #corked: FeedConnection[] = [];

  constructor(ctx: SimContext) {
    this.#ctx = ctx;
    ctx.hooks.onFaultsChanged.push((faults) => this.#applyFaults(faults));
    this.#applyFaults(ctx.faults);
  }

  get size(): number {
    return this.#conns.size;
  }

  /** Track a new socket; `onClose` runs once when it goes away, whoever closed it. */
  add(ws: WebSocket, kind: FeedKind, userId: string, onClose?: () => void): FeedConnection {
    const conn = new FeedConnection(ws, kind, userId, this.#ctx.time.clock.now());
    if (this.#closed) {
      ws.terminate();
      return conn;
    }
    this.#conns.add(conn);
    const alive = () => {
      conn.lastSeen = this.#ctx.time.clock.now();
    };
    ws.on('pong', alive);
    ws.on('ping', alive);
    ws.on('message', alive);
    ws.on('error', (err) => this.#ctx.log.debug({ err, kind, userId }, 'socket error'));
    ws.once('close', () => {
      this.#conns.delete(conn);
      if (this.#conns.size === 0) this.#stopPing();
      onClose?.();
    });
    this.#startPing();
    return conn;
  }

  /** Send a text frame unless the socket is gone or hopelessly behind. */
  send(conn: FeedConnection, data: string | Buffer): void {
    const ws = conn.ws;
    if (ws.readyState !== OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.#ctx.log.warn(
        { kind: conn.kind, userId: conn.userId, buffered: ws.bufferedAmount },
        'slow socket consumer terminated',
      );
      ws.terminate();
      return;
    }
    this.#cork(conn);
    ws.send(data, { binary: false });
  }

  /**
   * Hold a socket's writes until the current synchronous work is done, so a burst of
   * updates (one engine call, or many in one tick) leaves as one write per socket instead
   * of one per frame. ws corks around each frame itself; corks nest.
   */
  #cork(conn: FeedConnection): void {
    if (conn.corked) return;
    const socket = (conn.ws as unknown as { _socket?: { cork?: () => void; uncork?: () => void } })._socket;
    if (!socket || typeof socket.cork !== 'function' || typeof socket.uncork !== 'function') return;
    socket.cork();
    conn.corked = true;
    this.#corked.push(conn);
    if (this.#corked.length === 1) queueMicrotask(this.#uncorkAll);
  }

  readonly #uncorkAll = (): void => {
    const list = this.#corked;
    this.#corked = [];
    for (const c of list) {
      c.corked = false;
      (c.ws as unknown as { _socket?: { uncork?: () => void } })._socket?.uncork?.();
    }
  };

  /** Whether the next outgoing feed frame should be replaced by a malformed one (fault). */
  corruptNext(): boolean {
    const rate = this.#ctx.faults.malformedFeedRate;
    if (!(rate > 0)) return false;
    // A stream of its own, forked on first use, so the fault does not shift other draws.
    this.#random ??= this.#ctx.random.fork();
    const corrupt = this.#random.chance(rate);
    if (corrupt) this.#ctx.injected.malformedFrames++;
    return corrupt;
  }

  /** Terminate every connection now (the socket-drop fault; also on close). */
  dropAll(reason: string): void {
    if (this.#conns.size > 0) this.#ctx.log.info({ count: this.#conns.size, reason }, 'terminating socket connections');
    for (const c of [...this.#conns]) c.ws.terminate();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#drop?.unsubscribe();
    this.#drop = null;
    this.#stopPing();
    this.dropAll('simulator closing');
    this.#conns.clear();
  }

  #startPing(): void {
    if (this.#ping || this.#closed) return;
    this.#ping = interval(PING_INTERVAL_MS * this.#wallScale, this.#ctx.time.scheduler).subscribe(() => this.#tick());
  }

  /** Exchange ms per wall ms of the simulator's clock (see PONG_TIMEOUT_MS). */
  get #wallScale(): number {
    return this.#ctx.time.speed ?? 1;
  }

  #stopPing(): void {
    this.#ping?.unsubscribe();
    this.#ping = null;
  }

  #tick(): void {
    // A manual clock that jumps runs several ticks in one synchronous turn: the peers had no
    // chance to answer the previous ping, so only the first tick of a turn counts.
    if (this.#tickedThisTurn) return;
    this.#tickedThisTurn = true;
    queueMicrotask(() => {
      this.#tickedThisTurn = false;
    });
    const now = this.#ctx.time.clock.now();
    for (const c of [...this.#conns]) {
      if (now - c.lastSeen >= PONG_TIMEOUT_MS * this.#wallScale) {
        this.#ctx.log.info(
          { kind: c.kind, userId: c.userId, silentMs: now - c.lastSeen },
          'no pong: terminating socket',
        );
        c.ws.terminate();
        continue;
      }
      if (c.isOpen) {
        try {
          c.ws.ping();
        } catch (err) {
          this.#ctx.log.debug({ err }, 'ping failed');
        }
      }
    }
  }

  #applyFaults(faults: Faults): void {
    const every =
      faults.dropSocketsEveryMs > 0 && Number.isFinite(faults.dropSocketsEveryMs) ? faults.dropSocketsEveryMs : 0;
    if (every === this.#dropEveryMs || this.#closed) return;
    this.#drop?.unsubscribe();
    this.#drop = null;
    this.#dropEveryMs = every;
    if (every > 0)
      this.#drop = interval(every, this.#ctx.time.scheduler).subscribe(() => {
        this.#ctx.injected.socketDrops++;
        this.#ctx.injected.socketsDropped += this.#conns.size;
        this.dropAll('fault: dropSocketsEveryMs');
      });
  }
}

/** A frame that is not valid JSON: the message cut in half. */
export function malformedFrame(text: string): string {
  return text.slice(0, Math.max(1, text.length >> 1));
}
