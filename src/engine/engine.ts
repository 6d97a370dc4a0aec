import { invertOdds, oddsRank, payout, withinPostArbBand } from '../odds/american.ts';
import { fillMoney } from '../money/fill.ts';
import { bookKeyOf, oppositeSelection, sideIndexOf, type MarketType, type Score, type Selection } from '../markets/types.ts';
import type { Clock } from '../shared/clock.ts';
import { TimerHeap } from '../shared/heap.ts';
import { err, ok, type Result } from '../shared/result.ts';
import { Account } from './accounts.ts';
import { betViewOf, moneyOf, type BetState } from './bet-state.ts';
import { Book, type BookSide } from './book.ts';
import { createIdGenerator, isObjectId, type IdGenerator } from './ids.ts';
import { liveDelayMs } from './live-delay.ts';
import { DUST, viewOf, type OrderState } from './order-state.ts';
import { isValidScore, nextGrade, type Verdict } from './settlement.ts';
import type {
  AccountView,
  BetView,
  CancelFilter,
  CancelOutcome,
  CloseReason,
  EngineError,
  EngineEvent,
  EngineEventListener,
  EngineGame,
  GameChange,
  GameErrorCode,
  GradeVersion,
  ListedOrder,
  MatchedFillResult,
  NewGame,
  NewUser,
  OrderView,
  PlaceEntry,
  PlaceFailure,
  PlaceInput,
  PlaceOutcome,
  UnmatchedResult,
  UserErrorCode,
} from './types.ts';
import { validatePlaceInput, wireOf, type GameEntry, type ValidOrder } from './wire.ts';

export interface EngineOptions {
  readonly clock: Clock;
  readonly ids?: IdGenerator;
  /** postArb band as a fraction of the resting order's American odds (1% on the exchange). */
  readonly postArbTolerance?: number;
  /** An unmatched fillOrKill residual up to this stake still counts as complete (10 on the exchange). */
  readonly fillOrKillResidual?: number;
  /** Delay before a crossing order on a live game executes, by league. */
  readonly liveDelayMs?: (league: string) => number;
  /** Expire orders placed before a game's start when it starts (`gameStartExpiry`). */
  readonly cancelOnGameStart?: boolean;
  /**
   * How long a closed (filled, cancelled, expired) order stays readable through `order()`
   * and answers cancels with its reason; after that it is forgotten and reads as not found.
   * Bets are kept until settlement regardless. Default 24 h.
   */
  readonly closedOrderRetentionMs?: number;
  /**
   * Called when an event listener throws. The engine never lets a listener's exception
   * escape into the caller or stop delivery to the other listeners. Default: counted only
   * (see `listenerErrorCount`); hosts pass their logger.
   */
  readonly onListenerError?: (error: unknown, event: EngineEvent) => void;
}

type Timer =
  | { readonly at: number; readonly kind: 'expire'; readonly order: OrderState }
  | { readonly at: number; readonly kind: 'ticket'; readonly ticket: DelayedTicket }
  | { readonly at: number; readonly kind: 'gameStart'; readonly gameId: string };

interface DelayedTicket {
  readonly id: number;
  readonly userId: string;
  readonly order: ValidOrder;
  readonly at: number;
}

interface GameState {
  game: EngineGame;
  /** Interned selections of this game (see wire.ts). */
  readonly selections: GameEntry['selections'];
  readonly books: Map<string, Book>;
  readonly bets: BetState[];
  /** Open orders on the game, for expiry at start and end. */
  readonly open: Set<OrderState>;
  matchedVolume: number;
}

const failure = (errorType: PlaceFailure['errorType'], error: string): PlaceFailure => ({ status: 'error', error, errorType });

/**
 * A deterministic in-memory replica of the exchange's matching engine. Time comes only
 * from the injected clock: due work (expiries, live delays, game starts) runs at the start
 * of every call and in `advance()`, which a host calls at `nextDueAt()`.
 *
 * Expected failures are values, never exceptions: place entries carry `errorType`,
 * cancels carry a failure code, admin calls return a Result.
 */
export class MatchingEngine {
  readonly #clock: Clock;
  readonly #ids: IdGenerator;
  readonly #postArbTolerance: number;
  readonly #fokResidual: number;
  readonly #liveDelay: (league: string) => number;
  readonly #cancelOnGameStart: boolean;
  readonly #retentionMs: number;
  readonly #onListenerError: ((error: unknown, event: EngineEvent) => void) | undefined;
  #listenerErrors = 0;
  /** Closed orders in closing order, for pruning after the retention period. */
  #closed: OrderState[] = [];
  #closedHead = 0;

