import type { Logger } from 'pino';
import { BehaviorSubject, of, type Observable } from 'rxjs';
import type { ResolvedSide } from '../../market-model/side-labels.ts';
import type { EditInput, EngineEvent, PlaceInput, PlaceOutcome } from '../../engine/types.ts';
import type { AccountSnapshot, ConnectionStates } from '../../exchange/client.ts';
import type {
  CancelEntry,
  EditEntry,
  EditOrderInput,
  MatchedBet,
  OrderGateway,
  PlaceEntry,
  PlaceOrderInput,
  UnmatchedOrder,
} from '../../exchange/orders/types.ts';
import { editBodyOf } from '../../exchange/rest/edit-entry.ts';
import { cancelEntriesOf, restEditOf } from '../../exchange/rest/gateway-capabilities.ts';
import { GradedWalker } from '../../exchange/rest/graded-walker.ts';
import { MatchedBet as MatchedBetSchema, type GradedSinceResponse } from '../../exchange/schemas/bets.ts';
import type { OrderbookGame } from '../../exchange/schemas/exchange.ts';
import { UnmatchedOrder as UnmatchedOrderSchema } from '../../exchange/schemas/orders.ts';
import type { GameUpdate, PriceFeedEvent } from '../../exchange/schemas/price-feed.ts';
import type { Me } from '../../exchange/schemas/user.ts';
import type { SocketState } from '../../exchange/socket/managed-socket.ts';
import type { UserFeedEvent } from '../../exchange/socket/user-feed-events.ts';
import type { Score, Selection } from '../../markets/types.ts';
import type { Venue } from '../../runtime/venue.ts';
import { PriceFilter, updateKey, type UpdateKey } from '../../sim/feeds/subscriptions.ts';
import { userFeedItems } from '../../sim/feeds/user-feed-messages.ts';
import { currentOrderbook, type ListedSide } from './current-orderbook.ts';
import type { EditOutcome } from '../../sim/ops/edit.ts';
import { renderMatchedBet } from '../../sim/render/bets.ts';
import { renderUnmatchedOrder } from '../../sim/render/orders.ts';
import { iso } from '../../sim/render/time.ts';
import type { ManualTimeSource } from '../../shared/time.ts';
import type { VenueAnswers } from './answers.ts';
import { typedAnswers } from './answers-typed.ts';
import { wireAnswers } from './answers-wire.ts';
import { BotFeed } from './bot-feed.ts';
import { Fanout } from './fanout.ts';
import { GradedLog } from './graded-log.ts';
import { BacktestExecution, US, type SettledGameRetention } from './execution.ts';
import type { FillModelConfig } from './queue-model.ts';
import type { LatencyLegs } from './latency.ts';

/**
 * How the venue hands the runtime its answers and user-feed messages: `typed` builds the
 * client's domain values straight from the engine replica's outcomes; `wire` renders the
 * exchange's wire payloads and reads them back through the client's schemas, as the live
 * path does (the contract test runs both and requires the same run).
 */
export type VenueBoundary = 'typed' | 'wire';

export interface SimulatedVenueOptions {
  readonly time: ManualTimeSource;
  /** Default `typed`. */
  readonly boundary?: VenueBoundary;
  readonly fillModel: FillModelConfig;
  /** One-way delay of each leg (place, cancel or edit request, answer, user-feed message), ms. */
  readonly latency: LatencyLegs;
  readonly balance: number;
  readonly commission: number;
  readonly logger: Logger;
  /** Every engine event of our account (fills, orders, grades), for the report. */
  readonly onOwnEvent?: (e: EngineEvent) => void;
  readonly onPlaceOutcome?: (input: PlaceInput, outcome: PlaceOutcome) => void;
  readonly onEditOutcome?: (input: EditInput, outcome: EditOutcome) => void;
  /** How long the exchange keeps a settled game; default the simulator's. */
  readonly settledGameRetention?: SettledGameRetention;
  /** Each game the venue lets go of, after the engine forgot it: called first, while the venue still has it. */
  readonly onGameForgotten?: (gameID: string) => void;
}

