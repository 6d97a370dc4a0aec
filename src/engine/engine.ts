import { oddsRank, payout, withinPostArbBand } from '../odds/american.ts';
import { fillMoney } from '../money/fill.ts';
import { oppositeSelection, type MarketType, type Score, type Selection } from '../markets/types.ts';
import type { Clock } from '../shared/clock.ts';
import { TimerHeap } from '../shared/heap.ts';
import { err, ok, type Result } from '../shared/result.ts';
import { Account, type GameExposure } from './accounts.ts';
import { BetLedger } from './bet-ledger.ts';
import { ClosedQueue } from './closed-queue.ts';
import { GradeLogs } from './grade-log.ts';
import { MatchingBook, type BookSide } from './matching-book.ts';
import { IdTokens, createIdGenerator, isObjectId, type IdGenerator, type IdToken } from './ids.ts';
import { editRequestOf } from './edit-input.ts';
import { liveDelayMs } from './live-delay.ts';
import { OrderIndex } from './order-index.ts';
import { DUST, bySeq, isPostArb, listedOf, listedRankOf, viewOf, type OrderState } from './order-state.ts';
import { isValidScore, nextGrade, type Verdict } from './settlement.ts';
import type {
  AccountView,
  BetView,
  CancelFilter,
  CancelOutcome,
  CloseReason,
  EditEntry,
  EditFailure,
  EditFailureCode,
  EditInput,
  EditSummary,
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
  PlaceSuccess,
  UnmatchedResult,
  UserErrorCode,
} from './types.ts';
import {
  InternTable,
  checkPlaceInput,
  isEngineTime,
  wireOf,
  type CheckedOrder,
  type GameEntry,
  type InternedSelection,
} from './wire.ts';

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
   * And never more closed orders kept than this, whatever their age: the oldest go first.
   * Default: no count limit.
   */
  readonly closedOrderRetentionCount?: number;
  /**
   * How long an ended game stays after its latest settlement, with its bets and their
   * grade versions: reads of bets and grades, regrades and refunds find it until then.
   * After that the game, its bets and every grade version settled that long ago are
   * forgotten (a regrade answers game_not_found; `gradesDropped` counts what a user's grade
   * log lost from its front). Default: kept for ever.
   */
  readonly settledGameRetentionMs?: number;
  /**
   * And never more ended games kept than this, whatever their age: the game settled
   * longest ago goes first, as if its retention had passed. Default: no count limit.
   */
  readonly settledGameRetentionCount?: number;
  /**
   * Called with each game the settled-game retention forgets, as it goes: a host that keeps
   * state per game (the backtest's venue) lets it go with the engine's.
   */
  readonly onGameForgotten?: (gameID: string) => void;
  /**
   * Called when an event listener throws. The engine never lets a listener's exception
   * escape into the caller or stop delivery to the other listeners. Default: counted only
   * (see `listenerErrorCount`); hosts pass their logger.
   */
  readonly onListenerError?: (error: unknown, event: EngineEvent) => void;
}

type Timer =
  // The order's id, not the order: an expiry timer of a cancelled order must not keep it
  // alive past the closed-order retention.
  | { readonly at: number; readonly kind: 'expire'; readonly id: IdToken }
  | { readonly at: number; readonly kind: 'ticket'; readonly ticket: DelayedTicket }
  | { readonly at: number; readonly kind: 'gameStart'; readonly gameID: string };

interface DelayedTicket {
  readonly id: number;
  readonly userId: string;
  readonly order: Checked;
  readonly at: number;
  /** Set for a delayed edit: the order it edits, looked up again when it runs. */
  readonly edit: EditTarget | null;
}

/** An edit on its way through the place checks: the order it edits and the expiry it asks for. */
interface EditTarget {
  readonly orderID: string;
  /** Minutes from the edit's execution; null keeps the order's expiry. */
  readonly expiryMinutes: number | null;
}

interface GameState {
  game: EngineGame;
  /** Interned selections of this game (see wire.ts). */
  readonly selections: GameEntry['selections'];
  readonly books: Map<string, MatchingBook>;
  /** Matched bets on the game (ledger indexes), oldest first: maker then taker of each fill. */
  readonly bets: number[];
  /** Time of the latest settlement (score, regrade or refund); NaN until the first. */
  settledAt: number;
  /** Open orders on the game; the orders themselves are found through the books. */
  openCount: number;
  matchedVolume: number;
}

type Checked = CheckedOrder<GameState>;

type BookChanged = Extract<EngineEvent, { kind: 'bookChanged' }>;
/** How many touched sides #touchSide scans before it keeps their keys in a set. */
const TOUCHED_SCAN = 8;
const sideKeyOf = (t: { gameID: string; bookKey: string; side: 0 | 1 }): string => `${t.side}${t.gameID}|${t.bookKey}`;