  readonly #games = new Map<string, GameState>();
  readonly #users = new Map<string, Account>();
  readonly #orders = new Map<string, OrderState>();
  readonly #openByUser = new Map<string, Set<OrderState>>();
  readonly #betsByUser = new Map<string, BetState[]>();
  readonly #gradesByUser = new Map<string, GradeVersion[]>();
  #gradeSeq = 0;
  #orderSeq = 0;
  #ticketSeq = 0;
  readonly #timers = new TimerHeap<Timer>();

  readonly #listeners: EngineEventListener[] = [];
  #pending: EngineEvent[] = [];
  readonly #changedSides = new Set<string>();
  #dispatching = false;

  readonly #lookupGame = (id: string): GameState | undefined => this.#games.get(id);

  constructor(options: EngineOptions) {
    this.#clock = options.clock;
    this.#ids = options.ids ?? createIdGenerator(1);
    this.#postArbTolerance = options.postArbTolerance ?? 0.01;
    this.#fokResidual = options.fillOrKillResidual ?? 10;
    this.#liveDelay = options.liveDelayMs ?? liveDelayMs;
    this.#cancelOnGameStart = options.cancelOnGameStart ?? true;
    this.#retentionMs = options.closedOrderRetentionMs ?? 86_400_000;
    this.#onListenerError = options.onListenerError;
  }

  // ---------------------------------------------------------------- events

