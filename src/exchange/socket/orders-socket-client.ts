import pino, { type Logger } from 'pino';
import {
  asyncScheduler,
  first,
  firstValueFrom,
  timeout,
  type Observable,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { TokenSource } from '../auth/token-source.ts';
import {
  MalformedMessageError,
  PlaceOutcomeUnknownError,
  SocketClosedError,
  SocketFailedError,
  SocketRequestError,
  SocketRequestTimeoutError,
} from '../errors.ts';
import { cancelEntryOf, placeEntryOf } from '../orders/normalise.ts';
import type { CancelEntry, OrderGateway, PlaceEntry, PlaceOptions, PlaceOrderInput } from '../orders/types.ts';
import { randomRunId, UserReferences } from '../orders/user-reference.ts';
import { CancelReplyData, HeartbeatAck, OrdersReply, PlaceReplyData, replyPayload } from '../schemas/orders-socket.ts';
import { frameForLog, valueForLog } from './frame-log.ts';
import { ManagedSocket, type SocketState, type SocketTuning } from './managed-socket.ts';
import { PendingRequests, RequestNotSentError } from './pending-requests.ts';
import { socketUrl } from './urls.ts';

export const ORDERS_SOCKET_PATH = '/orders/ws';

/**
 * Finds out what became of a place whose answer was lost (e.g. lookups by userReference
 * over REST). Gets the orders as sent, every one with its userReference.
 */
export type RecoverPlace = (orders: readonly PlaceOrderInput[], cause: Error) => Promise<PlaceEntry[]>;

export interface OrdersSocketClientOptions extends SocketTuning {
  /** The orders base (`ExchangeUrls.orders`); `/orders/ws` is appended. */
  readonly ordersUrl: string;
  readonly tokens: TokenSource;
  /** Fills in missing userReferences; share the REST gateway's so references stay unique per run. */
  readonly references?: UserReferences;
  readonly recoverPlace?: RecoverPlace;
  /** Per-request deadline, ms; also how long a request waits for the socket to open. Default 10 000. */
  readonly requestTimeoutMs?: number;
}

/** Narrows cancelAllByGame (feeds §6). */
export interface CancelAllByGameFilter {
  readonly type?: PlaceOrderInput['type'];
  readonly side?: string;
  readonly market?: string;
}

export interface OrdersSocketStats {
  readonly requests: number;
  readonly timeouts: number;
  /** Requests failed because the connection went away before their answer. */
  readonly lostToClose: number;
  /** Answers for requests that had already timed out. */
  readonly lateAnswers: number;
  readonly malformed: number;
  readonly reconnects: number;
}

/**
 * The orders socket (`/orders/ws`, feeds-and-semantics §6) as an OrderGateway. Requests are
 * `[type, {requestID, …}]`, matched to answers by requestID, each with a deadline; a lost
 * connection fails what is pending with SocketClosedError. A place is never sent twice:
 * when its answer is lost the outcome is recovered through `recoverPlace` (by the
 * userReference every order is given) or reported as PlaceOutcomeUnknownError.
 */
export class OrdersSocketClient implements OrderGateway {
  readonly socket: ManagedSocket;
  readonly state$: Observable<SocketState>;

  readonly #pending: PendingRequests;
  readonly #references: UserReferences;
  readonly #recoverPlace: RecoverPlace | undefined;
  readonly #timeoutMs: number;
  readonly #scheduler: SchedulerLike;
  readonly #log: Logger;
  readonly #wiring: Subscription;
  #seq = 0;
  readonly #counts = { requests: 0, timeouts: 0, lostToClose: 0, lateAnswers: 0, malformed: 0 };

  constructor(options: OrdersSocketClientOptions) {
    this.#scheduler = options.scheduler ?? asyncScheduler;
    this.#log = (options.logger ?? pino({ level: 'silent' })).child({ socket: 'orders' });
    this.#references = options.references ?? new UserReferences(randomRunId(Math.random));
    this.#recoverPlace = options.recoverPlace;
    this.#timeoutMs = options.requestTimeoutMs ?? 10_000;
    this.#pending = new PendingRequests(this.#scheduler);
    this.socket = new ManagedSocket({
      ...options,
      name: 'orders',
      url: socketUrl(options.ordersUrl, ORDERS_SOCKET_PATH),
    });
    this.state$ = this.socket.state$;
    this.#wiring = this.socket.state$.subscribe((s) => {
      if (s.status === 'open' || this.#pending.size === 0) return;
      this.#counts.lostToClose += this.#pending.failAll(
        (type) =>
          new SocketClosedError(
            `${type}: the orders socket closed before the answer (${s.lastError?.message ?? s.status})`,
          ),
      );
    });
    this.#wiring.add(this.socket.frames$.subscribe((text) => this.#onFrame(text)));
  }

  get stats(): OrdersSocketStats {
    return { ...this.#counts, reconnects: this.socket.stats.reconnects };
  }

  start(): this {
    this.socket.start();
    return this;
  }

  async close(): Promise<void> {
    await this.socket.close();
    this.#pending.failAll((type) => new SocketClosedError(`${type}: the orders client was closed`));
    this.#wiring.unsubscribe();
  }

  /**
   * placeV3, positional with `orders`. Throws SocketRequestError when the whole request was
   * refused and RequestNotSentError when it never left; a lost answer goes to
   * `recoverPlace`, or throws PlaceOutcomeUnknownError with the references.
   */
  async place(orders: readonly PlaceOrderInput[], options: PlaceOptions = {}): Promise<PlaceEntry[]> {
    if (orders.length === 0) return [];
    const sent = this.#references.ensure(orders);
    let data: unknown;
    try {
      data = await this.#request('placeV3', { orders: sent.map(wireOrder) }, options.signal);
    } catch (err) {
      if (err instanceof RequestNotSentError || err instanceof SocketRequestError) throw err;
      return this.#outcomeUnknown(sent, asError(err));
    }
    const parsed = PlaceReplyData.safeParse(data);
    if (!parsed.success || parsed.data.length !== sent.length) {
      const reason = parsed.success
        ? `${parsed.data.length} results for ${sent.length} orders`
        : (parsed.error.issues[0]?.message ?? 'schema mismatch');
      return this.#outcomeUnknown(sent, this.#malformedAnswer('placeV3', reason, data));
    }
    return parsed.data.map((wire, i) => placeEntryOf(wire, sent[i]!.userReference ?? null));
  }

  /** cancelMultiple, positional with `orderIDs`; one malformed id fails the whole request (SocketRequestError). */
  async cancel(orderIDs: readonly string[]): Promise<CancelEntry[]> {
    if (orderIDs.length === 0) return [];
    const data = await this.#request('cancelMultiple', { orderIDs: [...orderIDs] });
    return this.#cancelEntries('cancelMultiple', data, orderIDs);
  }

  /** cancelById: a failure ("order already cancelled", "order not found", …) is a SocketRequestError. */
  async cancelById(orderID: string): Promise<CancelEntry> {
    const data = await this.#request('cancelById', { orderId: orderID });
    const [entry] = this.#cancelEntries('cancelById', data, [orderID]);
    return entry!;
  }

  async cancelAllByGame(gameID: string, filter: CancelAllByGameFilter = {}): Promise<CancelEntry[]> {
    return this.#cancelEntries(
      'cancelAllByGame',
      await this.#request('cancelAllByGame', { gameId: gameID, ...filter }),
      null,
    );
  }

  async cancelAll(): Promise<CancelEntry[]> {
    return this.#cancelEntries('cancelAll', await this.#request('cancelAll', {}), null);
  }

  /** OrderGateway: cancel every open order of the account in one request (cancelAll). */
  cancelAllOfAccount(): Promise<CancelEntry[]> {
    return this.cancelAll();
  }

  /** OrderGateway: cancel every open order of the account on one game in one request (cancelAllByGame). */
  cancelAllOfGame(gameID: string): Promise<CancelEntry[]> {
    return this.cancelAllByGame(gameID);
  }

  /** Arm (or re-arm) the dead man's switch: every open order is cancelled unless another heartbeat follows within `timeoutSec`. */
  async heartbeat(timeoutSec: number): Promise<void> {
    await this.heartbeatAck(timeoutSec);
  }

  /** heartbeat, with the server's acknowledgement (server time, timeout it armed). */
  async heartbeatAck(timeoutSec: number): Promise<HeartbeatAck> {
    const data = await this.#request('heartbeat', { requestTimeout: timeoutSec });
    const parsed = HeartbeatAck.safeParse(data);
    if (!parsed.success)
      throw this.#malformedAnswer('heartbeat', parsed.error.issues[0]?.message ?? 'schema mismatch', data);
    return parsed.data;
  }

  async #request(type: string, payload: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    await this.#whenOpen(type);
    // Waiting for the socket to open may have taken a while: a withdrawn request stays unsent.
    if (signal?.aborted) throw new RequestNotSentError(`${type}: withdrawn before it was sent`);
    const requestID = `r${++this.#seq}`;
    this.#counts.requests++;
    const answer = this.#pending.add(requestID, type, this.#timeoutMs);
    if (!this.socket.send(JSON.stringify([type, { requestID, ...payload }]))) {
      this.#pending.fail(
        requestID,
        new RequestNotSentError(`${type}: the orders socket closed before the request was sent`),
      );
    }
    return answer.catch((err: unknown) => {
      if (err instanceof SocketRequestTimeoutError) this.#counts.timeouts++;
      throw err;
    });
  }

  async #whenOpen(type: string): Promise<void> {
    if (this.socket.isOpen) return;
    try {
      await firstValueFrom(
        this.socket.state$.pipe(
          first((s) => s.status === 'open'),
          timeout({ first: this.#timeoutMs, scheduler: this.#scheduler }),
        ),
      );
    } catch {
      throw new RequestNotSentError(
        `${type}: the orders socket was not open within ${this.#timeoutMs} ms; request not sent`,
      );
    }
  }

  #onFrame(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.#counts.malformed++;
      this.#log.warn({ frame: frameForLog(text) }, 'orders socket: unparseable frame skipped');
      return;
    }
    const reply = OrdersReply.safeParse(json);
    if (!reply.success || reply.data.requestID == null) {
      this.#counts.malformed++;
      this.#log.warn({ frame: frameForLog(text) }, 'orders socket: frame without a requestID skipped');
      return;
    }
    if (!this.#pending.answer(String(reply.data.requestID), replyPayload(reply.data))) {
      this.#counts.lateAnswers++;
      this.#log.warn(
        { requestID: reply.data.requestID, frame: frameForLog(text) },
        'orders socket: answer for no pending request (late, after its timeout?)',
      );
    }
  }

  #cancelEntries(type: string, data: unknown, requested: readonly string[] | null): CancelEntry[] {
    const parsed = CancelReplyData.safeParse(data);
    if (!parsed.success) throw this.#malformedAnswer(type, parsed.error.issues[0]?.message ?? 'schema mismatch', data);
    if (requested && parsed.data.length !== requested.length)
      throw this.#malformedAnswer(type, `${parsed.data.length} results for ${requested.length} ids`, data);
    return parsed.data.map((wire, i) => cancelEntryOf(wire, requested?.[i] ?? null));
  }

  #malformedAnswer(type: string, reason: string, data: unknown): MalformedMessageError {
    this.#counts.malformed++;
    const err = new MalformedMessageError(`orders socket ${type}`, reason, valueForLog(data));
    this.#log.warn({ err }, 'orders socket: answer does not match the contract');
    return err;
  }

  async #outcomeUnknown(orders: readonly PlaceOrderInput[], cause: Error): Promise<PlaceEntry[]> {
    const references = orders.map((o) => o.userReference!);
    this.#log.warn(
      { err: cause, userReferences: references },
      'placeV3 answer lost: not resending; recovering by userReference',
    );
    if (this.#recoverPlace) return this.#recoverPlace(orders, cause);
    throw new PlaceOutcomeUnknownError(references, cause);
  }
}

/** The socket spells the game field `gameId`. */
function wireOrder(o: PlaceOrderInput): Record<string, unknown> {
  const { gameID, ...rest } = o;
  return { gameId: gameID, ...rest };
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new SocketFailedError(String(err));
}