const failure = (errorType: PlaceFailure['errorType'], error: string): PlaceFailure => ({
  status: 'error',
  error,
  errorType,
});
const editFailure = (code: EditFailureCode, error: string): EditFailure => ({
  status: 'error',
  error,
  errorType: 'validation_error',
  code,
});

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
  readonly #ids: IdTokens;
  readonly #postArbTolerance: number;
  readonly #fokResidual: number;
  readonly #liveDelay: (league: string) => number;
  readonly #cancelOnGameStart: boolean;
  readonly #retentionMs: number;
  readonly #retentionCount: number;
  readonly #onListenerError: ((error: unknown, event: EngineEvent) => void) | undefined;
  #listenerErrors = 0;
  /** Ids rather than orders: pruning then reads no order record. */
  readonly #closed = new ClosedQueue();

  readonly #games = new Map<string, GameState>();
  readonly #users = new Map<string, Account>();
  readonly #orders: OrderIndex;
  readonly #ledger: BetLedger;
  readonly #grades = new GradeLogs();
  /**
   * Commission each user paid, by UTC day of settlement (latest grade version of each bet):
   * what date-window reads of fees need, kept after the bets themselves are forgotten.
   */
  readonly #feesByDay = new Map<string, Map<number, number>>();
  readonly #settledRetentionMs: number;
  readonly #settledRetentionCount: number;
  readonly #onGameForgotten: ((gameID: string) => void) | undefined;
  /** Ended games kept: each has one current entry in `#settled`. */
  #settledKept = 0;
  /** Settlements, oldest first (from `#settledHead`), for forgetting games after the retention. */
  #settled: { readonly gameID: string; readonly at: number }[] = [];
  #settledHead = 0;
  #gradeSeq = 0;
  #orderSeq = 0;
  #ticketSeq = 0;
  readonly #timers = new TimerHeap<Timer>();

  /** Replaced, never changed in place, when a listener comes or goes: a flush under way keeps the list it began with. */
  #listeners: readonly EngineEventListener[] = [];
  /**
   * The events of the call under way: the first `#pendingCount` entries. Lists are kept at
   * their size and their entries counted, not emptied by setting their length: that gives a
   * list a new backing store at its next event, one allocation per call.
   */
  #pending: (EngineEvent | undefined)[] = [];
  #pendingCount = 0;
  /** The batch delivered last, its entries cleared: the next batch's list (null while a batch is out). */
  #spare: (EngineEvent | undefined)[] | null = [];
  /** The sides touched since the last flush (the first `#touchedCount`), each once; past TOUCHED_SCAN of them, their keys are in #changedSides too. */
  #touched: BookChanged[] = [];
  #touchedCount = 0;
  readonly #changedSides = new Set<string>();
  #dispatching = false;

  readonly #lookupGame = (id: string): GameState | undefined => this.#games.get(id);

  constructor(options: EngineOptions) {
    this.#clock = options.clock;
    this.#ids = new IdTokens(options.ids ?? createIdGenerator(1));
    this.#orders = new OrderIndex(this.#ids);
    this.#ledger = new BetLedger(this.#ids);
    this.#postArbTolerance = options.postArbTolerance ?? 0.01;
    this.#fokResidual = options.fillOrKillResidual ?? 10;
    this.#liveDelay = options.liveDelayMs ?? liveDelayMs;
    this.#cancelOnGameStart = options.cancelOnGameStart ?? true;
    this.#retentionMs = options.closedOrderRetentionMs ?? 86_400_000;
    this.#settledRetentionMs = options.settledGameRetentionMs ?? Infinity;
    this.#retentionCount = options.closedOrderRetentionCount ?? Infinity;
    this.#settledRetentionCount = options.settledGameRetentionCount ?? Infinity;
    this.#onGameForgotten = options.onGameForgotten;
    this.#onListenerError = options.onListenerError;
  }

  // ---------------------------------------------------------------- events

  /** Subscribe to engine events; they are delivered after each call completes, in order. */
  onEvent(listener: EngineEventListener): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners = this.#listeners.filter((_, j) => j !== i);
    };
  }

  #emit(event: EngineEvent): void {
    if (this.#listeners.length > 0) this.#pending[this.#pendingCount++] = event;
  }

  #touchSide(gameID: string, bookKey: string, side: 0 | 1): void {
    if (this.#listeners.length === 0) return;
    // A call touches a side or two: scanning them beats spelling and hashing a key each
    // time. A batch that touches many (a settlement, a cancel of all) switches to the set.
    const touched = this.#touched;
    const n = this.#touchedCount;
    if (n < TOUCHED_SCAN) {
      for (let i = 0; i < n; i++) {
        const t = touched[i]!;
        if (t.side === side && t.gameID === gameID && t.bookKey === bookKey) return;
      }
    } else {
      if (this.#changedSides.size === 0) for (let i = 0; i < n; i++) this.#changedSides.add(sideKeyOf(touched[i]!));
      const key = sideKeyOf({ gameID, bookKey, side });
      if (this.#changedSides.has(key)) return;
      this.#changedSides.add(key);
    }
    const event: BookChanged = { kind: 'bookChanged', gameID, bookKey, side };
    touched[this.#touchedCount++] = event;
    this.#pending[this.#pendingCount++] = event;
  }

  /** Deliver what the last call produced. Listeners may call back into the engine. */
  #flush(): void {
    if (this.#dispatching) return;
    this.#dispatching = true;
    try {
      while (this.#pendingCount > 0) {
        const batch = this.#pending;
        const n = this.#pendingCount;
        this.#pending = this.#spare ?? [];
        this.#pendingCount = 0;
        this.#spare = null;
        this.#touchedCount = 0;
        // Only when used: clearing a set allocates it a new table, even an empty one.
        if (this.#changedSides.size > 0) this.#changedSides.clear();
        const listeners = this.#listeners;
        for (let i = 0; i < n; i++) {
          const event = batch[i]!;
          for (const l of listeners) {
            try {
              l(event);
            } catch (error) {
              this.#listenerErrors++;
              this.#onListenerError?.(error, event);
            }
          }
        }
        // Cleared, not shortened: the events are not kept alive, and the list keeps its store.
        batch.fill(undefined, 0, n);
        this.#spare = batch;
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
    if (typeof user.id !== 'string' || user.id.length === 0)
      return err({ code: 'invalid_user', message: 'user id is required' });
    if (this.#users.has(user.id)) return err({ code: 'duplicate_user', message: `user ${user.id} exists` });
    const commission = user.commissionRate ?? 0.01;
    if (!Number.isFinite(user.balance) || !(commission >= 0 && commission < 1) || !((user.creditLimit ?? 0) >= 0)) {
      return err({
        code: 'invalid_user',
        message: 'balance must be finite, creditLimit ≥ 0 and commissionRate in [0, 1)',
      });
    }
    const account = new Account(user.id, user.balance, user.creditLimit ?? 0, commission, this.#ledger);
    this.#users.set(user.id, account);
    return ok(this.#accountView(account));
  }

  addGame(input: NewGame): Result<EngineGame, EngineError<GameErrorCode>> {
    this.advance(); // flushes due work's events now: the error returns below do not flush
    if (!isObjectId(input.id)) return err({ code: 'invalid_id', message: `invalid game id: ${String(input.id)}` });
    if (this.#games.has(input.id)) return err({ code: 'duplicate_game', message: `game ${input.id} exists` });
    const [away, home] = input.participants ?? [];
    if (!away || !home || !isObjectId(away.id) || !isObjectId(home.id) || away.id === home.id) {
      return err({
        code: 'invalid_game',
        message: 'a game needs exactly two participants with distinct 24-hex ids, away first',
      });
    }
    if (!isEngineTime(input.start)) return err({ code: 'invalid_game', message: 'start must be a time in ms' });
    const markets: readonly MarketType[] =
      input.markets ??
      (input.sport.toLowerCase() === 'soccer' ? ['moneyline1x2', 'spread', 'total'] : ['moneyline', 'spread', 'total']);
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
    this.#games.set(game.id, {
      game,
      selections: new InternTable(),
      books: new Map(),
      bets: [],
      settledAt: Number.NaN,
      openCount: 0,
      matchedVolume: 0,
    });
    this.#emit({ kind: 'gameChanged', game, change: 'created' });
    this.#scheduleStart(game);
    if (game.live) this.#startGame(game.id);
    this.#flush();
    return ok(this.#games.get(game.id)!.game);
  }

  /** Change a game's live flag or start time. Going live (or reaching the start) expires pre-game orders. */
  updateGame(
    gameID: string,
    patch: { readonly live?: boolean; readonly start?: number },
  ): Result<EngineGame, EngineError<GameErrorCode>> {
    this.advance(); // flushes due work's events now: the error returns below do not flush
    const state = this.#games.get(gameID);
    if (!state) return err({ code: 'game_not_found', message: `game ${gameID} not found` });
    if (state.game.ended) return err({ code: 'game_ended', message: `game ${gameID} has ended` });
    if (patch.start !== undefined && !isEngineTime(patch.start))
      return err({ code: 'invalid_game', message: 'start must be a time in ms' });
    state.game = {
      ...state.game,
      ...(patch.live !== undefined ? { live: patch.live } : {}),
      ...(patch.start !== undefined ? { start: patch.start } : {}),
    };
    this.#emit({ kind: 'gameChanged', game: state.game, change: 'updated' });
    if (patch.start !== undefined) this.#scheduleStart(state.game);
    if (state.game.live) this.#startGame(gameID);
    this.#flush();
    return ok(state.game);
  }

  #scheduleStart(game: EngineGame): void {
    if (game.started) return;
    if (game.start <= this.#clock.now()) this.#startGame(game.id);
    else this.#timers.push({ at: game.start, kind: 'gameStart', gameID: game.id });
  }

  #startGame(gameID: string): void {
    const state = this.#games.get(gameID)!;
    if (state.game.started) return;
    state.game = { ...state.game, started: true };
    if (this.#cancelOnGameStart) {
      for (const o of this.#openOrdersOf(state)) if (o.gameStartExpiry) this.#close(o, 'expired', 'gameStart');
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
    if (this.#settledHead < this.#settled.length) this.#pruneSettled(now);
    for (let t = this.#timers.peek(); t && t.at <= now; t = this.#timers.peek()) {
      this.#timers.pop();
      switch (t.kind) {
        case 'expire': {
          // An edit may have moved the expiry: a timer for an expiry the order no longer has does nothing.
          const order = this.#orders.byToken(t.id);
          if (order?.status === 'open' && order.expiresAt === t.at) this.#close(order, 'expired', 'expiry');
          break;
        }
        case 'gameStart': {
          const g = this.#games.get(t.gameID)?.game;
          if (g && !g.started && g.start <= now) this.#startGame(t.gameID);
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
    this.#closed.push(order.id, this.#clock.now());
    // A closed order is kept for its retention and read rarely: it holds no views meanwhile.
    order.view = null;
    order.listed = null;
  }

  #pruneClosed(now: number): void {
    const closed = this.#closed;
    const horizon = now - this.#retentionMs;
    while (closed.oldestAt() <= horizon || closed.size > this.#retentionCount) this.#orders.delete(closed.shift());
  }

  /**
   * Forget the games whose latest settlement is `settledGameRetentionMs` old, with their
   * bets (ledger rows and every user's list) and the grade versions settled that long ago.
   */
  #pruneSettled(now: number): void {
    let horizon = now - this.#settledRetentionMs;
    const queue = this.#settled;
    const due = () =>
      this.#settledHead < queue.length &&
      (queue[this.#settledHead]!.at <= horizon || this.#settledKept > this.#settledRetentionCount);
    if (!due()) return;
    const forgotten = new Set<number>();
    const accounts = new Set<Account>();
    while (due()) {
      const { gameID, at } = queue[this.#settledHead++]!;
      const state = this.#games.get(gameID);
      // Settled again since: a later entry of the queue stands for it.
      if (!state || !state.game.ended || state.settledAt !== at) continue;
      // Forgotten for the count: everything settled at or before it goes with it, as its
      // retention had passed (grade versions are dropped by settlement time).
      if (at > horizon) horizon = at;
      this.#settledKept--;
      const ledger = this.#ledger;
      for (const bet of state.bets) {
        forgotten.add(bet);
        const account = this.#users.get(ledger.userId(bet));
        if (account) accounts.add(account);
      }
      for (let i = 0; i < state.bets.length; i += 2) ledger.forget(state.bets[i]! >>> 1);
      this.#games.delete(gameID);
      this.#onGameForgotten?.(gameID);
    }
    if (this.#settledHead > 1024 && 2 * this.#settledHead > queue.length) {
      this.#settled = queue.slice(this.#settledHead);
      this.#settledHead = 0;
    }
    for (const account of accounts) {
      const bets = account.bets;
      let kept = 0;
      for (const bet of bets) if (!forgotten.has(bet)) bets[kept++] = bet;
      bets.length = kept;
    }
    // Older versions of a game settled again since go too: its latest version is what counts.
    this.#grades.dropThrough(horizon);
  }

  // ---------------------------------------------------------------- place

  /**
   * Place a batch. Results are positional with `inputs`; one entry may fail while others
   * succeed. A crossing order on a live game answers `delayed` with a ticket; its outcome
   * arrives as a `delayedExecuted` event once `advance()` runs at or after `executeAt`.
   * `liveDelay: false` executes crossing orders at once even on a live game: a backtest
   * replays takers whose delay already passed in the recording. `runDue: false` leaves what
   * is due (expiries, delayed orders) for the next `advance()`: a backtest puts the recorded
   * orders a delayed order could meet into the book first, then lets it run.
   */
  place(
    userId: string,
    inputs: readonly PlaceInput[],
    options?: { readonly liveDelay?: boolean; readonly runDue?: boolean },
  ): PlaceEntry[] {
    if (options?.runDue !== false) this.#advance();
    const allowDelay = options?.liveDelay ?? true;
    const user = this.#users.get(userId);
    // A batch that is not an array has no entries to answer; never throw on it.
    const batch: readonly PlaceInput[] = Array.isArray(inputs) ? inputs : [];
    // Sized up front: pushing would allocate room for 16 entries to answer one.
    const out = new Array<PlaceEntry>(batch.length);
    for (let i = 0; i < batch.length; i++) {
      if (!user) {
        out[i] = failure('validation_error', 'unknown user');
        continue;
      }
      const v = checkPlaceInput(batch[i]!, this.#lookupGame);
      out[i] = typeof v === 'string' ? failure('validation_error', v) : this.#placeValid(user, v, allowDelay, null);
    }
    this.#flush();
    return out;
  }

  #placeValid(user: Account, order: Checked, allowDelay: boolean, edit: EditTarget | null): PlaceEntry {
    const state = order.entry;
    if (state.game.ended) return failure('validation_error', 'game has ended');
    // The expiry is stored as a time: one past the last instant would break every read of it.
    if (order.expirationMinutes !== null && !isEngineTime(this.#clock.now() + order.expirationMinutes * 60_000)) {
      return failure(
        'validation_error',
        `invalid expirationMinutes: ${order.expirationMinutes}; the expiry would fall past the last representable time`,
      );
    }
    // An edit runs against the order as it is now: a delayed one may find it filled or gone.
    let original: OrderState | undefined;
    if (edit !== null) {
      const found = this.#editable(user.id, edit.orderID);
      if ('status' in found && found.status === 'error') return found;
      original = found as OrderState;
    }
    const existing = this.#bookOf(state, order.line);
    const takeSide = existing?.sides[order.line.takeSide];
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
        if (
          order.bet - takeSide!.capacityAtOrBetter(limitRank, order.bet) >
          this.#fokResidual + 1e-12 * Math.max(1, order.bet)
        ) {
          return failure('rejected_order_type_rules', 'fill or kill matched but not fully');
        }
        break;
      case 'limit':
        break;
    }

    const takerRate = order.orderType === 'postArb' ? 0 : user.commissionRate;
    if (
      !(original === undefined
        ? user.canAfford(order.gameID, order.selection, order.bet, takerRate)
        : this.#canAffordReplacing(user, order, takerRate, original))
    ) {
      return failure('rejected_liability', 'Insufficient balance.');
    }

    if (crossing && allowDelay && state.game.live) {
      const delay = this.#liveDelay(state.game.league);
      if (delay > 0) {
        const ticket: DelayedTicket = {
          id: ++this.#ticketSeq,
          userId: user.id,
          order,
          at: this.#clock.now() + delay,
          edit,
        };
        this.#timers.push({ at: ticket.at, kind: 'ticket', ticket });
        return { status: 'delayed', ticket: ticket.id, executeAt: ticket.at };
      }
    }
    const book = existing ?? this.#newBook(state, order.line);
    if (original !== undefined) return this.#applyEdit(user, order, original, edit!, state, book, crossing, takerRate);
    return this.#execute(user, order, state, book, crossing, takerRate);
  }

  /**
   * The liability check of an edit. Its order takes the place of the edited one, so the
   * edited order's resting risk is left out while the new terms are checked.
   */
  #canAffordReplacing(user: Account, order: Checked, takerRate: number, replacing: OrderState): boolean {
    const exposure = replacing.exposure!;
    const resting = replacing.remaining;
    replacing.remaining = 0;
    user.adjustBound(exposure, -resting);
    const ok = user.canAfford(order.gameID, order.selection, order.bet, takerRate);
    replacing.remaining = resting;
    user.adjustBound(exposure, resting);
    return ok;
  }

  // ---------------------------------------------------------------- edit

  /**
   * Edit an open order (the exchange's editOrder): new odds and/or volume (left out or null:
   * unchanged), order type, userReference, expiry. Every rule of a place applies to the new
   * terms: validation, the order type's rules against the book as it is, the liability
   * check (with the edited order's own resting risk left out, since the edit takes its
   * place) and the live delay for a crossing edit on a live game, after which the edit runs
   * against the book and the order as they are then.
   *
   * An unfilled order is amended: it keeps its id and its wagerRequestID, takes what its new
   * terms cross and rests the remainder. It keeps its time priority only when its odds,
   * order type and expiry stay and its volume does not grow; otherwise it goes to the back
   * of its new price level. A partly filled order is cancelled and a new order placed for
   * the whole new volume (its fills are not netted), keeping the original's expiry unless
   * the edit sets one.
   */
  edit(userId: string, input: EditInput, options?: { readonly liveDelay?: boolean }): EditEntry {
    this.#advance();
    const out = this.#edit(userId, input, options?.liveDelay ?? true);
    this.#flush();
    return out;
  }

  #edit(userId: string, input: EditInput, allowDelay: boolean): EditEntry {
    const user = this.#users.get(userId);
    if (!user) return failure('validation_error', 'unknown user');
    if (input === null || typeof input !== 'object') return failure('validation_error', 'edit must be an object');
    const found = this.#editable(userId, input.sessionID);
    if ('status' in found && found.status === 'error') return found;
    const original = found as OrderState;
    const request = editRequestOf(viewOf(original, this.#ids), input);
    if (typeof request === 'string') return failure('validation_error', request);
    const v = checkPlaceInput(request.place, this.#lookupGame);
    if (typeof v === 'string') return failure('validation_error', v);
    if (input.blockIfNoOtherSideOrders === true && !this.#bookOf(v.entry, v.line)?.sides[v.line.takeSide].best()) {
      return failure('rejected_order_type_rules', 'no orders on the other side');
    }
    const target: EditTarget = { orderID: this.#ids.spell(original.id), expiryMinutes: request.expiryMinutes };
    return this.#placeValid(user, v, allowDelay, target) as EditEntry;
  }

  /** The open order of the user an edit names, or why there is none. */
  #editable(userId: string, orderID: unknown): OrderState | EditFailure {
    if (!isObjectId(orderID)) return editFailure('invalid_id', 'invalid order id');
    const order = this.#orders.get(orderID);
    if (!order) return editFailure('not_found', 'order not found');
    if (order.userId !== userId) return editFailure('not_yours', 'unauthorized: order does not belong to user');
    if (order.status !== 'open') {
      const text =
        order.status === 'filled'
          ? 'order already filled'
          : order.status === 'expired'
            ? 'order is expired'
            : 'order already cancelled';
      return editFailure('not_open', text);
    }
    return order;
  }

  /** Carry out an edit that passed every check (see `edit`). */
  #applyEdit(
    user: Account,
    v: Checked,
    original: OrderState,
    edit: EditTarget,
    state: GameState,
    book: MatchingBook,
    crossing: boolean,
    takerRate: number,
  ): PlaceSuccess {
    const now = this.#clock.now();
    const ids = this.#ids;
    const newExpiry = edit.expiryMinutes === null ? original.expiresAt : now + edit.expiryMinutes * 60_000;
    if (original.filled > DUST) {
      this.#close(original, 'cancelled', 'user');
      const outcome = this.#execute(user, v, state, book, crossing, takerRate, newExpiry);
      const replaced: EditSummary = { mode: 'replaced', original: viewOf(original, ids) };
      return withEdit(outcome, replaced);
    }
    const before = viewOf(original, ids);
    const exposure = original.exposure!;
    const keepsPlace =
      v.odds === original.odds &&
      v.orderType === original.orderType &&
      edit.expiryMinutes === null &&
      v.bet <= original.remaining;
    const summary: EditSummary = { mode: 'amended', original: before, queue: keepsPlace ? 'kept' : 'back' };
    if (keepsPlace) {
      const delta = v.bet - original.remaining;
      original.bet = v.bet;
      original.remaining = v.bet;
      original.userReference = v.userReference;
      user.adjustBound(exposure, delta);
      if (this.#listeners.length > 0) this.#emit({ kind: 'orderPlaced', order: viewOf(original, ids) });
      this.#touchSide(original.gameID, original.line.bookKey, original.line.listedSide);
      return { status: 'ok', matched: [], unmatched: this.#unmatchedOf(original), edit: summary };
    }
    // Off the book without a trace: the amended order lives on under the same id as a new
    // record (so its level, which holds the old record, sees it closed; an expiry timer acts
    // only on the expiry it was set for).
    original.status = 'cancelled';
    book.sides[original.line.listedSide].remove(original);
    state.openCount--;
    exposure.removeResting(original);
    user.adjustBound(exposure, -original.remaining);
    this.#touchSide(original.gameID, original.line.bookKey, original.line.listedSide);
    const amended: OrderState = {
      id: original.id,
      wagerRequestID: original.wagerRequestID,
      userId: user.id,
      gameID: original.gameID,
      line: original.line,
      odds: v.odds,
      orderType: v.orderType,
      bet: v.bet,
      filled: 0,
      remaining: v.bet,
      status: 'open',
      closeReason: null,
      createdAt: original.createdAt,
      expiresAt: newExpiry,
      gameStartExpiry: original.gameStartExpiry,
      userReference: v.userReference,
      seq: ++this.#orderSeq,
      level: null,
      exposure: null,
      slot: -1,
      view: null,
      listed: null,
    };
    this.#orders.set(amended.id, amended);
    return withEdit(this.#run(amended, user, state, book, crossing, takerRate), summary);
  }

  /** The `unmatched` part of a place result for a resting order. */
  #unmatchedOf(order: OrderState): UnmatchedResult {
    const wire = order.line.wire;
    const u: { -readonly [K in keyof UnmatchedResult]: UnmatchedResult[K] } = {
      orderID: this.#ids.spell(order.id),
      wagerRequestID: this.#ids.spell(order.wagerRequestID),
      offered: order.remaining,
      odds: order.odds,
      type: wire.type,
      side: wire.side,
      number: wire.number,
    };
    if (wire.market !== undefined) u.market = wire.market;
    if (order.userReference !== null) u.userReference = order.userReference;
    return u;
  }

  /** A delayed order after its wait: it executes only at its own limit or better, as the book is now. */
  #runDelayed(ticket: DelayedTicket): PlaceOutcome {
    const user = this.#users.get(ticket.userId)!;
    const entry = this.#placeValid(user, ticket.order, false, ticket.edit);
    return entry.status === 'delayed' ? failure('system_error', 'delayed order could not execute') : entry;
  }

  #execute(
    user: Account,
    v: Checked,
    state: GameState,
    book: MatchingBook,
    crossing: boolean,
    takerRate: number,
    expiresAt?: number | null,
  ): PlaceSuccess {
    const now = this.#clock.now();
    const order: OrderState = {
      id: this.#ids.take(),
      wagerRequestID: this.#ids.take(),
      userId: user.id,
      gameID: v.gameID,
      line: v.line,
      odds: v.odds,
      orderType: v.orderType,
      bet: v.bet,
      filled: 0,
      remaining: v.bet,
      status: 'open',
      closeReason: null,
      createdAt: now,
      expiresAt:
        expiresAt !== undefined ? expiresAt : v.expirationMinutes === null ? null : now + v.expirationMinutes * 60_000,
      gameStartExpiry: this.#cancelOnGameStart && !state.game.started,
      userReference: v.userReference,
      seq: ++this.#orderSeq,
      level: null,
      exposure: null,
      slot: -1,
      view: null,
      listed: null,
    };
    this.#orders.set(order.id, order);
    return this.#run(order, user, state, book, crossing, takerRate);
  }

  /** Take what the order crosses, then rest its remainder or close it as its type says. */
  #run(
    order: OrderState,
    user: Account,
    state: GameState,
    book: MatchingBook,
    crossing: boolean,
    takerRate: number,
  ): PlaceSuccess {
    const v = order.line;
    const matched = crossing ? this.#match(order, user, state, book.sides[v.takeSide], takerRate) : [];

    let unmatched: UnmatchedResult | null = null;
    if (order.remaining <= DUST) {
      order.remaining = 0;
      order.status = 'filled';
      this.#retire(order);
    } else if (order.orderType === 'fillAndKill' || order.orderType === 'fillOrKill') {
      order.remaining = 0;
      order.status = 'cancelled';
      order.closeReason = order.orderType;
      this.#retire(order);
    } else {
      this.#rest(order, user, state, book);
      unmatched = this.#unmatchedOf(order);
    }
    return { status: 'ok', matched, unmatched };
  }

  #rest(order: OrderState, user: Account, state: GameState, book: MatchingBook): void {
    book.sides[order.line.listedSide].add(order);
    state.openCount++;
    const exposure = user.exposureOf(order.gameID);
    exposure.addResting(order);
    user.adjustBound(exposure, order.remaining);
    if (order.expiresAt !== null) this.#timers.push({ at: order.expiresAt, kind: 'expire', id: order.id });
    if (this.#listeners.length > 0) this.#emit({ kind: 'orderPlaced', order: viewOf(order, this.#ids) });
    this.#touchSide(order.gameID, order.line.bookKey, order.line.listedSide);
  }

  /** Fill the taker against the side, best first; returns the fills' results. */
  #match(
    taker: OrderState,
    takerUser: Account,
    state: GameState,
    side: BookSide,
    takerRate: number,
  ): MatchedFillResult[] {
    const limitRank = oddsRank(taker.odds);
    const now = this.#clock.now();
    const takerIsPostArb = isPostArb(taker);
    const ids = this.#ids;
    const takerRequestID = ids.spell(taker.wagerRequestID);
    const wire = taker.line.wire;
    let takerExposure: GameExposure | undefined;
    let matched: MatchedFillResult[] | null = null;
    let touched = false;
    while (taker.remaining > DUST) {
      const level = side.best();
      if (!level || level.rank < limitRank) break;
      if (takerIsPostArb && !withinPostArbBand(taker.odds, level.listedOdds, this.#postArbTolerance)) break;
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

      const makerExposure = maker.exposure!;
      const makerUser = makerExposure.account;
      maker.filled += makerRisk;
      maker.remaining = makerDone ? 0 : maker.remaining - makerRisk;
      if (makerDone) {
        maker.status = 'filled';
        this.#retire(maker);
        side.remove(maker);
        state.openCount--;
        makerExposure.removeResting(maker);
      }
      taker.filled += stake;
      taker.remaining -= stake;
      if (taker.remaining <= DUST) taker.remaining = 0;

      const makerBet = this.#ledger.record(maker, makerRisk, taker, stake, takerRate, now);
      const takerBet = makerBet + 1;
      takerExposure ??= takerUser.exposureOf(taker.gameID);
      state.bets.push(makerBet, takerBet);
      makerUser.bets.push(makerBet);
      makerExposure.addBet(makerBet);
      takerUser.bets.push(takerBet);
      takerExposure.addBet(takerBet);
      // The maker's money is not needed until read: its bet keeps only amount and odds.
      // This object never leaves the loop (the event gets its own), so it costs no allocation.
      const money = fillMoney(stake, level.listedOdds, takerRate);
      takerUser.adjustBound(takerExposure, money.risk);
      // The maker's resting risk became a matched bet of the same risk: only the exact
      // worst case needs recomputing.
      makerUser.adjustBound(makerExposure, 0);
      state.matchedVolume += stake + makerRisk;
      touched = true;

      const result: { -readonly [K in keyof MatchedFillResult]: MatchedFillResult[K] } = {
        amount: stake,
        odds: level.listedOdds,
        number: wire.number,
        type: wire.type,
        side: wire.side,
        orderID: ids.spell(maker.id),
        txID: this.#ledger.txID(makerBet),
        wagerRequestID: takerRequestID,
        risk: money.risk,
        win: money.win,
        winWithoutCommission: money.winWithoutCommission,
      };
      if (wire.market !== undefined) result.market = wire.market;
      if (taker.userReference !== null) result.userReference = taker.userReference;
      // Most takers fill once: an array of one, not room for sixteen.
      if (matched === null) matched = [result];
      else matched.push(result);
      if (this.#listeners.length > 0) {
        this.#emit({
          kind: 'fill',
          fill: {
            txID: result.txID,
            gameID: taker.gameID,
            bookKey: taker.line.bookKey,
            at: now,
            isPostArb: takerIsPostArb,
            taker: {
              userId: taker.userId,
              orderID: ids.spell(taker.id),
              wagerRequestID: takerRequestID,
              selection: taker.line.selection,
              wire,
              money: fillMoney(stake, level.listedOdds, takerRate),
              userReference: taker.userReference,
              orderCreatedAt: taker.createdAt,
            },
            maker: {
              userId: maker.userId,
              orderID: result.orderID,
              wagerRequestID: ids.spell(maker.wagerRequestID),
              selection: maker.line.selection,
              wire: maker.line.wire,
              money: fillMoney(makerRisk, maker.odds, 0),
              userReference: maker.userReference,
              orderCreatedAt: maker.createdAt,
            },
            makerOrderAfter: viewOf(maker, this.#ids),
          },
        });
      }
    }
    if (touched) this.#touchSide(taker.gameID, taker.line.bookKey, taker.line.takeSide);
    return matched ?? [];
  }

  // ---------------------------------------------------------------- cancel

  cancel(userId: string, orderID: unknown): CancelOutcome {
    this.#advance();
    const outcome = this.#cancelOne(userId, orderID, 'user');
    this.#flush();
    return outcome;
  }

  cancelMany(userId: string, orderIDs: readonly unknown[]): CancelOutcome[] {
    this.#advance();
    const out = orderIDs.map((id) => this.#cancelOne(userId, id, 'user'));
    this.#flush();
    return out;
  }

  /** Cancel every open order of the user matching the filter (all of them without one). */
  cancelAll(userId: string, filter: CancelFilter = {}, reason: CloseReason = 'user'): CancelOutcome[] {
    this.#advance();
    const out: CancelOutcome[] = [];
    for (const o of this.#openOrdersOfUser(userId)) {
      if (filter.gameID !== undefined && o.gameID !== filter.gameID) continue;
      const wire = o.line.wire;
      if (filter.type !== undefined && wire.type !== filter.type) continue;
      if (filter.side !== undefined && wire.side !== filter.side) continue;
      if (filter.market !== undefined && wire.market !== filter.market) continue;
      out.push(this.#cancelOne(userId, this.#ids.spell(o.id), reason));
    }
    this.#flush();
    return out;
  }

  #cancelOne(userId: string, orderID: unknown, reason: CloseReason): CancelOutcome {
    if (!isObjectId(orderID)) return { success: false, code: 'invalid_id', reason: 'invalid order ID format' };
    const order = this.#orders.get(orderID);
    if (!order) return { success: false, code: 'not_found', reason: 'order not found' };
    if (order.userId !== userId)
      return { success: false, code: 'not_yours', reason: 'unauthorized: order does not belong to user' };
    if (order.status !== 'open') {
      const reasonText =
        order.status === 'filled'
          ? 'order already filled'
          : order.status === 'expired'
            ? 'order is expired'
            : 'order already cancelled';
      return { success: false, code: 'not_cancellable', reason: reasonText, order: viewOf(order, this.#ids, orderID) };
    }
    // The event's view is the answer's too: the order does not change between them.
    const view = this.#close(order, 'cancelled', reason, orderID);
    return { success: true, order: view ?? viewOf(order, this.#ids, orderID) };
  }

  /**
   * Take an open order off the book; `remaining` keeps the amount at that moment for
   * reporting. Returns the view its event carries (null when no one listens); `id` is the
   * order's id when the caller has it spelt.
   */
  #close(order: OrderState, status: 'cancelled' | 'expired', reason: CloseReason, id?: string): OrderView | null {
    const state = this.#games.get(order.gameID)!;
    const line = order.line;
    const book = this.#bookOf(state, line)!;
    const exposure = order.exposure!;
    const user = exposure.account;
    order.status = status;
    order.closeReason = reason;
    this.#retire(order);
    book.sides[line.listedSide].remove(order);
    state.openCount--;
    exposure.removeResting(order);
    user.adjustBound(exposure, -order.remaining);
    let view: OrderView | null = null;
    if (this.#listeners.length > 0) {
      view = viewOf(order, this.#ids, id);
      this.#emit({ kind: status === 'cancelled' ? 'orderCancelled' : 'orderExpired', order: view });
    }
    this.#touchSide(order.gameID, line.bookKey, line.listedSide);
    return view;
  }

  // ---------------------------------------------------------------- settlement

  /** End a game with its final score and grade every bet on it; on an ended game, regrade. */
  settleGame(gameID: string, score: Score): Result<readonly GradeVersion[], EngineError<GameErrorCode>> {
    if (!isValidScore(score))
      return err({ code: 'invalid_game', message: 'score needs non-negative integer away and home' });
    return this.#settle(gameID, { kind: 'score', score });
  }

  /** Refund every bet on the game (ending it if needed): a new version of each row. */
  refundGame(gameID: string): Result<readonly GradeVersion[], EngineError<GameErrorCode>> {
    return this.#settle(gameID, { kind: 'refund' });
  }

  #settle(gameID: string, verdict: Verdict): Result<readonly GradeVersion[], EngineError<GameErrorCode>> {
    this.advance(); // flushes due work's events now: the error return below does not flush
    const state = this.#games.get(gameID);
    if (!state) return err({ code: 'game_not_found', message: `game ${gameID} not found` });
    const wasEnded = state.game.ended;
    for (const o of this.#openOrdersOf(state)) this.#close(o, 'expired', 'gameEnded');
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
    const ledger = this.#ledger;
    for (const b of state.bets) {
      const bet = ledger.bet(b);
      const grade = nextGrade(bet, verdict, this.#gradeSeq, now);
      if (!grade) continue;
      this.#gradeSeq++;
      const user = this.#users.get(bet.userId)!;
      user.balance += grade.result - (bet.grade?.result ?? 0);
      if (bet.grade) this.#addFee(bet.userId, bet.grade.settledAt, -bet.grade.fee);
      this.#addFee(bet.userId, grade.settledAt, grade.fee);
      ledger.setGrade(b, grade);
      touchedUsers.add(user);
      this.#grades.append(grade);
      graded.push(grade);
      this.#emit({ kind: 'betGraded', bet: ledger.view(b), grade });
    }
    for (const user of this.#users.values()) user.release(gameID);
    const firstSettlement = Number.isNaN(state.settledAt);
    state.settledAt = now;
    if (this.#settledRetentionMs !== Infinity || this.#settledRetentionCount !== Infinity) {
      this.#settled.push({ gameID, at: now });
      if (firstSettlement) this.#settledKept++;
    }
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

  game(gameID: string): EngineGame | undefined {
    return this.#games.get(gameID)?.game;
  }

  games(): EngineGame[] {
    return [...this.#games.values()].map((s) => s.game);
  }

  order(orderID: string): OrderView | undefined {
    const o = this.#orders.get(orderID);
    return o ? viewOf(o, this.#ids) : undefined;
  }

  /** Whether the order is at the best listed price of its side. */
  isBestOffer(orderID: string): boolean {
    const o = this.#orders.get(orderID);
    if (!o || o.status !== 'open') return false;
    const best = this.#games.get(o.gameID)?.books.get(o.line.bookKey)?.sides[o.line.listedSide].best();
    return best !== undefined && best.rank === listedRankOf(o);
  }

  openOrders(userId: string): OrderView[] {
    const ids = this.#ids;
    return this.#openOrdersOfUser(userId).map((o) => viewOf(o, ids));
  }

  bets(userId: string): BetView[] {
    const ledger = this.#ledger;
    return (this.#users.get(userId)?.bets ?? []).map((b) => ledger.view(b));
  }

  betsOfGame(gameID: string): BetView[] {
    const ledger = this.#ledger;
    return (this.#games.get(gameID)?.bets ?? []).map((b) => ledger.view(b));
  }

  /** The user's grade versions within the retention, in settlement order (oldest first). */
  grades(userId: string): readonly GradeVersion[] {
    return this.#grades.entries(userId);
  }

  /**
   * Commission the user paid on bets whose latest settlement falls in [from, to), both
   * midnight UTC: by day, so bets the settled-game retention forgot still count.
   */
  feesSettled(userId: string, from: number, to: number): number {
    let paid = 0;
    for (const [day, fee] of this.#feesByDay.get(userId) ?? []) if (day >= from && day < to) paid += fee;
    return paid;
  }

  #addFee(userId: string, at: number, fee: number): void {
    if (fee === 0) return;
    let days = this.#feesByDay.get(userId);
    if (!days) this.#feesByDay.set(userId, (days = new Map()));
    const day = Math.floor(at / 86_400_000) * 86_400_000;
    days.set(day, (days.get(day) ?? 0) + fee);
  }

  /** How many of the user's grade versions the retention dropped: the whole-log position of `grades(userId)[0]`. */
  gradesDropped(userId: string): number {
    return this.#grades.dropped(userId);
  }

  /** What the engine holds now: games (open and ended), orders (open and closed within retention), fills, grade versions. */
  retainedCounts(): {
    readonly games: number;
    readonly orders: number;
    readonly fills: number;
    readonly gradeVersions: number;
  } {
    return {
      games: this.#games.size,
      orders: this.#orders.size,
      fills: this.#ledger.liveFills,
      gradeVersions: this.#grades.size,
    };
  }

  account(userId: string): AccountView | undefined {
    const a = this.#users.get(userId);
    return a ? this.#accountView(a) : undefined;
  }

  #accountView(a: Account): AccountView {
    const exposure = a.exactExposure();
    return {
      id: a.id,
      balance: a.balance,
      creditLimit: a.creditLimit,
      commissionRate: a.commissionRate,
      exposure: exposure === 0 ? 0 : -exposure,
    };
  }

  /** Worst-case loss over the user's matched bets on the game (≤ 0), as getGameLiability reports it. */
  gameLiability(userId: string, gameID: string): number {
    const g = this.#users.get(userId)?.games.get(gameID);
    return g ? g.matchedLiability() : 0;
  }

  /** Worst case on the game with every resting order counted where it loses (≤ 0): what the liability check holds against the balance. */
  gameProjectedLiability(userId: string, gameID: string): number {
    const loss = this.#users.get(userId)?.games.get(gameID)?.exactLoss() ?? 0;
    return loss === 0 ? 0 : -loss;
  }

  matchedVolume(gameID: string): number {
    return this.#games.get(gameID)?.matchedVolume ?? 0;
  }

  /** Books of a game with the selection a taker backs on each side. */
  books(gameID: string): { readonly key: string; readonly selections: readonly [Selection, Selection] }[] {
    const state = this.#games.get(gameID);
    return state ? [...state.books.values()].map((b) => ({ key: b.key, selections: b.selections })) : [];
  }

  /** Orders takers of `side` can take, best first (the side's `sideOrders`). */
  bookSide(gameID: string, bookKey: string, side: 0 | 1): ListedOrder[] {
    const book = this.#games.get(gameID)?.books.get(bookKey);
    if (!book) return [];
    // Plain loops, not the side's generator: every listing of a side is read through here.
    // Counted first, so the list is made at its size: grown by push, a list of a few orders
    // takes room for seventeen.
    const levels = book.sides[side].levels;
    let n = 0;
    for (const level of levels) {
      const orders = level.orders;
      for (let i = level.head; i < orders.length; i++) if (orders[i]!.status === 'open') n++;
    }
    const out = new Array<ListedOrder>(n);
    if (n === 0) return out;
    let k = 0;
    for (const level of levels) {
      const orders = level.orders;
      for (let i = level.head; i < orders.length; i++) {
        const o = orders[i]!;
        if (o.status === 'open') out[k++] = listedOf(o, this.#ids);
      }
    }
    return out;
  }

  /** Count of open orders on the game, across every book. */
  openOrderCount(gameID: string): number {
    return this.#games.get(gameID)?.openCount ?? 0;
  }

  #newBook(state: GameState, line: InternedSelection): MatchingBook {
    const selection = line.selection;
    const other = oppositeSelection(selection);
    const selections: [Selection, Selection] = line.takeSide === 0 ? [selection, other] : [other, selection];
    const book = new MatchingBook(state.game.id, line.bookKey, selections);
    state.books.set(line.bookKey, book);
    line.book = book;
    return book;
  }

  /** The selection's book, if the game has it yet; kept on the interned selection once found. */
  #bookOf(state: GameState, line: InternedSelection): MatchingBook | undefined {
    if (line.book !== null) return line.book;
    const book = state.books.get(line.bookKey);
    if (book !== undefined) line.book = book;
    return book;
  }

  /** Open orders of the game, oldest first. */
  #openOrdersOf(state: GameState): OrderState[] {
    const out: OrderState[] = [];
    for (const book of state.books.values()) for (const side of book.sides) for (const o of side.orders()) out.push(o);
    return out.sort(bySeq);
  }

  /** Open orders of the user, oldest first. */
  #openOrdersOfUser(userId: string): OrderState[] {
    const out: OrderState[] = [];
    const account = this.#users.get(userId);
    if (account) for (const g of account.games.values()) for (const o of g.resting) out.push(o);
    return out.sort(bySeq);
  }

  /** The wire spelling of a selection on a game (for hosts rendering books). */
  wireOf(gameID: string, selection: Selection) {
    const g = this.#games.get(gameID)?.game;
    return g ? wireOf(g, selection) : undefined;
  }
}

/**
 * A place outcome with what became of the edited order: the fields a spread of `outcome`
 * followed by `edit` would give, in that order, spelt as one literal (the outcome is always
 * #run's, with these three fields), which builds it several times faster than a spread.
 */
function withEdit(outcome: PlaceSuccess, edit: EditSummary): PlaceSuccess {
  return { status: outcome.status, matched: outcome.matched, unmatched: outcome.unmatched, edit };
}