  /** Subscribe to engine events; they are delivered after each call completes, in order. */
  onEvent(listener: EngineEventListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  #emit(event: EngineEvent): void {
    if (this.#listeners.length > 0) this.#pending.push(event);
  }

  #touchSide(gameId: string, bookKey: string, side: 0 | 1): void {
    if (this.#listeners.length === 0) return;
    const key = `${side}${gameId}|${bookKey}`;
    if (this.#changedSides.has(key)) return;
    this.#changedSides.add(key);
    this.#pending.push({ kind: 'bookChanged', gameId, bookKey, side });
  }

  /** Deliver what the last call produced. Listeners may call back into the engine. */
  #flush(): void {
    if (this.#dispatching) return;
    this.#dispatching = true;
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending;
        this.#pending = [];
        this.#changedSides.clear();
        const listeners = [...this.#listeners];
        for (const event of batch) {
          for (const l of listeners) {
            try {
              l(event);
            } catch (error) {
              this.#listenerErrors++;
              this.#onListenerError?.(error, event);
            }
          }
        }
      }
    } finally {
      this.#dispatching = false;
    }
  }

  /** How many times a listener threw (each was isolated and reported to onListenerError). */
  get listenerErrorCount(): number {
    return this.#listenerErrors;
  }

  // ---------------------------------------------------------------- setup

  addUser(user: NewUser): Result<AccountView, EngineError<UserErrorCode>> {
    if (typeof user.id !== 'string' || user.id.length === 0) return err({ code: 'invalid_user', message: 'user id is required' });
    if (this.#users.has(user.id)) return err({ code: 'duplicate_user', message: `user ${user.id} exists` });
    const commission = user.commissionRate ?? 0.01;
    if (!Number.isFinite(user.balance) || !(commission >= 0 && commission < 1) || !((user.creditLimit ?? 0) >= 0)) {
      return err({ code: 'invalid_user', message: 'balance must be finite, creditLimit ≥ 0 and commissionRate in [0, 1)' });
    }
    const account = new Account(user.id, user.balance, user.creditLimit ?? 0, commission);
    this.#users.set(user.id, account);
    return ok(this.#accountView(account));
  }

  addGame(input: NewGame): Result<EngineGame, EngineError<GameErrorCode>> {
    this.advance(); // flushes due work's events now: the error returns below do not flush
    if (!isObjectId(input.id)) return err({ code: 'invalid_id', message: `invalid game id: ${String(input.id)}` });
    if (this.#games.has(input.id)) return err({ code: 'duplicate_game', message: `game ${input.id} exists` });
    const [away, home] = input.participants ?? [];
    if (!away || !home || !isObjectId(away.id) || !isObjectId(home.id) || away.id === home.id) {
      return err({ code: 'invalid_game', message: 'a game needs exactly two participants with distinct 24-hex ids, away first' });
    }
    if (!Number.isFinite(input.start)) return err({ code: 'invalid_game', message: 'start must be a time in ms' });
    const markets: readonly MarketType[] =
      input.markets ?? (input.sport.toLowerCase() === 'soccer' ? ['moneyline1x2', 'spread', 'total'] : ['moneyline', 'spread', 'total']);
    const game: EngineGame = {
      id: input.id,
      parentGameID: input.parentGameID ?? null,
      league: input.league,
      sport: input.sport,
      ...(input.eventName !== undefined ? { eventName: input.eventName } : {}),
      tournamentName: input.tournamentName ?? null,
      periodName: input.periodName ?? 'Game',
      isSpecials: input.isSpecials ?? false,
      participants: [away, home],
      start: input.start,
      live: input.live ?? false,
      ended: false,
      started: false,
      markets,
      score: null,
    };
    this.#games.set(game.id, { game, selections: new Map(), books: new Map(), bets: [], open: new Set(), matchedVolume: 0 });
    this.#emit({ kind: 'gameChanged', game, change: 'created' });
    this.#scheduleStart(game);
    if (game.live) this.#startGame(game.id);
    this.#flush();
    return ok(this.#games.get(game.id)!.game);
  }

  /** Change a game's live flag or start time. Going live (or reaching the start) expires pre-game orders. */
  updateGame(gameId: string, patch: { readonly live?: boolean; readonly start?: number }): Result<EngineGame, EngineError<GameErrorCode>> {
    this.advance(); // flushes due work's events now: the error returns below do not flush
    const state = this.#games.get(gameId);
    if (!state) return err({ code: 'game_not_found', message: `game ${gameId} not found` });
    if (state.game.ended) return err({ code: 'game_ended', message: `game ${gameId} has ended` });
    if (patch.start !== undefined && !Number.isFinite(patch.start)) return err({ code: 'invalid_game', message: 'start must be a time in ms' });
    state.game = { ...state.game, ...(patch.live !== undefined ? { live: patch.live } : {}), ...(patch.start !== undefined ? { start: patch.start } : {}) };
    this.#emit({ kind: 'gameChanged', game: state.game, change: 'updated' });
    if (patch.start !== undefined) this.#scheduleStart(state.game);
    if (state.game.live) this.#startGame(gameId);
    this.#flush();
    return ok(state.game);
  }

  #scheduleStart(game: EngineGame): void {
    if (game.started) return;
    if (game.start <= this.#clock.now()) this.#startGame(game.id);
    else this.#timers.push({ at: game.start, kind: 'gameStart', gameId: game.id });
  }

  #startGame(gameId: string): void {
    const state = this.#games.get(gameId)!;
    if (state.game.started) return;
    state.game = { ...state.game, started: true };
    if (this.#cancelOnGameStart) {
      for (const o of [...state.open]) if (o.gameStartExpiry) this.#close(o, 'expired', 'gameStart');
    }
    this.#emit({ kind: 'gameChanged', game: state.game, change: 'started' });
  }

  // ---------------------------------------------------------------- time

  /** Earliest time at which `advance()` has work to do, if any. */
  nextDueAt(): number | undefined {
    return this.#timers.peek()?.at;
  }

  /** Run everything due at the clock's current time: expiries, game starts, delayed orders. */
  advance(): void {
    this.#advance();
    this.#flush();
  }

  #advance(): void {
    const now = this.#clock.now();
    this.#pruneClosed(now);
    for (let t = this.#timers.peek(); t && t.at <= now; t = this.#timers.peek()) {
      this.#timers.pop();
      switch (t.kind) {
        case 'expire':
          if (t.order.status === 'open') this.#close(t.order, 'expired', 'expiry');
          break;
        case 'gameStart': {
          const g = this.#games.get(t.gameId)?.game;
          if (g && !g.started && g.start <= now) this.#startGame(t.gameId);
          break;
        }
        case 'ticket': {
          const outcome = this.#runDelayed(t.ticket);
          this.#emit({ kind: 'delayedExecuted', ticket: t.ticket.id, userId: t.ticket.userId, outcome });
          break;
        }
      }
    }
  }

  #retire(order: OrderState): void {
    order.closedAt = this.#clock.now();
    this.#closed.push(order);
  }

  #pruneClosed(now: number): void {
    const closed = this.#closed;
    let head = this.#closedHead;
    const horizon = now - this.#retentionMs;
    while (head < closed.length && closed[head]!.closedAt <= horizon) {
      this.#orders.delete(closed[head]!.id);
      head++;
    }
    if (head > 1024 && head * 2 > closed.length) {
      this.#closed = closed.slice(head);
      head = 0;
    }
    this.#closedHead = head;
  }

  // ---------------------------------------------------------------- place

  /**
   * Place a batch. Results are positional with `inputs`; one entry may fail while others
   * succeed. A crossing order on a live game answers `delayed` with a ticket; its outcome
   * arrives as a `delayedExecuted` event once `advance()` runs at or after `executeAt`.
   */
  place(userId: string, inputs: readonly PlaceInput[]): PlaceEntry[] {
    this.#advance();
    const user = this.#users.get(userId);
    const out: PlaceEntry[] = [];
    // A batch that is not an array has no entries to answer; never throw on it.
    const batch: readonly PlaceInput[] = Array.isArray(inputs) ? inputs : [];
    for (const input of batch) {
      if (!user) {
        out.push(failure('validation_error', 'unknown user'));
        continue;
      }
      const v = validatePlaceInput(input, this.#lookupGame);
      out.push(typeof v === 'string' ? failure('validation_error', v) : this.#placeValid(user, v, true));
    }
    this.#flush();
    return out;
  }

  #placeValid(user: Account, order: ValidOrder, allowDelay: boolean): PlaceEntry {
    const state = this.#games.get(order.gameId)!;
    if (state.game.ended) return failure('validation_error', 'game has ended');
    const existing = state.books.get(bookKeyOf(order.selection));
    const takeSide = existing?.sides[sideIndexOf(order.selection)];
    const limitRank = oddsRank(order.odds);
    const best = takeSide?.best();
    const crossing = best !== undefined && best.rank >= limitRank;

    switch (order.orderType) {
      case 'post':
        if (crossing) return failure('rejected_order_type_rules', 'post order cannot have matches');
        break;
      case 'postArb':
        if (crossing && !withinPostArbBand(order.odds, best.listedOdds, this.#postArbTolerance)) {
          return failure(
            'rejected_order_type_rules',
            `postArb order odds ${order.odds} differ by more than ${this.#postArbTolerance * 100}% from the resting order's ${best.listedOdds}`,
          );
        }
        break;
      case 'fillAndKill':
        if (!crossing) return failure('rejected_order_type_rules', 'fill and kill has no matches');
        break;
      case 'fillOrKill':
        if (!crossing) return failure('rejected_order_type_rules', 'fill or kill has no matches');
        // Capacity is a float sum of risk × payout (17.90 × 100/179 = 9.999999999999998): allow
        // for that rounding so an exact residual of 10 counts as complete.
        if (order.bet - takeSide!.capacityAtOrBetter(limitRank, order.bet) > this.#fokResidual + 1e-12 * Math.max(1, order.bet)) {
          return failure('rejected_order_type_rules', 'fill or kill matched but not fully');
        }
        break;
      case 'limit':
        break;
    }

    const takerRate = order.orderType === 'postArb' ? 0 : user.commissionRate;
    if (!user.canAfford(order.gameId, { selection: order.selection, amount: order.bet, odds: order.odds, commissionRate: takerRate })) {
      return failure('rejected_liability', 'Insufficient balance.');
    }

    if (crossing && allowDelay && state.game.live) {
      const delay = this.#liveDelay(state.game.league);
      if (delay > 0) {
        const ticket: DelayedTicket = { id: ++this.#ticketSeq, userId: user.id, order, at: this.#clock.now() + delay };
        this.#timers.push({ at: ticket.at, kind: 'ticket', ticket });
        return { status: 'delayed', ticket: ticket.id, executeAt: ticket.at };
      }
    }
    return this.#execute(user, order, state, this.#bookFor(state, order.selection), crossing, takerRate);
  }

  /** A delayed order after its wait: it executes only at its own limit or better, as the book is now. */
  #runDelayed(ticket: DelayedTicket): PlaceOutcome {
    const user = this.#users.get(ticket.userId)!;
    const entry = this.#placeValid(user, ticket.order, false);
    return entry.status === 'delayed' ? failure('system_error', 'delayed order could not execute') : entry;
  }

  #execute(user: Account, v: ValidOrder, state: GameState, book: Book, crossing: boolean, takerRate: number): PlaceOutcome {
    const now = this.#clock.now();
    const takeIdx = sideIndexOf(v.selection);
    const listedSide: 0 | 1 = takeIdx === 0 ? 1 : 0;
    const listedOdds = invertOdds(v.odds);
    const order: OrderState = {
      id: this.#ids.next(),
      wagerRequestID: this.#ids.next(),
      userId: user.id,
      gameId: v.gameId,
      selection: v.selection,
      wire: v.wire,
      bookKey: book.key,
      odds: v.odds,
      listedOdds,
      listedRank: oddsRank(listedOdds),
      listedSide,
      orderType: v.orderType,
      bet: v.bet,
      filled: 0,
      remaining: v.bet,
      status: 'open',
      closeReason: null,
      createdAt: now,
      expiresAt: v.expirationMinutes === null ? null : now + v.expirationMinutes * 60_000,
      gameStartExpiry: this.#cancelOnGameStart && !state.game.started,
      isPostArb: v.orderType === 'postArb',
      userReference: v.userReference,
      seq: ++this.#orderSeq,
      closedAt: 0,
    };
    this.#orders.set(order.id, order);

    const matched: MatchedFillResult[] = [];
    if (crossing) this.#match(order, user, state, book.sides[takeIdx], takerRate, matched);

    let unmatched: UnmatchedResult | null = null;
    if (order.remaining <= DUST) {
      order.remaining = 0;
      order.status = 'filled';
      this.#retire(order);
    } else if (v.orderType === 'fillAndKill' || v.orderType === 'fillOrKill') {
      order.remaining = 0;
      order.status = 'cancelled';
      order.closeReason = v.orderType;
      this.#retire(order);
    } else {
      this.#rest(order, user, state, book);
      const u: { -readonly [K in keyof UnmatchedResult]: UnmatchedResult[K] } = {
        orderID: order.id,
        wagerRequestID: order.wagerRequestID,
        offered: order.remaining,
        odds: order.odds,
        type: order.wire.type,
        side: order.wire.side,
        number: order.wire.number,
      };
      if (order.wire.market !== undefined) u.market = order.wire.market;
      if (order.userReference !== null) u.userReference = order.userReference;
      unmatched = u;
    }
    return { status: 'ok', matched, unmatched };
  }

  #rest(order: OrderState, user: Account, state: GameState, book: Book): void {
    book.sides[order.listedSide].add(order);
    state.open.add(order);
    this.#openSet(user.id).add(order);
    const exposure = user.exposureOf(order.gameId);
    exposure.resting.add(order);
    user.adjustBound(exposure, order.remaining);
    if (order.expiresAt !== null) this.#timers.push({ at: order.expiresAt, kind: 'expire', order });
    if (this.#listeners.length > 0) this.#emit({ kind: 'orderPlaced', order: viewOf(order) });
    this.#touchSide(order.gameId, order.bookKey, order.listedSide);
  }

  #match(taker: OrderState, takerUser: Account, state: GameState, side: BookSide, takerRate: number, matched: MatchedFillResult[]): void {
    const limitRank = oddsRank(taker.odds);
    const now = this.#clock.now();
    let touched = false;
    while (taker.remaining > DUST) {
      const level = side.best();
      if (!level || level.rank < limitRank) break;
      if (taker.isPostArb && !withinPostArbBand(taker.odds, level.listedOdds, this.#postArbTolerance)) break;
      const maker = level.first();
      if (!maker) break;
      const capacity = maker.remaining * payout(maker.odds);
      let stake: number;
      let makerRisk: number;
      let makerDone: boolean;
      if (Math.abs(taker.remaining - capacity) <= DUST) {
        stake = capacity;
        makerRisk = maker.remaining;
        makerDone = true;
      } else if (taker.remaining < capacity) {
        stake = taker.remaining;
        makerRisk = stake * payout(level.listedOdds);
        makerDone = maker.remaining - makerRisk <= DUST;
        if (makerDone) makerRisk = maker.remaining;
      } else {
        stake = capacity;
        makerRisk = maker.remaining;
        makerDone = true;
      }

      const makerUser = this.#users.get(maker.userId)!;
      const makerExposure = makerUser.exposureOf(maker.gameId);
      maker.filled += makerRisk;
      maker.remaining = makerDone ? 0 : maker.remaining - makerRisk;
      if (makerDone) {
        maker.status = 'filled';
        this.#retire(maker);
        side.remove(maker);
        state.open.delete(maker);
        this.#openByUser.get(maker.userId)?.delete(maker);
        makerExposure.resting.delete(maker);
      }
      taker.filled += stake;
      taker.remaining -= stake;
      if (taker.remaining <= DUST) taker.remaining = 0;

      const txID = this.#ids.next();
      const makerBet = this.#recordBet(makerUser, maker, txID, 'offer', makerRisk, maker.odds, 0, now);
      const takerBet = this.#recordBet(takerUser, taker, txID, 'wager', stake, level.listedOdds, takerRate, now);
      // The maker's resting risk became a matched bet of the same risk: only the exact
      // worst case needs recomputing.
      makerUser.adjustBound(makerExposure, 0);
      state.matchedVolume += stake + makerRisk;
      touched = true;

      const result: { -readonly [K in keyof MatchedFillResult]: MatchedFillResult[K] } = {
        amount: stake,
        odds: level.listedOdds,
        number: taker.wire.number,
        type: taker.wire.type,
        side: taker.wire.side,
        orderID: maker.id,
        txID,
        wagerRequestID: taker.wagerRequestID,
        risk: takerBet.risk,
        win: takerBet.win,
        winWithoutCommission: takerBet.winWithoutCommission,
      };
      if (taker.wire.market !== undefined) result.market = taker.wire.market;
      if (taker.userReference !== null) result.userReference = taker.userReference;
      matched.push(result);
      if (this.#listeners.length > 0) {
        this.#emit({
          kind: 'fill',
          fill: {
            txID,
            gameId: taker.gameId,
            bookKey: taker.bookKey,
            at: now,
            isPostArb: taker.isPostArb,
            taker: {
              userId: takerBet.userId,
              orderId: taker.id,
              wagerRequestID: taker.wagerRequestID,
              selection: taker.selection,
              wire: taker.wire,
              money: moneyOf(takerBet),
              userReference: taker.userReference,
              orderCreatedAt: taker.createdAt,
            },
            maker: {
              userId: makerBet.userId,
              orderId: maker.id,
              wagerRequestID: maker.wagerRequestID,
              selection: maker.selection,
              wire: maker.wire,
              money: moneyOf(makerBet),
              userReference: maker.userReference,
              orderCreatedAt: maker.createdAt,
            },
            makerOrderAfter: viewOf(maker),
          },
        });
      }
    }
    if (touched) this.#touchSide(taker.gameId, taker.bookKey, taker.listedSide === 0 ? 1 : 0);
  }

  #recordBet(
    user: Account,
    order: OrderState,
    txID: string,
    origin: 'offer' | 'wager',
    amount: number,
    odds: number,
    commissionRate: number,
    now: number,
  ): BetState {
    // The fill's money is a short-lived value; the bet keeps its fields flat, so the record
    // that lives until settlement is one object.
    const m = fillMoney(amount, odds, commissionRate);
    const bet: BetState = {
      id: this.#ids.next(),
      txID,
      userId: user.id,
      orderId: order.id,
      wagerRequestID: order.wagerRequestID,
      gameId: order.gameId,
      selection: order.selection,
      wire: order.wire,
      amount,
      odds,
      commissionRate,
      winWithoutCommission: m.winWithoutCommission,
      win: m.win,
      risk: m.risk,
      commissionOnWin: m.commissionOnWin,
      commissionOnLoss: m.commissionOnLoss,
      origin,
      isPostArb: order.isPostArb,
      userReference: order.userReference,
      createdAt: order.createdAt,
      matchedAt: now,
      grade: null,
    };
    this.#games.get(order.gameId)!.bets.push(bet);
    let list = this.#betsByUser.get(user.id);
    if (!list) this.#betsByUser.set(user.id, (list = []));
    list.push(bet);
    const exposure = user.exposureOf(order.gameId);
    exposure.bets.push(bet);
    if (origin === 'wager') user.adjustBound(exposure, bet.risk);
    return bet;
  }

