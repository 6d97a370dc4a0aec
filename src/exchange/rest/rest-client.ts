import type { Logger } from 'pino';
import type { z } from 'zod';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { systemClock, type Clock } from '../../shared/clock.ts';
import { silentLogger } from '../../shared/logger.ts';
import { createRandom, type Random } from '../../shared/random.ts';
import { AuthSession } from '../auth/session.ts';
import type { CredentialsProvider } from '../auth/credentials.ts';
import type { TokenStore } from '../auth/token-store.ts';
import {
  AccountBlockedError,
  AuthenticationError,
  ChallengeRequiredError,
  CredentialsError,
  HttpStatusError,
  RateLimitedError,
  RequestAbortedError,
  SchemaMismatchError,
} from '../errors.ts';
import { LinesmithError } from '../../shared/errors.ts';
import { HttpTransport } from '../http/transport.ts';
import { urlsFromBase, validateUrls, type ExchangeUrls } from '../http/urls.ts';
import { cancelEntryOf, placeEntryOf } from '../orders/normalise.ts';
import type {
  CancelEntry,
  EditEntry as GatewayEditEntry,
  EditOrderInput as GatewayEditInput,
  OrderGateway,
  PlaceEntry,
  PlaceOptions,
  PlaceOrderInput,
} from '../orders/types.ts';
import { randomRunId, UserReferences } from '../orders/user-reference.ts';
import type { GradedSinceResponse, GradedWindowResponse, MatchedBet } from '../schemas/bets.ts';
import type { Game } from '../schemas/game.ts';
import type { OrderbookGame, OrderbookV1Game, ParticipantListEntry } from '../schemas/exchange.ts';
import type { LookupOrder, UnmatchedOrder } from '../schemas/orders.ts';
import type { HeartbeatAck, Me } from '../schemas/user.ts';
import type { BetLookup, CombinedWagers, OrdersForGame } from '../schemas/lookups.ts';
import type { AveragePriceGame, MatchedVolume, SingleOrderbook } from '../schemas/market-reads.ts';
import type { WireCancelResult } from '../schemas/orders.ts';
import { cancelEntriesOf, gatewayEditOf, restEditOf } from './gateway-capabilities.ts';
import { editBodyOf, editedEntryOf, type EditEntry, type EditOrderInput, type ScopedCancel } from './edit-entry.ts';
import { DEFAULT_READ_BACKOFF, type BackoffPolicy } from './backoff.ts';
import type { Endpoint } from './endpoint.ts';
import { RestCaller, type CallStats } from './caller.ts';
import { ENDPOINTS } from './endpoints.ts';
import { GradedWalker, type GradedWalkerOptions } from './graded-walker.ts';
import { readGradedRange } from './graded-window.ts';
import { recoverPlace } from './place-recovery.ts';
import { RequestBudget } from './request-budget.ts';

