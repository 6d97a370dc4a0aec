import pino, { type Logger } from 'pino';
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { TokenSource } from '../auth/token-source.ts';
import type { PriceClientFrame, PriceFeedEvent } from '../schemas/price-feed.ts';
import { frameForLog } from './frame-log.ts';
import { ManagedSocket, type SocketState, type SocketTuning } from './managed-socket.ts';
import { createPriceFrameParser, type PriceFrameOutcome, type PriceParseMode } from './price-parse.ts';
import { PriceSubscriptions, type PriceSelection, type PriceSubscriptionSnapshot } from './price-subscriptions.ts';
import { socketUrl } from './urls.ts';

export const PRICE_FEED_PATH = '/price-stream';

export interface PriceFeedClientOptions extends SocketTuning {
  /** The streaming base (`ExchangeUrls.streaming`); `/price-stream` is appended. */
  readonly streamingUrl: string;
  readonly tokens: TokenSource;
  /** Default `fast`; the others exist for the benchmark and for comparison in tests. */
  readonly parseMode?: PriceParseMode;
}

export interface PriceFeedStats {
  readonly frames: number;
  readonly events: number;
  /** Frames that were not JSON, not a `[type, payload]` tuple, or whose payload failed its schema. */
  readonly malformed: number;
  readonly unknownTypes: number;
  readonly reconnects: number;
}

/**
 * The price feed (`/price-stream`, feeds-and-semantics §2) as typed events. The
 * subscription is desired state: every command is applied locally and sent, and a new
 * connection (which the server starts at broadcast-all) gets the whole state again before
 * anything else. Bad frames and unknown message types are counted and logged, never fatal.
 */
export class PriceFeedClient {
  readonly socket: ManagedSocket;
  readonly events$: Observable<PriceFeedEvent>;
  readonly state$: Observable<SocketState>;

  readonly #events = new Subject<PriceFeedEvent>();
  readonly #subscriptions = new PriceSubscriptions();
  readonly #parse: (text: string) => PriceFrameOutcome;
  readonly #log: Logger;
  readonly #wiring: Subscription;
  #restoredFor = 0;
  #eventCount = 0;
  #malformed = 0;
  #unknownTypes = 0;
  readonly #unknownSeen = new Set<string>();

  constructor(options: PriceFeedClientOptions) {
    this.#log = (options.logger ?? pino({ level: 'silent' })).child({ feed: 'price' });
    this.socket = new ManagedSocket({
      ...options,
      name: 'price',
      url: socketUrl(options.streamingUrl, PRICE_FEED_PATH),
    });
    this.#parse = createPriceFrameParser(options.parseMode ?? 'fast');
    this.events$ = this.#events.asObservable();
    this.state$ = this.socket.state$;
    this.#wiring = this.socket.state$.subscribe((s) => this.#onState(s));
    this.#wiring.add(
      this.socket.frames$.subscribe({ next: (text) => this.#onFrame(text), complete: () => this.#events.complete() }),
    );
  }

  start(): this {
    this.socket.start();
    return this;
  }

  /** Narrow the feed. `replace: true` installs exactly this selection (all-empty = nothing); otherwise it adds. */
  subscribe(selection: PriceSelection, options: { readonly replace?: boolean } = {}): void {
    const frame = this.#subscriptions.subscribe(selection, options.replace ?? false);
    if (frame) this.#send(frame);
  }

  unsubscribe(selection: PriceSelection): void {
    this.#send(this.#subscriptions.unsubscribe(selection));
  }

  /** Back to every update of every market. */
  subscribeAll(): void {
    this.#send(this.#subscriptions.subscribeAll());
  }

  get subscription(): PriceSubscriptionSnapshot {
    return this.#subscriptions.snapshot();
  }

  get stats(): PriceFeedStats {
    return {
      frames: this.socket.stats.framesReceived,
      events: this.#eventCount,
      malformed: this.#malformed,
      unknownTypes: this.#unknownTypes,
      reconnects: this.socket.stats.reconnects,
    };
  }

  async close(): Promise<void> {
    await this.socket.close();
    this.#wiring.unsubscribe();
    this.#events.complete();
  }

  #onState(s: SocketState): void {
    if (s.status !== 'open' || s.connection === this.#restoredFor) return;
    // Runs inside the socket's open handler, before any frame of the new connection.
    this.#restoredFor = s.connection;
    const frames = this.#subscriptions.restoreFrames();
    for (const f of frames) this.socket.send(JSON.stringify(f));
    if (frames.length > 0)
      this.#log.info(
        { connection: s.connection, subscription: this.#subscriptions.snapshot() },
        'price feed subscription restored',
      );
  }

  /** While disconnected the command only changes the desired state; the next open sends all of it. */
  #send(frame: PriceClientFrame): void {
    if (this.socket.isOpen) this.socket.send(JSON.stringify(frame));
  }

  #onFrame(text: string): void {
    const out = this.#parse(text);
    if (out.ok) {
      this.#eventCount++;
      this.#events.next(out.event);
      return;
    }
    if (out.problem === 'unknownType') {
      this.#unknownTypes++;
      // A new message type the server started sending may be frequent: say so once per type.
      const first = !this.#unknownSeen.has(out.messageType) && this.#unknownSeen.size < 100;
      if (first) this.#unknownSeen.add(out.messageType);
      this.#log[first ? 'info' : 'debug'](
        { messageType: out.messageType, frame: frameForLog(text) },
        'price feed: unknown message type skipped',
      );
      return;
    }
    this.#malformed++;
    this.#log.warn({ reason: out.reason, frame: frameForLog(text) }, 'price feed: malformed frame skipped');
  }
}