/** A game's filter fields when the recording gave none: one object, not one per resend. */
const NO_FIELDS: { parentGameID?: string | null; league?: string | null; sport?: string | null } = {};

/** Zeros that pad the milliseconds of a message id to six digits, by how many are missing. */
const LOW_PAD = ['', '0', '00', '000', '0000', '00000'] as const;

/**
 * The resolve of the promise being made: an executor made once hands it out, so a request
 * makes no closure to catch it. Taken at once, in the same call that made the promise.
 */
let caught: unknown = null;
const catchResolve = (resolve: unknown): void => {
  caught = resolve;
};
function takeResolve<T>(): (value: T) => void {
  const resolve = caught as (value: T) => void;
  caught = null;
  return resolve;
}

/** A listed side whose update (our part of it changed) is on its way to the bot, or was: one record per side, kept. */
interface DueSide {
  readonly gameID: string;
  readonly bookKey: string;
  readonly side: 0 | 1;
  /** What a taker on the side backs, as the change that put the update on its way named it. */
  taker: Selection;
  due: boolean;
}

const state = (status: SocketState['status'], since: number, connection = 1): SocketState => ({
  status,
  attempt: 0,
  lastError: null,
  since,
  connection,
  retryInMs: null,
});

/**
 * The exchange as a backtest's runtime sees it: the Venue interface over the engine replica
 * and the recorded market. Answers and user-feed messages take the latency model's time on
 * the virtual clock and reach the runtime as the exchange client's domain values: built
 * straight from the engine's outcomes (`typed`, the default), or rendered as wire payloads
 * and read back through the client's own schemas (`wire`), which the contract test proves
 * give the same run.
 */
export class SimulatedVenue implements Venue {
  readonly execution: BacktestExecution;
  readonly rest: Venue['rest'];
  readonly orders: Venue['orders'];
  readonly priceFeed: Venue['priceFeed'];
  readonly userFeed: Venue['userFeed'];
  readonly states$: Observable<ConnectionStates>;
  readonly #o: SimulatedVenueOptions;
  readonly #price$ = new Fanout<PriceFeedEvent>();
  readonly #user$ = new Fanout<UserFeedEvent<AccountSnapshot>>();
  readonly #states$: BehaviorSubject<ConnectionStates>;
  /** Orderbook answers waiting for the snapshots that follow a recorded price-feed reconnect (null: none expected). */
  #afterPriceGap: (() => void)[] | null = null;
  readonly #graded = new GradedLog();
  /** What the runtime subscribed to on the price feed: the exchange sends nothing else (feeds §2). */
  readonly #filter = new PriceFilter();
  /** Each game's filter key, built once: a game's league and sport never change. */
  readonly #keys = new Map<string, UpdateKey>();
  #messageSeq = 0;
  #idHigh = Number.NaN;
  #idHighSpelt = '';
  readonly #botFeed: BotFeed;
  /** Per game, per book, each side's update record: found with no key spelt and hashed for every event of ours. */
  readonly #listingsDue = new Map<string, Map<string, [DueSide | null, DueSide | null]>>();
  readonly #answers: VenueAnswers;
  /** Promises settled since the driver last looked: their callbacks are due as microtasks. */
  #settled = 0;