  // ---------------------------------------------------------------- cancel

  cancel(userId: string, orderId: unknown): CancelOutcome {
    this.#advance();
    const outcome = this.#cancelOne(userId, orderId, 'user');
    this.#flush();
    return outcome;
  }

  cancelMany(userId: string, orderIds: readonly unknown[]): CancelOutcome[] {
    this.#advance();
    const out = orderIds.map((id) => this.#cancelOne(userId, id, 'user'));
    this.#flush();
    return out;
  }

  /** Cancel every open order of the user matching the filter (all of them without one). */
  cancelAll(userId: string, filter: CancelFilter = {}, reason: CloseReason = 'user'): CancelOutcome[] {
    this.#advance();
    const out: CancelOutcome[] = [];
    const open = [...(this.#openByUser.get(userId) ?? [])].sort((a, b) => a.seq - b.seq);
    for (const o of open) {
      if (filter.gameId !== undefined && o.gameId !== filter.gameId) continue;
      if (filter.type !== undefined && o.wire.type !== filter.type) continue;
      if (filter.side !== undefined && o.wire.side !== filter.side) continue;
      if (filter.market !== undefined && o.wire.market !== filter.market) continue;
      out.push(this.#cancelOne(userId, o.id, reason));
    }
    this.#flush();
    return out;
  }

  #cancelOne(userId: string, orderId: unknown, reason: CloseReason): CancelOutcome {
    if (!isObjectId(orderId)) return { success: false, code: 'invalid_id', reason: 'invalid order ID format' };
    const order = this.#orders.get(orderId);
    if (!order) return { success: false, code: 'not_found', reason: 'order not found' };
    if (order.userId !== userId) return { success: false, code: 'not_yours', reason: 'unauthorized: order does not belong to user' };
    if (order.status !== 'open') {
      const reasonText =
        order.status === 'filled' ? 'order already filled' : order.status === 'expired' ? 'order is expired' : 'order already cancelled';
      return { success: false, code: 'not_cancellable', reason: reasonText, order };
    }
    this.#close(order, 'cancelled', reason);
    // A closed order never changes again, so its record can serve as the view.
    return { success: true, order };
  }

  /** Take an open order off the book; `remaining` keeps the amount at that moment for reporting. */
  #close(order: OrderState, status: 'cancelled' | 'expired', reason: CloseReason): void {
    const state = this.#games.get(order.gameId)!;
    const book = state.books.get(order.bookKey)!;
    const user = this.#users.get(order.userId)!;
    const exposure = user.exposureOf(order.gameId);
    order.status = status;
    order.closeReason = reason;
    this.#retire(order);
    book.sides[order.listedSide].remove(order);
    state.open.delete(order);
    this.#openByUser.get(order.userId)?.delete(order);
    exposure.resting.delete(order);
    user.adjustBound(exposure, -order.remaining);
    if (this.#listeners.length > 0) this.#emit({ kind: status === 'cancelled' ? 'orderCancelled' : 'orderExpired', order: viewOf(order) });
    this.#touchSide(order.gameId, order.bookKey, order.listedSide);
  }

  // ---------------------------------------------------------------- settlement

  /** End a game with its final score and grade every bet on it; on an ended game, regrade. */
  settleGame(gameId: string, score: Score): Result<readonly GradeVersion[], EngineError<GameErrorCode>> {
    if (!isValidScore(score)) return err({ code: 'invalid_game', message: 'score needs non-negative integer away and home' });
    return this.#settle(gameId, { kind: 'score', score });
  }

  /** Refund every bet on the game (ending it if needed): a new version of each row. */
  refundGame(gameId: string): Result<readonly GradeVersion[], EngineError<GameErrorCode>> {
    return this.#settle(gameId, { kind: 'refund' });
  }

  #settle(gameId: string, verdict: Verdict): Result<readonly GradeVersion[], EngineError<GameErrorCode>> {
    this.advance(); // flushes due work's events now: the error return below does not flush
    const state = this.#games.get(gameId);
    if (!state) return err({ code: 'game_not_found', message: `game ${gameId} not found` });
    const wasEnded = state.game.ended;
    for (const o of [...state.open].sort((a, b) => a.seq - b.seq)) this.#close(o, 'expired', 'gameEnded');
    state.game = {
      ...state.game,
      live: false,
      ended: true,
      started: true,
      score: verdict.kind === 'score' ? verdict.score : state.game.score,
    };
    const now = this.#clock.now();
    const graded: GradeVersion[] = [];
    const touchedUsers = new Set<Account>();
    for (const bet of state.bets) {
      const grade = nextGrade(bet, verdict, this.#gradeSeq, now);
      if (!grade) continue;
      this.#gradeSeq++;
      const user = this.#users.get(bet.userId)!;
      user.balance += grade.result - (bet.grade?.result ?? 0);
      bet.grade = grade;
      touchedUsers.add(user);
      let log = this.#gradesByUser.get(bet.userId);
      if (!log) this.#gradesByUser.set(bet.userId, (log = []));
      log.push(grade);
      graded.push(grade);
      this.#emit({ kind: 'betGraded', bet: betViewOf(bet), grade });
    }
    for (const user of this.#users.values()) user.release(gameId);
    const change: GameChange = verdict.kind === 'refund' ? 'refunded' : wasEnded ? 'regraded' : 'ended';
    this.#emit({ kind: 'gameChanged', game: state.game, change });
    for (const user of touchedUsers) this.#emit({ kind: 'balanceChanged', userId: user.id, balance: user.balance });
    this.#flush();
    return ok(graded);
  }

  // ---------------------------------------------------------------- reads

  now(): number {
    return this.#clock.now();
  }

  game(gameId: string): EngineGame | undefined {
    return this.#games.get(gameId)?.game;
  }

  games(): EngineGame[] {
    return [...this.#games.values()].map((s) => s.game);
  }

  order(orderId: string): OrderView | undefined {
    const o = this.#orders.get(orderId);
    return o ? viewOf(o) : undefined;
  }

  /** Whether the order is at the best listed price of its side. */
  isBestOffer(orderId: string): boolean {
    const o = this.#orders.get(orderId);
    if (!o || o.status !== 'open') return false;
    const best = this.#games.get(o.gameId)?.books.get(o.bookKey)?.sides[o.listedSide].best();
    return best !== undefined && best.rank === o.listedRank;
  }

  openOrders(userId: string): OrderView[] {
    return [...(this.#openByUser.get(userId) ?? [])].sort((a, b) => a.seq - b.seq).map(viewOf);
  }

  bets(userId: string): BetView[] {
    return (this.#betsByUser.get(userId) ?? []).map(betViewOf);
  }

  betsOfGame(gameId: string): BetView[] {
    return (this.#games.get(gameId)?.bets ?? []).map(betViewOf);
  }

  /** Every grade version of the user's bets, in settlement order (oldest first). */
  grades(userId: string): readonly GradeVersion[] {
    return this.#gradesByUser.get(userId) ?? [];
  }

  account(userId: string): AccountView | undefined {
    const a = this.#users.get(userId);
    return a ? this.#accountView(a) : undefined;
  }

  #accountView(a: Account): AccountView {
    const exposure = a.exactExposure();
    return { id: a.id, balance: a.balance, creditLimit: a.creditLimit, commissionRate: a.commissionRate, exposure: exposure === 0 ? 0 : -exposure };
  }

  /** Worst-case loss over the user's matched bets on the game (≤ 0), as getGameLiability reports it. */
  gameLiability(userId: string, gameId: string): number {
    const g = this.#users.get(userId)?.games.get(gameId);
    return g ? g.matchedLiability() : 0;
  }

  matchedVolume(gameId: string): number {
    return this.#games.get(gameId)?.matchedVolume ?? 0;
  }

  /** Books of a game with the selection a taker backs on each side. */
  books(gameId: string): { readonly key: string; readonly selections: readonly [Selection, Selection] }[] {
    const state = this.#games.get(gameId);
    return state ? [...state.books.values()].map((b) => ({ key: b.key, selections: b.selections })) : [];
  }

  /** Orders takers of `side` can take, best first (the side's `sideOrders`). */
  bookSide(gameId: string, bookKey: string, side: 0 | 1): ListedOrder[] {
    const book = this.#games.get(gameId)?.books.get(bookKey);
    if (!book) return [];
    const out: ListedOrder[] = [];
    for (const o of book.sides[side].orders()) {
      out.push({ order: viewOf(o), listedOdds: o.listedOdds, sumUntaken: o.remaining * payout(o.odds) });
    }
    return out;
  }

  /** Count of open orders on the game, across every book. */
  openOrderCount(gameId: string): number {
    return this.#games.get(gameId)?.open.size ?? 0;
  }

  #bookFor(state: GameState, selection: Selection): Book {
    const key = bookKeyOf(selection);
    let book = state.books.get(key);
    if (!book) {
      const mine = sideIndexOf(selection);
      const other = oppositeSelection(selection);
      const selections: [Selection, Selection] = mine === 0 ? [selection, other] : [other, selection];
      book = new Book(state.game.id, key, selections);
      state.books.set(key, book);
    }
    return book;
  }

  #openSet(userId: string): Set<OrderState> {
    let s = this.#openByUser.get(userId);
    if (!s) this.#openByUser.set(userId, (s = new Set()));
    return s;
  }

  /** The wire spelling of a selection on a game (for hosts rendering books). */
  wireOf(gameId: string, selection: Selection) {
    const g = this.#games.get(gameId)?.game;
    return g ? wireOf(g, selection) : undefined;
  }
}