export interface RestClientOptions {
  /** One base for REST and both socket hosts (the simulator), or… */
  readonly baseUrl?: string;
  /** …each base on its own. */
  readonly urls?: ExchangeUrls;
  readonly credentials: CredentialsProvider;
  /** Persist the token (and every rotation) here; default: memory only. */
  readonly tokenStore?: TokenStore | null;
  /** Share one budget between every client of the same exchange in a process. */
  readonly budget?: RequestBudget;
  /** Fraction of the exchange's limits to use when the client makes its own budget (default 0.9). */
  readonly headroom?: number;
  readonly clock?: Clock;
  readonly scheduler?: SchedulerLike;
  readonly random?: Random;
  readonly logger?: Logger;
  /** Client deadline per request, ms (default 20 000, above the server's 15 s). */
  readonly timeoutMs?: number;
  readonly connections?: number;
  readonly backoff?: Partial<BackoffPolicy>;
  readonly max429Waits?: number;
  readonly maxRetryAfterMs?: number;
  /** Orders per place request; the contract gives no maximum (default 100). */
  readonly maxPlaceBatch?: number;
  /** Ids per cancelMultiple request (default 100). */
  readonly maxCancelBatch?: number;
  /** See PlaceRecoveryOptions.graceMs (default 11 000). */
  readonly placeRecoveryGraceMs?: number;
  /** Prefix of generated userReferences; random by default. */
  readonly runId?: string;
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The request was refused before anything ran, or never sent: nothing to look up. */
function refusedWhole(err: unknown): err is LinesmithError {
  return (
    err instanceof HttpStatusError ||
    err instanceof AuthenticationError ||
    err instanceof CredentialsError ||
    err instanceof RateLimitedError ||
    err instanceof RequestAbortedError
  );
}

function failedWhole(chunk: readonly { userReference: string }[], error: LinesmithError): PlaceEntry[] {
  return chunk.map((o) => ({ status: 'failed', userReference: o.userReference, error }));
}

/**
 * The typed REST client for the whole contract (exchange-api §4, feeds-and-semantics §6–§7)
 * over one keep-alive undici pool. Every answer is validated; failures are typed errors
 * (src/exchange/errors.ts). Place never resends blindly: see `place`.
 */
export class ExchangeRestClient implements OrderGateway {
  readonly urls: ExchangeUrls;
  readonly session: AuthSession;
  readonly budget: RequestBudget;
  readonly #transport: HttpTransport;
  readonly #caller: RestCaller;
  readonly #refs: UserReferences;
  readonly #log: Logger;
  readonly #scheduler: SchedulerLike;
  readonly #maxPlace: number;
  readonly #maxCancel: number;
  readonly #graceMs: number;
  readonly #credentials: CredentialsProvider;