  constructor(o: SimulatedVenueOptions) {
    this.#o = o;
    const now = o.time.clock.now();
    this.#states$ = new BehaviorSubject<ConnectionStates>({
      price: state('open', now),
      user: state('open', now),
      orders: state('open', now),
    });
    this.states$ = this.#states$.asObservable();
    this.execution = new BacktestExecution({
      time: o.time,
      fillModel: o.fillModel,
      balance: o.balance,
      commission: o.commission,
      onOwnEvent: (e) => this.#onOwnEvent(e),
      onListingChanged: (gameID, bookKey, side, taker) => this.#listingChanged(gameID, bookKey, side, taker),
      ...(o.onPlaceOutcome ? { onPlaceOutcome: o.onPlaceOutcome } : {}),
      ...(o.onEditOutcome ? { onEditOutcome: o.onEditOutcome } : {}),
      ...(o.settledGameRetention ? { settledGameRetention: o.settledGameRetention } : {}),
    });
    this.#botFeed = new BotFeed(this.execution);
    this.#answers = o.boundary === 'wire' ? wireAnswers(this.execution.engine) : typedAnswers(this.execution.engine);
    const gateway: OrderGateway = {
      place: (orders) => this.#place(orders),
      cancel: (ids) => this.#cancel(ids),
      edit: (order) => this.#edit(order),
      cancelAllOfAccount: () => this.#cancelAll(undefined),
      cancelAllOfGame: (gameID) => this.#cancelAll(gameID),
      heartbeat: () => this.#answer(undefined),
    };
    this.rest = {
      ...gateway,
      login: () => this.#answer(undefined),
      getMe: () => this.#answer(this.#me()),
      getOrderbook: (filter) =>
        this.#afterPriceGap
          ? new Promise((resolve) => this.#afterPriceGap!.push(() => this.#resolve(resolve, this.#orderbook(filter))))
          : this.#answer(this.#orderbook(filter)),
      getUnmatched: () => this.#answer(this.#unmatched()),
      getMatchedBets: () => this.#answer(this.#matchedBets()),
      gradedWalker: (options) =>
        new GradedWalker((params) => this.#answer(this.#gradedSince(params.cursor)), {
          ...(options.since !== undefined ? { since: options.since } : {}),
          scheduler: o.time.scheduler,
          logger: o.logger,
        }),
    };
    this.orders = { ...gateway, start: () => undefined };
    this.priceFeed = {
      events$: this.#price$.events$,
      subscribe: (selection, options) =>
        this.#filter.apply({
          type: 'subscribe',
          gameIDs: [...(selection.gameIDs ?? [])],
          leagueIDs: [...(selection.leagueIDs ?? [])],
          sportIDs: [...(selection.sportIDs ?? [])],
          replace: options?.replace ?? false,
        }),
      start: () => undefined,
    };
    // Its messages are handed over in-process: nothing drops, so nothing is ever missing.
    this.userFeed = { events$: this.#user$.events$, recovering$: of(false), start: () => undefined };
  }

  /** The recording's snapshot batch is complete: orderbook reads held since a price gap are answered now. */
  snapshotDone(): void {
    const waiting = this.#afterPriceGap;
    this.#afterPriceGap = null;
    for (const answer of waiting ?? []) answer();
  }

  /** Whether answers settled since the driver last took them (`takeSettled`), leaving the count as it is. */
  hasSettled(): boolean {
    return this.#settled > 0;
  }

  /** How many answers settled since the last call: the driver lets their callbacks run before going on. */
  takeSettled(): number {
    const n = this.#settled;
    this.#settled = 0;
    return n;
  }

  // ------------------------------------------------------------ the recording, in order

  snapshot(g: OrderbookGame, t: number): void {
    if (this.execution.hasForgottenGames) this.#forgetGames();
    this.execution.applySnapshot(g, t);
  }

  /** A recorded frame reaches the exchange's book first, then our price feed if the runtime subscribed to its game. */
  price(e: PriceFeedEvent, t: number): void {
    if (this.execution.hasForgottenGames) this.#forgetGames();
    let side: ResolvedSide | null = null;
    if (e.type === 'orderUpdate') side = this.execution.applyOrderUpdate(e.payload, t);
    else this.execution.applyPrice(e, t);
    if (!this.#filter.broadcastAll && !this.#subscribed(e)) return;
    if (e.type !== 'orderUpdate') this.#price$.next(e);
    else {
      const payload = this.#botFeed.recordedUpdate(e.payload, side);
      this.#price$.next(payload === e.payload ? e : { type: 'orderUpdate', payload });
    }
  }

  #subscribed(e: PriceFeedEvent): boolean {
    const id = e.type === 'gameUpdate' ? e.payload.id : e.payload.gameID;
    return this.#filter.matches(this.#keyOf(id, e.type === 'gameUpdate' ? e.payload : undefined, e.payload));
  }

  #keyOf(
    id: string,
    update: GameUpdate | undefined,
    fallback: { parentGameID?: string | null; league?: string | null; sport?: string | null },
  ): UpdateKey {
    let key = this.#keys.get(id);
    if (key === undefined) {
      // The recorded book saw the frame first, so it knows the game if anyone does; a volume update may leave league and sport out.
      const game = update ?? this.execution.recorded.model.identity(id);
      key = updateKey(
        game ?? {
          id,
          parentGameID: fallback.parentGameID ?? null,
          league: fallback.league ?? '',
          sport: fallback.sport ?? '',
        },
      );
      if (game !== undefined) this.#keys.set(id, key);
    }
    return key;
  }

  /**
   * Games the engine forgot (settled hours ago) leave everything the venue keeps per game,
   * between two recorded events: a replay of months holds the games of the last hours.
   */
  #forgetGames(): void {
    for (const gameID of this.execution.takeForgottenGames()) {
      this.#o.onGameForgotten?.(gameID);
      this.execution.forgetGame(gameID);
      this.#botFeed.forgetGame(gameID);
      this.#listingsDue.delete(gameID);
      this.#keys.delete(gameID);
      this.#answers.forgetGame(gameID);
    }
  }

  /** Our part of a side changed: the exchange sends the side again, which reaches the bot one latency leg later. */
  #listingChanged(gameID: string, bookKey: string, side: 0 | 1, taker: Selection): void {
    let books = this.#listingsDue.get(gameID);
    if (books === undefined) this.#listingsDue.set(gameID, (books = new Map()));
    let pair = books.get(bookKey);
    if (pair === undefined) books.set(bookKey, (pair = [null, null]));
    const due = (pair[side] ??= { gameID, bookKey, side, taker, due: false });
    if (due.due) return;
    due.due = true;
    due.taker = taker;
    this.#after('fromExchange', this.#sendSide, due);
  }

  /** Built when sent, so several changes within one leg go out as one update. */
  readonly #sendSide = (due: DueSide): void => {
    due.due = false;
    if (!this.#filter.broadcastAll && !this.#filter.matches(this.#keyOf(due.gameID, undefined, NO_FIELDS))) return;
    const payload = this.#botFeed.sideUpdate(due.gameID, due.bookKey, due.side, due.taker);
    if (payload) this.#price$.next({ type: 'orderUpdate', payload });
  };

  result(gameID: string, score: Score): void {
    this.execution.settle(gameID, score);
  }

  /** The recorded feed was down: so is ours, for the runtime, until it came back. */
  gap(feed: 'price' | 'user', resumed: boolean): void {
    const now = this.#o.time.clock.now();
    // The recorder read the books again after this reconnect, and its snapshots follow: a
    // read of the bot's now is answered with them, as the exchange's would be, not before.
    if (feed === 'price' && resumed) this.#afterPriceGap ??= [];
    const cur = this.#states$.value;
    const connection = cur[feed].connection;
    this.#states$.next({ ...cur, [feed]: state('reconnecting', now, connection) });
    // A new connection, as a live socket's: the runtime reads the books again after a price-feed one.
    if (resumed) this.#states$.next({ ...cur, [feed]: state('open', now, connection + 1) });
  }

  // ------------------------------------------------------------ order entry

  // A place or a cancel takes several legs, each run by a work made once with the request's
  // values as its arguments: no closure per leg, nor for the promise's executor.

  #place(orders: readonly PlaceOrderInput[]): Promise<PlaceEntry[]> {
    const answer = new Promise<PlaceEntry[]>(catchResolve);
    this.#after('place', this.#placeArrives, orders, takeResolve<PlaceEntry[]>());
    return answer;
  }

  readonly #placeArrives = (orders: readonly PlaceOrderInput[], resolve: (entries: PlaceEntry[]) => void): void => {
    this.execution.place(orders as readonly PlaceInput[], this.#placeDone, resolve);
  };

  readonly #placeDone = (
    outcomes: PlaceOutcome[],
    resolve: (entries: PlaceEntry[]) => void,
    orders: readonly PlaceInput[],
  ): void => {
    const entries = new Array<PlaceEntry>(outcomes.length);
    for (let i = 0; i < outcomes.length; i++)
      entries[i] = this.#answers.place(outcomes[i]!, (orders[i] as PlaceOrderInput).userReference ?? null);
    this.#after('fromExchange', this.#settle<PlaceEntry[]>, resolve, entries);
  };

  #cancel(ids: readonly string[]): Promise<CancelEntry[]> {
    const answer = new Promise<CancelEntry[]>(catchResolve);
    this.#after('cancel', this.#cancelArrives, ids, takeResolve<CancelEntry[]>());
    return answer;
  }

  readonly #cancelArrives = (ids: readonly string[], resolve: (entries: CancelEntry[]) => void): void => {
    const outcomes = this.execution.cancel(ids);
    const entries = new Array<CancelEntry>(outcomes.length);
    for (let i = 0; i < outcomes.length; i++) entries[i] = this.#answers.cancel(outcomes[i]!, ids[i] ?? null);
    this.#after('fromExchange', this.#settle<CancelEntry[]>, resolve, entries);
  };

  /**
   * One edit, as the REST client sends it (the v4 editOrder body) and reads its answer: the
   * engine replica's edit after the edit leg, its answer rendered as the simulator's edit
   * route renders it and read through the client's schema, one leg from the exchange later.
   * As a place's: works made once, the body and the promise's resolve their arguments.
   */
  #edit(order: EditOrderInput): Promise<EditEntry> {
    const body = editBodyOf(restEditOf(order)) as EditInput;
    const answer = new Promise<EditEntry>(catchResolve);
    this.#after('edit', this.#editArrives, body, takeResolve<EditEntry>());
    return answer;
  }

  readonly #editArrives = (body: EditInput, resolve: (entry: EditEntry) => void): void => {
    this.execution.edit(body, this.#editDone, resolve);
  };

  /** The body's sessionID is the edited order's id, as the request named it. */
  readonly #editDone = (outcome: EditOutcome, resolve: (entry: EditEntry) => void, body: EditInput): void => {
    const entry = this.#answers.edit(body.sessionID as string, outcome);
    this.#after('fromExchange', this.#settle<EditEntry>, resolve, entry);
  };

  /** cancelAllOrders (every game) or cancelAllOrdersForGame, after the cancel leg; the results one leg later. */
  #cancelAll(gameID: string | undefined): Promise<CancelEntry[]> {
    return new Promise((resolve) => {
      this.#after('cancel', () => {
        const answered = this.execution.cancelAll(gameID).map((out) => this.#answers.cancel(out, null));
        const entries = cancelEntriesOf(
          { ok: true, entries: answered },
          gameID === undefined ? 'cancelAllOrders' : 'cancelAllOrdersForGame',
        );
        this.#after('fromExchange', () => this.#resolve(resolve, entries));
      });
    });
  }

  #answer<T>(value: T): Promise<T> {
    this.#settled++;
    return Promise.resolve(value);
  }

  #resolve<T>(resolve: (v: T) => void, value: T): void {
    this.#settled++;
    resolve(value);
  }

  /** #resolve as a posted work: made once. */
  readonly #settle = <T>(resolve: (v: T) => void, value: T): void => {
    this.#settled++;
    resolve(value);
  };

  readonly #emitUser = (event: UserFeedEvent<AccountSnapshot>): void => {
    this.#user$.next(event);
  };

  /** Run `work` one `leg` of latency from now, on the virtual clock, with `a` and `b` its arguments. */
  #after(leg: keyof LatencyLegs, work: () => void): void;
  #after<A>(leg: keyof LatencyLegs, work: (a: A) => void, a: A): void;
  #after<A, B>(leg: keyof LatencyLegs, work: (a: A, b: B) => void, a: A, b: B): void;
  #after(leg: keyof LatencyLegs, work: (a: unknown, b: unknown) => void, a?: unknown, b?: unknown): void {
    this.#o.time.post(work, Math.max(0, this.#o.latency[leg]()), a, b);
  }

  // ------------------------------------------------------------ the account

  #me(): Me {
    const a = this.execution.engine.account(US)!;
    return {
      id: US.padEnd(24, '0').slice(0, 24),
      username: 'backtest',
      displayBalance: a.balance,
      creditLimit: a.creditLimit,
      liability: a.exposure,
      commissionCharged: a.commissionRate,
    };
  }

  #orderbook(filter: { league: string } | { gameID: string }): OrderbookGame[] {
    let games = this.execution.snapshots().filter((g) => !this.execution.game(g.id)?.ended);
    if ('gameID' in filter) games = games.filter((g) => g.id === filter.gameID);
    else if (filter.league !== 'all') games = games.filter((g) => g.league === filter.league);
    return games.map((g) =>
      currentOrderbook(g, this.execution.game(g.id), this.#sidesOf(g.id), (s) =>
        this.#botFeed.listing(g.id, s.bookKey, s.side, s.taker),
      ),
    );
  }

  /** Every side of a game the recorded market or our own orders list: a book brings both its sides. */
  #sidesOf(gameID: string): ListedSide[] {
    const out: ListedSide[] = [];
    const recorded = this.execution.recorded.model.game(gameID)?.books;
    for (const book of recorded?.values() ?? [])
      for (const side of [0, 1] as const) out.push({ bookKey: book.key, side, taker: book.sides[side].taker });
    if (this.execution.engine.game(gameID)) {
      for (const book of this.execution.engine.books(gameID)) {
        if (!recorded?.has(book.key))
          for (const side of [0, 1] as const) out.push({ bookKey: book.key, side, taker: book.selections[side] });
      }
    }
    return out;
  }

  #unmatched(): UnmatchedOrder[] {
    const engine = this.execution.engine;
    return engine.openOrders(US).map((o) => UnmatchedOrderSchema.parse(renderUnmatchedOrder(engine, o)));
  }

  #matchedBets(): MatchedBet[] {
    const engine = this.execution.engine;
    const out: MatchedBet[] = [];
    for (const bet of engine.bets(US)) {
      const game = engine.game(bet.gameID);
      if (bet.grade !== null || !game) continue;
      out.push(MatchedBetSchema.parse(renderMatchedBet(game, bet, engine.order(bet.orderID)?.bet)));
    }
    return out;
  }

  /** getGradedSince over what the engine graded. */
  #gradedSince(cursor: string | undefined): GradedSinceResponse {
    return this.#graded.since(cursor, iso(this.#o.time.clock.now()));
  }

  // ------------------------------------------------------------ our user feed

  #onOwnEvent(e: EngineEvent): void {
    this.#o.onOwnEvent?.(e);
    if (e.kind === 'betGraded') {
      this.#graded.push(this.#answers.graded(this.execution.engine.game(e.bet.gameID), e.bet, e.grade));
      return;
    }
    // Only orders and fills make messages: a balance change or a delayed order's run makes none.
    if (e.kind !== 'orderPlaced' && e.kind !== 'orderCancelled' && e.kind !== 'orderExpired' && e.kind !== 'fill')
      return;
    const engine = this.execution.engine;
    // Ours only: a fill's other side (the recorded market's or flow's) is built for nobody.
    const items = userFeedItems(e, US);
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.userId !== US) continue;
      const now = this.#o.time.clock.now();
      const event = this.#answers.feed(item, engine.game(item.gameID), now, this.#messageID(now));
      this.#after('fromExchange', this.#emitUser, event);
    }
  }

  /**
   * `<now>-<seq>`. An epoch millisecond is past the small integers V8 spells quickly, and
   * spelling it as a double costs more than the rest of the message: it is spelt from its
   * thousands of seconds (kept while they last) and the milliseconds within them.
   */
  #messageID(now: number): string {
    const seq = ++this.#messageSeq;
    if (!(Number.isSafeInteger(now) && now >= 1e6)) return `${now}-${seq}`;
    const high = Math.floor(now / 1e6);
    if (high !== this.#idHigh) {
      this.#idHigh = high;
      this.#idHighSpelt = `${high}`;
    }
    const low = now - high * 1e6;
    return `${this.#idHighSpelt}${LOW_PAD[low < 10 ? 5 : low < 100 ? 4 : low < 1000 ? 3 : low < 10_000 ? 2 : low < 100_000 ? 1 : 0]}${low}-${seq}`;
  }
}