  constructor(options: RestClientOptions) {
    if (!options.urls && !options.baseUrl) throw new TypeError('baseUrl or urls is required');
    this.urls = options.urls ? validateUrls(options.urls) : urlsFromBase(options.baseUrl!);
    const clock = options.clock ?? systemClock;
    this.#scheduler = options.scheduler ?? asyncScheduler;
    const random = options.random ?? createRandom(Math.floor(Math.random() * 2 ** 31));
    this.#log = options.logger ?? silentLogger();
    this.#credentials = options.credentials;
    this.#transport = new HttpTransport(this.urls.rest, {
      timeoutMs: options.timeoutMs ?? 20_000,
      connections: options.connections ?? 4,
    });
    this.budget =
      options.budget ?? new RequestBudget({ headroom: options.headroom ?? 0.9, clock, scheduler: this.#scheduler });
    this.session = new AuthSession({
      login: () => this.#login(),
      store: options.tokenStore ?? null,
      logger: this.#log,
    });
    this.#caller = new RestCaller({
      transport: this.#transport,
      session: this.session,
      budget: this.budget,
      clock,
      scheduler: this.#scheduler,
      random,
      logger: this.#log,
      policy: {
        backoff: { ...DEFAULT_READ_BACKOFF, ...options.backoff },
        max429Waits: options.max429Waits ?? 5,
        maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
      },
    });
    this.#refs = new UserReferences(options.runId ?? randomRunId(() => random.float()));
    this.#maxPlace = options.maxPlaceBatch ?? 100;
    this.#maxCancel = options.maxCancelBatch ?? 100;
    this.#graceMs = options.placeRecoveryGraceMs ?? 11_000;
  }

  /** The generator of userReferences; share it with the orders socket so references stay unique per run. */
  get references(): UserReferences {
    return this.#refs;
  }

  get stats(): Readonly<CallStats> {
    return this.#caller.stats;
  }

  // ---- session (exchange-api §4.1–4.3, §5) ----

  /** Log in now; throws ChallengeRequiredError, AccountBlockedError or AuthenticationError without retrying. */
  async login(): Promise<{ id: string; username: string }> {
    await this.session.login();
    return this.session.user!;
  }

  async #login(): Promise<{ token: string; userId: string; username: string }> {
    const creds = await this.#credentials();
    try {
      const res = await this.#caller.call(ENDPOINTS.login, {
        body: { username: creds.username, password: creds.password },
      });
      return { token: res.user.auth, userId: res.user.id, username: res.user.username };
    } catch (err) {
      if (err instanceof HttpStatusError) {
        if (err.status === 428) throw new ChallengeRequiredError();
        if (err.status === 403) throw new AccountBlockedError(err.serverMessage);
        if (err.status === 401)
          throw new AuthenticationError(
            `login: the exchange refused the username or password (401). Check the credentials; not retried.`,
          );
        if (err.status === 400)
          throw new CredentialsError(`login: the exchange wants a username and a password (400: ${err.serverMessage})`);
      }
      throw err;
    }
  }

  /** Invalidate the current token on the server (other tokens of the account stay valid). */
  async logout(): Promise<void> {
    if (!this.session.hasToken) return;
    await this.#caller.call(ENDPOINTS.logout);
    this.session.clear();
  }

  async getMe(): Promise<Me> {
    return (await this.#caller.call(ENDPOINTS.getMe)).user;
  }

  // ---- market data ----

  async getOrderbook(filter: { league: string } | { gameID: string }): Promise<OrderbookGame[]> {
    return (await this.#caller.call(ENDPOINTS.getOrderbook, { query: filter })).games;
  }

  /** Deprecated v1 (exchange-api §4.4); prefer getOrderbook. */
  async getOrderbookV1(leagueRequested: string): Promise<OrderbookV1Game[]> {
    return (await this.#caller.call(ENDPOINTS.getOrderbookV1, { body: { leagueRequested } })).games;
  }

  /** `league` may be `upcoming` for every league's upcoming games. */
  async getGames(league?: string): Promise<Game[]> {
    return (await this.#caller.call(ENDPOINTS.getGames, { query: { league } })).games;
  }

  async getParticipants(active?: boolean): Promise<ParticipantListEntry[]> {
    return (await this.#caller.call(ENDPOINTS.getParticipants, { query: { active } })).participants;
  }

  async getLeagues(sport?: string): Promise<string[]> {
    return (await this.#caller.call(ENDPOINTS.getLeagues, { query: { sport } })).availableLeagues;
  }

  // ---- orders ----

  /**
   * Place orders in batches of `maxPlaceBatch`, results positional with the input. Every
   * order gets a userReference if it has none. When a request's answer is lost (timeout,
   * 503, broken connection, unreadable body) the orders are looked up by userReference
   * instead of being sent again; see PlaceEntry for what each status means. Never throws
   * for one failed chunk: the other chunks' outcomes would be lost with it.
   * A 429 is not waited out: those orders come back `failed` with RateLimitedError at once,
   * and so do the chunks after it (they would leave only after Retry-After, priced for
   * now). `options.signal` withdraws what has not been sent yet (see PlaceOptions).
   */
  async place(orders: readonly PlaceOrderInput[], options: PlaceOptions = {}): Promise<PlaceEntry[]> {
    const ensured = this.#refs.ensure(orders) as (PlaceOrderInput & { userReference: string })[];
    const out: PlaceEntry[] = [];
    let limited: RateLimitedError | null = null;
    for (const chunk of chunks(ensured, this.#maxPlace)) {
      const entries: PlaceEntry[] =
        limited === null ? await this.#placeChunk(chunk, options.signal) : failedWhole(chunk, limited);
      const first = entries[0];
      if (first?.status === 'failed' && first.error instanceof RateLimitedError) limited = first.error;
      out.push(...entries);
    }
    return out;
  }

  async #placeChunk(
    chunk: (PlaceOrderInput & { userReference: string })[],
    signal: AbortSignal | undefined,
  ): Promise<PlaceEntry[]> {
    try {
      const res = await this.#caller.call(ENDPOINTS.place, { body: { orders: chunk }, ...(signal ? { signal } : {}) });
      if (res.createdSessions.length !== chunk.length) {
        throw new SchemaMismatchError('place', [
          { path: 'data.createdSessions', message: `${res.createdSessions.length} entries for ${chunk.length} orders` },
        ]);
      }
      return res.createdSessions.map((w, i) => placeEntryOf(w, chunk[i]!.userReference));
    } catch (err) {
      if (refusedWhole(err)) return failedWhole(chunk, err);
      return this.recoverPlace(chunk, err);
    }
  }

  /**
   * What became of orders whose place answer was lost (over REST or the orders socket), by
   * their userReferences: see recoverPlace in place-recovery.ts.
   */
  recoverPlace(orders: readonly PlaceOrderInput[], cause: unknown): Promise<PlaceEntry[]> {
    const withRefs = orders.map((o) => {
      if (!o.userReference) throw new TypeError('recoverPlace needs every order to carry its userReference');
      return o as PlaceOrderInput & { userReference: string };
    });
    return recoverPlace(withRefs, cause, {
      lookup: {
        getUnmatched: () => this.getUnmatched(),
        getMatchedBets: () => this.getMatchedBets(),
        getBetByUserReference: (ref, gameID) => this.getBetByUserReference(ref, gameID),
      },
      scheduler: this.#scheduler,
      logger: this.#log,
      graceMs: this.#graceMs,
    });
  }

  /** Cancel one order; refusals (400 bad id, 403 not yours, 409 not cancellable) are `ok: false` entries. */
  async cancelOne(orderID: string): Promise<CancelEntry> {
    try {
      return cancelEntryOf(await this.#caller.call(ENDPOINTS.cancel, { body: { sessionID: orderID } }), orderID);
    } catch (err) {
      if (err instanceof HttpStatusError) return { ok: false, orderID, reason: `${err.status}: ${err.serverMessage}` };
      throw err;
    }
  }

  /**
   * Cancel many, in batches of `maxCancelBatch`, positional with the input. A malformed id
   * fails locally (the exchange would refuse the whole batch for it). A batch whose request
   * failed in flight gives `outcomeUnknown` entries rather than hiding the other batches.
   */
  async cancel(orderIDs: readonly string[]): Promise<CancelEntry[]> {
    const out: (CancelEntry | null)[] = orderIDs.map((id) =>
      OBJECT_ID.test(id) ? null : { ok: false, orderID: id, reason: 'invalid order id' },
    );
    const valid = orderIDs.map((id, i) => ({ id, i })).filter(({ i }) => out[i] === null);
    for (const chunk of chunks(valid, this.#maxCancel)) {
      try {
        const res = await this.#caller.call(ENDPOINTS.cancelMultiple, { body: { sessionIDs: chunk.map((c) => c.id) } });
        if (res.length !== chunk.length)
          throw new SchemaMismatchError('cancelMultiple', [
            { path: 'data', message: `${res.length} results for ${chunk.length} ids` },
          ]);
        chunk.forEach((c, k) => (out[c.i] = cancelEntryOf(res[k]!, c.id)));
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        const unknown = !refusedWhole(err);
        for (const c of chunk)
          out[c.i] = unknown
            ? { ok: false, orderID: c.id, reason, outcomeUnknown: true }
            : { ok: false, orderID: c.id, reason };
      }
    }
    return out as CancelEntry[];
  }

  /**
   * Edit one order (feeds-and-semantics §9): new odds and/or volume (null or left out:
   * unchanged), order type, userReference, expiry. An unfilled order is amended under its
   * id; a partly filled one is cancelled and replaced by a new order for the whole new
   * volume. Sent once, like a place: a refusal, a 429 or a lost answer comes back as an
   * entry, never resent. `v4` (the default) names the errorType of a refusal.
   */
  async editOrder(edit: EditOrderInput, options: { readonly version?: 'v1' | 'v4' } = {}): Promise<EditEntry> {
    const ep = options.version === 'v1' ? ENDPOINTS.editOrder : ENDPOINTS.editOrderV4;
    try {
      return editedEntryOf(edit.orderID, await this.#caller.call(ep, { body: editBodyOf(edit) }));
    } catch (err) {
      if (err instanceof HttpStatusError)
        return {
          status: 'refused',
          orderID: edit.orderID,
          httpStatus: err.status,
          reason: err.serverMessage,
          errorType: err.errorType,
        };
      return {
        status: 'failed',
        orderID: edit.orderID,
        reason: err instanceof Error ? err.message : String(err),
        outcomeUnknown: !refusedWhole(err),
      };
    }
  }

  /**
   * OrderGateway.edit: one edit as the order manager asks it (the whole new volume), sent
   * once through editOrder. It cannot be withdrawn while it waits for the request budget
   * (it fails unsent after PLACE_MAX_QUEUE_MS, as a place does).
   */
  async edit(order: GatewayEditInput): Promise<GatewayEditEntry> {
    return gatewayEditOf(await this.editOrder(restEditOf(order)));
  }

  /** OrderGateway.cancelAllOfAccount: cancelAllOrders; a failed request throws. */
  async cancelAllOfAccount(): Promise<CancelEntry[]> {
    return cancelEntriesOf(await this.cancelAllOrders(), 'cancelAllOrders');
  }

  /** OrderGateway.cancelAllOfGame: cancelAllOrdersForGame; a failed request throws. */
  async cancelAllOfGame(gameID: string): Promise<CancelEntry[]> {
    return cancelEntriesOf(await this.cancelAllOrdersForGame(gameID), 'cancelAllOrdersForGame');
  }

  /** Cancel every open order of the account, on every game. */
  cancelAllOrders(): Promise<ScopedCancel> {
    return this.#cancelScope(ENDPOINTS.cancelAllOrders, {});
  }

  /** Cancel every open order of one game, or only those of one market type. */
  cancelAllOrdersForGame(gameID: string, type?: 'moneyline' | 'spread' | 'total'): Promise<ScopedCancel> {
    return this.#cancelScope(ENDPOINTS.cancelAllOrdersForGame, { gameID, ...(type !== undefined ? { type } : {}) });
  }

  /** Cancel the open orders of one game that carry one of these userReferences. */
  cancelByReference(gameID: string, userReferences: readonly string[]): Promise<ScopedCancel> {
    return this.#cancelScope(ENDPOINTS.cancelByReference, { gameID, userReferences });
  }

  async #cancelScope(
    ep: Endpoint<z.ZodType<WireCancelResult[]>>,
    body: Record<string, unknown>,
  ): Promise<ScopedCancel> {
    try {
      const res = await this.#caller.call(ep, { body });
      return { ok: true, entries: res.map((r) => cancelEntryOf(r, null)) };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return {
        ok: false,
        reason,
        httpStatus: err instanceof HttpStatusError ? err.status : null,
        outcomeUnknown: !refusedWhole(err),
      };
    }
  }

  /**
   * Ask the exchange to cancel every open order of a league. It acknowledges at once and
   * cancels in the background: read the open orders to see them gone.
   */
  async cancelAllForLeague(
    league: string,
  ): Promise<{ readonly ok: true; readonly ordersReceived: boolean } | Extract<ScopedCancel, { ok: false }>> {
    try {
      return {
        ok: true,
        ordersReceived: (await this.#caller.call(ENDPOINTS.cancelAllForLeague, { body: { league } })).ordersReceived,
      };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return {
        ok: false,
        reason,
        httpStatus: err instanceof HttpStatusError ? err.status : null,
        outcomeUnknown: !refusedWhole(err),
      };
    }
  }

  /** The account's open orders and matched (ungraded) bets on one game. */
  async getOrdersForGame(gameID: string): Promise<OrdersForGame> {
    return this.#caller.call(ENDPOINTS.getOrdersForGame, { query: { gameID } });
  }

  /** Everything of one userReference on one game: open orders, matched bets, graded rows. */
  async getBetByUserReference(userReference: string, gameID: string): Promise<CombinedWagers> {
    return this.#caller.call(ENDPOINTS.getBetByUserReference, { query: { userReference, gameID } });
  }

  /** Every matched and graded bet of one submitted order (its open remainder is not listed). */
  async getBetByWagerRequestID(wagerRequestID: string): Promise<CombinedWagers> {
    return this.#caller.call(ENDPOINTS.getBetByWagerRequestID, { query: { wagerRequestID } });
  }

  /**
   * One bet by its `id` or a fill's `txID`, in its current form (graded, matched, or an open
   * order). The exchange answers an unknown id like a malformed one (400): both are null.
   */
  async getBetByID(key: { readonly id: string } | { readonly txID: string }): Promise<BetLookup | null> {
    try {
      return await this.#caller.call(ENDPOINTS.getBetByID, {
        query: 'id' in key ? { id: key.id } : { txID: key.txID },
      });
    } catch (err) {
      if (err instanceof HttpStatusError && err.status === 400) return null;
      throw err;
    }
  }

  /** One game as the v1 orderbook nests it, with its child games and the account's orders of the league. */
  async getSingleOrderbook(gameID: string): Promise<SingleOrderbook> {
    return this.#caller.call(ENDPOINTS.getSingleOrderbook, { query: { gameID } });
  }

  /** Best and average prices of every game of a league. */
  async getOddsForAveragePrice(leagueRequested: string): Promise<AveragePriceGame[]> {
    return (await this.#caller.call(ENDPOINTS.getOddsForAveragePrice, { query: { leagueRequested } })).games;
  }

  /** Sitewide matched volume over US-Eastern days, `YYYY-MM-DD`, both inclusive. */
  async getMatchedVolume(startDate: string, endDate: string): Promise<MatchedVolume> {
    return this.#caller.call(ENDPOINTS.getMatchedVolume, { query: { startDate, endDate } });
  }

  async lookupOrder(orderID: string): Promise<LookupOrder> {
    return (await this.#caller.call(ENDPOINTS.lookupOrder, { query: { orderID } })).order;
  }

  async getUnmatched(): Promise<UnmatchedOrder[]> {
    return (await this.#caller.call(ENDPOINTS.getUnmatched)).unmatched;
  }

  /** REST twin of the orders-socket dead man's switch; `timeoutSec` must be above 5. */
  async ordersHeartbeat(timeoutSec: number): Promise<HeartbeatAck> {
    return this.#caller.call(ENDPOINTS.ordersHeartbeat, { body: { timeout: timeoutSec } });
  }

  async heartbeat(timeoutSec: number): Promise<void> {
    await this.ordersHeartbeat(timeoutSec);
  }

  // ---- bets, liability, settlement ----

  async getMatchedBets(): Promise<MatchedBet[]> {
    return (await this.#caller.call(ENDPOINTS.getMatchedBets)).matchedBets;
  }

  /** Worst-case loss over every bet on the game: 0 or negative. */
  async getGameLiability(gameID: string): Promise<number> {
    return (await this.#caller.call(ENDPOINTS.getGameLiability, { query: { gameID } })).liability;
  }

  /**
   * One getGraded window (≤ 35 days when `startDate` is given). The contract does not name
   * the end parameter; `endDate` is what linesmith sends.
   */
  async getGraded(window: { startDate?: string; endDate?: string } = {}): Promise<GradedWindowResponse> {
    return this.#caller.call(ENDPOINTS.getGraded, { query: window });
  }

  /** Deprecated twin of getGraded. */
  async getGradedWagers(window: { startDate?: string; endDate?: string } = {}): Promise<GradedWindowResponse> {
    return this.#caller.call(ENDPOINTS.getGradedWagers, { query: window });
  }

  /** Graded rows of games starting in [from, to), any length, read in ≤ 35-day windows. */
  readGradedRange(fromMs: number, toMs: number) {
    return readGradedRange((w) => this.getGraded(w), fromMs, toMs);
  }

  /** One getGradedSince page. Prefer gradedWalker(), which follows the rules. */
  async getGradedSince(
    params: { since?: string; cursor?: string },
    signal?: AbortSignal,
  ): Promise<GradedSinceResponse> {
    return this.#caller.call(ENDPOINTS.getGradedSince, { query: params, ...(signal ? { signal } : {}) });
  }

  gradedWalker(options: Omit<GradedWalkerOptions, 'scheduler' | 'logger'> = {}): GradedWalker {
    return new GradedWalker((p, s) => this.getGradedSince(p, s), {
      scheduler: this.#scheduler,
      logger: this.#log,
      ...options,
    });
  }

  /** `fromDate`/`toDate` as MM-DD-YYYY; omitted gives lifetime earnings. */
  async getAffiliateCommission(range: { fromDate?: string; toDate?: string } = {}) {
    return this.#caller.call(ENDPOINTS.getAffiliateCommission, { query: range });
  }

  close(): Promise<void> {
    return this.#transport.close();
  }
}
