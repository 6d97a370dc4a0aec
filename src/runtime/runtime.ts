import type { Logger } from 'pino';
import {
  filter,
  firstValueFrom,
  tap,
  throwError,
  timeout,
  type SchedulerAction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import { MarketModel } from '../market-model/market-model.ts';
import { OwnBook } from '../orders/own-book.ts';
import type { OwnOrder, TradingMode } from '../market-model/types.ts';
import type { AccountSnapshot, ConnectionStates } from '../exchange/client.ts';
import { gradedPages$ } from '../exchange/rest/graded-walker.ts';
import { PnlLedger } from './pnl-ledger.ts';
import type { OrderGateway } from '../exchange/orders/types.ts';
import type { GradedRow } from '../exchange/schemas/bets.ts';
import type { OrderbookGame } from '../exchange/schemas/exchange.ts';
import type { PriceFeedEvent } from '../exchange/schemas/price-feed.ts';
import type { UserFeedEvent } from '../exchange/socket/user-feed-events.ts';
import type { Clock } from '../shared/clock.ts';
import { componentChild } from '../shared/logger.ts';
import { HeartbeatWatch } from './heartbeat-watch.ts';
import { OrderManager, resultClientIds, type GatewayResult, type OrderManagerNotice } from '../orders/order-manager.ts';
import type { RiskLimits } from '../orders/risk-gate.ts';
import { ENDED_GAME_SWEEP_MS, forgettableGames } from './ended-games.ts';
import { killSwitchReason } from '../orders/gate-close-reason.ts';
import { reasonText } from '../orders/transition-reason.ts';
import {
  connectionDown,
  SHUTTING_DOWN,
  STARTING,
  USER_FEED_RECOVERING,
  type HaltingConnection,
  type HaltReason,
} from './halt-reason.ts';
import { FeedsNotOpenError } from './errors.ts';
import { bestListed } from './best-listed.ts';
import { RefusalMemory } from './refusal-memory.ts';
import { confirmNothingOpen, waitForOrdersGone, type ShutdownHost } from './shutdown.ts';
import { EventLoop } from './event-loop.ts';
import { BookResync, leaguesOf, readOrderbook } from './book-resync.ts';
import { EvaluationScheduler } from './evaluation-scheduler.ts';
import { HaltRegistry } from './halt-registry.ts';
import { PairEvaluator, type Decision } from './pair-evaluator.ts';
import { StrategyErrors, type StrategyErrorEvent } from './strategy-errors.ts';
import { checkStrategyIds, strategyGameKey } from './strategy-game-key.ts';
import type { StrategyInstance } from './strategy-instance.ts';
import { openOrdersThenBets } from '../exchange/rest/open-orders-then-bets.ts';
import { totalSidesOf } from '../orders/total-sides.ts';
import type { Venue } from './venue.ts';

/** How long start-up waits for the feeds' first connections, runtime-clock ms. */
export const FEEDS_OPEN_TIMEOUT_MS = 30_000;

/**
 * How often unknown order outcomes are looked up over REST; also how long a fill a cancel
 * answer reported may wait for the user feed before REST's matched bets are read for it.
 */
const UNKNOWN_RECONCILE_MS = 3_000;

export interface RuntimeOptions {
  readonly exchange: Venue;
  /** Which gateway places and cancels: REST or the orders socket. */
  readonly gateway: 'rest' | 'socket';
  readonly strategies: readonly StrategyInstance[];
  readonly limits: RiskLimits;
  readonly usePostArb: boolean;
  readonly heartbeatSeconds: number;
  /** How often a heartbeat goes out, runtime ms (default: a third of the timeout). */
  readonly heartbeatEveryMs?: number;
  readonly cancelUnknownOrdersAtStart: boolean;
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  readonly runId: string;
  /** Checked every tick: true means stop quoting and cancel everything. */
  readonly killSwitch?: () => string | null;
  /** How often the runtime ticks (heartbeat, kill switch, throttled evaluations). */
  readonly tickMs?: number;
  /** How long start() waits for the price and user feeds to open before it fails (FeedsNotOpenError). Default 30 000. */
  readonly feedsOpenTimeoutMs?: number;
  /**
   * Fair probabilities by game and book key, from a configured feed. A new map whenever a
   * game's values change: a strategy that read them is asked again only when the map is
   * another object (see strategy-memo.ts).
   */
  readonly fair?: (gameID: string) => ReadonlyMap<string, number> | null;
  /** Every change of a strategy's intents on a game: what a recording keeps to compare runs by. */
  readonly onDecision?: (d: Decision) => void;
  /** Every strategy error as it is counted (a backtest's `--strict` stops at the first). */
  readonly onStrategyError?: (e: StrategyErrorEvent) => void;
}

export type { Decision } from './pair-evaluator.ts';

type RuntimeEvent =
  | { readonly kind: 'price'; readonly event: PriceFeedEvent }
  | { readonly kind: 'user'; readonly event: UserFeedEvent<AccountSnapshot> }
  /** The user feed started or finished catching up (its recovering$). */
  | { readonly kind: 'user-recovery'; readonly recovering: boolean }
  | { readonly kind: 'gateway'; readonly result: GatewayResult }
  | { readonly kind: 'connections'; readonly states: ConnectionStates }
  | { readonly kind: 'graded'; readonly rows: readonly GradedRow[] }
  | { readonly kind: 'rest-snapshot'; readonly snapshot: AccountSnapshot }
  /** The orderbook read again after the price feed reconnected (null: the read failed). */
  | { readonly kind: 'books'; readonly games: readonly OrderbookGame[] | null }
  /** The periodic housekeeping (kill switch, heartbeat, reconciliation, ended games). */
  | { readonly kind: 'tick' }
  /** Only a look at the dirty games: a throttle or a cooldown ran out. */
  | { readonly kind: 'wake' };

const wrapPrice = (event: PriceFeedEvent): RuntimeEvent => ({ kind: 'price', event });

/** The events that carry nothing: one object each, not one per tick or wake-up. */
const TICK: RuntimeEvent = { kind: 'tick' };
const WAKE: RuntimeEvent = { kind: 'wake' };

export interface RuntimeStatus {
  readonly mode: TradingMode;
  readonly haltReasons: readonly HaltReason[];
  readonly games: number;
  readonly quotedGames: number;
  readonly openOrders: number;
  readonly fills: number;
  readonly makerVolume: number;
  readonly takerVolume: number;
  readonly worstCase: number;
  readonly realizedPnl: number;
  readonly commissionPaid: number;
  readonly orders: OrderManager['stats'];
  /** Strategy errors counted since start (failed quote() calls plus malformed intents), and per strategy id. */
  readonly strategyErrors: { readonly total: number; readonly byStrategy: Readonly<Record<string, number>> };
  /** Times the exchange's dead man's switch fired on us, as far as we can tell (see HeartbeatWatch). */
  readonly heartbeatLapses: number;
  /** Orders of ours the exchange cancelled for a lapsed heartbeat. */
  readonly heartbeatCancels: number;
}

/** How long after a game's start the exchange's notice of an order it expired at the start may come. */
const START_EXPIRY_NOTICE_MS = 60_000;

/**
 * The bot: one event loop through which every change passes, in order — price-feed
 * events into the market model, user-feed events and gateway answers into our own book,
 * then the strategies of the games that changed (throttled per strategy and game), then
 * one order-manager cycle. Strategies see immutable snapshots and return intents; only this
 * loop writes. The same loop runs live, on paper and in a backtest: only the exchange
 * behind `exchange` and the clock differ.
 */

export class Runtime {
  readonly market: MarketModel;
  readonly own: OwnBook;
  readonly orders: OrderManager;
  readonly #o: RuntimeOptions;
  readonly #log: Logger;
  /** The one queue every change passes through, and the errors it caught. */
  readonly #loop: EventLoop<RuntimeEvent>;
  /** Which strategy–game pairs are due for an evaluation, and the wake-ups pending for them. */
  readonly #due: EvaluationScheduler;
  /** What an evaluation does, and the memos, decisions and counts it keeps. */
  readonly #pairs: PairEvaluator;
  readonly #subs: Subscription[] = [];
  /** Realised P&L, commission paid and the account's commission rate. */
  readonly #pnl = new PnlLedger();
  /** Why the runtime may not trade now, and the operator's modes. */
  readonly #halts = new HaltRegistry();
  /** The refusals each strategy's view shows on each game. */
  readonly #refusals = new RefusalMemory();
  #stopping = false;
  #reconciling = false;
  #lastReconcile = -Infinity;
  #lastHeartbeat = -Infinity;
  readonly #heartbeat = new HeartbeatWatch();
  #lastEndedSweep = -Infinity;
  #killed: string | null = null;
  #priceEvents = 0;
  #userFeedCursor: string | null = null;
  /** Feed events that arrived while start-up read the account over REST (null once it has). */
  #startupHeld: RuntimeEvent[] | null = null;
  /** The books read again after a price-feed reconnect, and the price events held meanwhile. */
  readonly #books: BookResync<RuntimeEvent>;
  /** The leagues the strategies watch (null: every league). */
  readonly #leagues: readonly string[] | null;
  /** Strategy failures by strategy, kind and distinct error; logs each distinct one once. */
  readonly strategyErrors: StrategyErrors;
  readonly #now = (): number => this.#o.clock.now();
  readonly #settle = (gameID: string): void => this.own.settle(gameID);

  constructor(options: RuntimeOptions) {
    checkStrategyIds(options.strategies);
    this.#o = options;
    this.#log = options.logger;
    this.strategyErrors = new StrategyErrors({
      logger: options.logger,
      ...(options.onStrategyError ? { onError: options.onStrategyError } : {}),
    });
    this.own = new OwnBook({
      commissionRate: () => this.#pnl.commissionRate,
      // Every order moves several times: the record is built only when it will be written.
      onTransition: (o, from, reason) => {
        if (this.#log.isLevelEnabled('debug'))
          this.#log.debug(
            {
              clientId: o.clientId,
              orderID: o.orderID,
              strategy: o.strategyId,
              from,
              to: o.status,
              reason: reasonText(reason, o),
            },
            'order transition',
          );
      },
      // A bug of ours, never applied: said loudly, and counted in own.lifecycle.illegal.
      onIllegalTransition: (err) =>
        this.#log.error(
          { err, clientId: err.clientId, from: err.from, event: err.event },
          'illegal order transition refused',
        ),
    });
    this.market = new MarketModel(this.own.ownOrderIDs());
    const gateway: OrderGateway = options.gateway === 'socket' ? options.exchange.orders : options.exchange.rest;
    this.orders = new OrderManager({
      own: this.own,
      market: this.market,
      gateway,
      limits: options.limits,
      usePostArb: options.usePostArb,
      clock: options.clock,
      logger: componentChild(options.logger, 'orders'),
      runId: options.runId,
      deliver: (result) => this.dispatch({ kind: 'gateway', result }),
      notify: (n) => this.#onNotice(n),
      commissionRate: () => this.#pnl.commissionRate,
    });
    this.#pairs = new PairEvaluator({
      market: this.market,
      own: this.own,
      commissionRate: () => this.#pnl.commissionRate,
      fair: options.fair,
      refusals: this.#refusals,
      strategyErrors: this.strategyErrors,
      onDecision: options.onDecision,
      priceEvents: () => this.#priceEvents,
      askAgainIn: (pair, ms) => this.#due.askAgainIn(pair, ms),
      lookAtGameAt: (gameID, at, now) => this.#due.lookAtGameAt(gameID, at, now),
    });
    this.#loop = new EventLoop<RuntimeEvent>({
      apply: (e) => this.#apply(e),
      settle: () => this.#due.run(this.#o.clock.now()),
      logger: options.logger,
    });
    this.#leagues = leaguesOf(options.strategies);
    this.#books = new BookResync<RuntimeEvent>({
      market: this.market,
      rest: options.exchange.rest,
      scheduler: options.scheduler,
      logger: options.logger,
      leagues: this.#leagues,
      halt: (reason) => this.#halt(reason),
      resume: (reason) => this.#resume(reason),
      stopping: () => this.#stopping,
      deliver: (games) => this.dispatch({ kind: 'books', games }),
      requeue: (held) => this.#loop.requeue(held),
      markGame: (gameID) => this.#due.markGame(gameID),
      cancelGame: (gameID) => this.orders.cancelAll('game left the board', { gameID }, { sweep: true }),
    });
    this.#due = new EvaluationScheduler({
      strategies: options.strategies,
      market: this.market,
      scheduler: options.scheduler,
      halts: this.#halts,
      evaluator: this.#pairs,
      cycle: (work) => this.orders.cycle(work),
      wake: () => this.dispatch(WAKE),
    });
  }

  get mode(): TradingMode {
    return this.#halts.mode;
  }

  /**
   * The operator's word on a strategy (or, without `strategyId`, the whole process):
   * `reducing` lets only orders through whose fill lowers the worst case; `halted` pulls
   * its quotes; `active` lifts either. Feed and safety halts still win over `active`.
   */
  setMode(mode: TradingMode, strategyId?: string): void {
    this.#halts.setOperatorMode(mode, strategyId);
    if (mode === 'halted') this.#due.pullHeld();
    this.#log.warn({ mode, strategy: strategyId ?? 'all' }, 'trading mode set by the operator');
    if (mode === 'halted')
      this.orders.cancelAll('halted by the operator', strategyId === undefined ? {} : { strategyId });
    this.#due.markAll();
    this.dispatch(TICK);
  }

  /** The mode a strategy trades in now: the strictest of the process's, the operator's and its own. */
  modeOf(strategyId: string): TradingMode {
    return this.#halts.modeOf(strategyId);
  }

  /**
   * Log in, open the feeds, load the games the strategies want and reconcile with the
   * account, then apply what the feeds said meanwhile, and start quoting.
   *
   * The feeds open before the REST reads, and their events wait until those are in: a fill
   * between the account's REST read and the user feed's first message would otherwise never
   * reach the own book (an order the exchange filled would stay resting here, its position
   * unknown), and a side updated between the orderbook read and the price feed's first
   * message would stay stale until its next update. What arrived meanwhile is applied on
   * top of the REST state, as a cursor replay is: fills are booked once (txID), an order's
   * messages come in order and its last one stands, and a side's last update replaces it.
   */
  async start(): Promise<void> {
    const { exchange } = this.#o;
    const now = () => this.#o.clock.now();
    const held: RuntimeEvent[] = [];
    this.#startupHeld = held;
    this.#subs.push(exchange.priceFeed.events$.subscribe((event) => this.#priceEvent(event)));
    this.#subs.push(exchange.userFeed.events$.subscribe((event) => this.#feedEvent({ kind: 'user', event })));
    // Through #feedEvent like the messages, so it keeps its place among them (held at start-up alike).
    this.#subs.push(
      exchange.userFeed.recovering$.subscribe((recovering) => this.#feedEvent({ kind: 'user-recovery', recovering })),
    );
    this.#subs.push(exchange.states$.subscribe((states) => this.dispatch({ kind: 'connections', states })));
    let booksReadFor: number;
    try {
      booksReadFor = await this.#loadAccount();
    } catch (err) {
      // Nothing of a failed start stays behind: no subscription.
      for (const sub of this.#subs) sub.unsubscribe();
      this.#subs.length = 0;
      throw err;
    } finally {
      this.#startupHeld = null;
    }
    for (const e of held) this.#loop.enqueue(e);
    if (this.#o.gateway === 'socket') exchange.orders.start();
    // The tick an action that schedules itself again, as RxJS's interval runs it (the tick first,
    // then the next one), without an observable and its subscriber between the clock and the loop.
    const tickMs = Math.max(0, this.#o.tickMs ?? 1_000);
    const tick = (): void => this.dispatch(TICK);
    this.#subs.push(
      this.#o.scheduler.schedule(function (this: SchedulerAction<unknown>) {
        tick();
        this.schedule(undefined, tickMs);
      }, tickMs),
    );
    const walker = exchange.rest.gradedWalker({ since: new Date(now()).toISOString() });
    this.#subs.push(
      gradedPages$(walker).subscribe({
        next: (page) => page.rows.length > 0 && this.dispatch({ kind: 'graded', rows: page.rows }),
        error: (err: unknown) => this.#log.error({ err }, 'graded walk stopped'),
      }),
    );
    this.#resume(STARTING);
    // The price feed reconnected during start-up's read: read again, now that its held events are in.
    if (this.#books.connection !== booksReadFor) this.#books.begin();
    this.#due.markAll();
    this.dispatch(TICK);
  }

  /** Start-up's reads: the account, the feeds opened, the books and our orders and bets reconciled. The price connection the books were read on. */
  async #loadAccount(): Promise<number> {
    const { exchange } = this.#o;
    await exchange.rest.login();
    const me = await exchange.rest.getMe();
    this.#pnl.setCommissionRate(me.commissionCharged);
    const leagues = this.#leagues;
    if (leagues !== null) exchange.priceFeed.subscribe({ leagueIDs: leagues }, { replace: true });
    exchange.priceFeed.start();
    exchange.userFeed.start();
    await this.#feedsOpen();
    const readFor = this.#books.connection;
    const games = await readOrderbook(exchange.rest, leagues);
    for (const g of games) this.market.applySnapshot(g, this.#o.clock.now());
    const { unmatched, bets } = await openOrdersThenBets(exchange.rest);
    const rest = exchange.rest;
    const totalSides = rest.lookupOrder
      ? await totalSidesOf(
          unmatched,
          (u) => this.orders.adopts(u),
          (id) => rest.lookupOrder!(id),
        )
      : undefined;
    const r = this.orders.reconcile(unmatched, bets, {
      cancelForeign: this.#o.cancelUnknownOrdersAtStart,
      gameLookup: (id) => this.market.has(id),
      ...(totalSides ? { totalSides } : {}),
    });
    this.#log.info(
      {
        games: games.length,
        adopted: r.adopted,
        foreignOpenOrders: r.foreign,
        openBets: bets.length,
        commission: this.#pnl.commissionRate,
        heldFeedEvents: this.#startupHeld?.length ?? 0,
      },
      'model loaded',
    );
    return readFor;
  }

  /**
   * A price-feed event, the busiest input: applied without an event object around it while
   * nothing is held or waiting, else through #feedEvent as any feed's event.
   */
  #priceEvent(event: PriceFeedEvent): void {
    if (this.#startupHeld !== null || this.#books.holding) this.#feedEvent({ kind: 'price', event });
    else this.#loop.dispatchAs('price', event, this.#applyPrice, wrapPrice);
  }

  /** A feed's event: into the loop, or held while start-up reads the account, or a resync the books, over REST. */
  #feedEvent(e: RuntimeEvent): void {
    if (this.#startupHeld) this.#startupHeld.push(e);
    else if (e.kind === 'price' && this.#books.hold(e)) return;
    else this.dispatch(e);
  }

  /** Both feeds open (their first connection made), or FeedsNotOpenError after `feedsOpenTimeoutMs`. */
  async #feedsOpen(): Promise<void> {
    const ms = this.#o.feedsOpenTimeoutMs ?? FEEDS_OPEN_TIMEOUT_MS;
    let last: ConnectionStates | null = null;
    await firstValueFrom(
      this.#o.exchange.states$.pipe(
        tap((s) => (last = s)),
        filter((s) => s.price.status === 'open' && s.user.status === 'open'),
        timeout({
          first: ms,
          scheduler: this.#o.scheduler,
          with: () => throwError(() => new FeedsNotOpenError(ms, last)),
        }),
      ),
    );
  }

  /** Feed one event into the loop; events arriving while one is processed wait their turn. */
  dispatch(e: RuntimeEvent): void {
    this.#loop.dispatch(e);
  }

  #apply(e: RuntimeEvent): void {
    const now = this.#o.clock.now();
    switch (e.kind) {
      case 'price':
        this.#applyPrice(e.event);
        return;
      case 'user': {
        const ev = e.event;
        if ('messageID' in ev) this.#userFeedCursor = ev.messageID;
        // A gap halts through the feed's recovering$ (USER_FEED_RECOVERING): it holds until the
        // last pending reconciliation is in, where one `reconciled` may not be the last.
        if (ev.type === 'gapWarning') return;
        if (ev.type === 'reconciled') {
          this.#reconcileWith(ev.result);
          this.#due.markAll();
          return;
        }
        if (ev.type === 'reconcileFailed') {
          this.#log.error(
            { error: ev.error.message, retryInMs: ev.retryInMs },
            'reconciliation failed: staying halted until the feed client tries again and succeeds',
          );
          return;
        }
        if (ev.type === 'unclassified') return;
        this.orders.onUserFeed(ev);
        if (ev.message.gameID) this.#due.markGame(ev.message.gameID);
        return;
      }
      case 'user-recovery':
        // The feed's own word on when its replay or reconciliation is in: the socket being
        // open again, or one `reconciled` while a second gap's reconciliation is pending,
        // is not enough.
        if (e.recovering) this.#halt(USER_FEED_RECOVERING);
        else this.#resume(USER_FEED_RECOVERING);
        return;
      case 'gateway':
        this.orders.onResult(e.result);
        this.#answered(e.result);
        return;
      case 'connections': {
        const s = e.states;
        const down = (c: HaltingConnection, up: boolean) =>
          up ? this.#resume(connectionDown(c)) : this.#halt(connectionDown(c));
        down('price feed', s.price.status === 'open');
        if (s.price.status === 'open') this.#books.priceOpen(s.price.connection, this.#startupHeld !== null);
        down('user feed', s.user.status === 'open');
        if (this.#o.gateway === 'socket') down('orders socket', s.orders.status === 'open');
        return;
      }
      case 'graded':
        this.#pnl.count(e.rows, this.#now, this.#settle);
        return;
      case 'rest-snapshot':
        this.#reconciling = false;
        this.#reconcileWith(e.snapshot);
        this.#due.markAll();
        return;
      case 'books':
        this.#books.onBooks(e.games, now);
        return;
      case 'tick':
        this.#onTick(now);
        return;
      case 'wake':
        return;
    }
  }

  /** A price-feed event into the market model; the games it changed are due. */
  readonly #applyPrice = (ev: PriceFeedEvent): void => {
    this.#priceEvents++;
    const now = this.#o.clock.now();
    if (ev.type === 'orderUpdate') {
      if (this.market.appliesOrderUpdate(ev.payload, now)) this.#due.markGame(ev.payload.gameID);
    } else if (ev.type === 'matchedVolumeUpdate') {
      if (this.market.applyMatchedVolume(ev.payload, now)) this.#due.markGame(ev.payload.gameID);
    } else {
      const g = this.market.upsertGame(ev.payload, now, ev.messageType === 'marketClosed' ? { ended: true } : {});
      if (!g) return;
      this.#due.markGame(g.id);
      if (g.ended || ev.messageType === 'marketClosed')
        this.orders.cancelAll('game closed', { gameID: g.id }, { sweep: true });
    }
  };

  /**
   * A gateway answer changes what our orders are, so their games are looked at again. The
   * plan counts an order in flight as covering its intent, and a halt's cancelAll passes it
   * by: a place answered after a halt, a kill or an intent change would otherwise rest
   * until something else touched its game. A halted strategy's pair is evaluated at once,
   * throttle or not (and none sits held while halted: the halt pulled them), so the
   * order is cancelled in the same dispatch.
   */
  #answered(r: GatewayResult): void {
    if (r.kind === 'heartbeat-accepted') {
      this.#heartbeat.accepted(r.sentAt, r.timeoutSec * 1000);
      return;
    }
    for (const id of resultClientIds(r)) {
      const o = this.own.order(id);
      if (o) this.#due.markGame(o.gameID);
    }
  }

  /** Our orders set to match a REST view of the account (after a user-feed gap, or the periodic check); foreign orders are left alone. */
  #reconcileWith(snapshot: AccountSnapshot): void {
    this.orders.reconcile(snapshot.unmatched, snapshot.matchedBets, {
      cancelForeign: false,
      gameLookup: (id) => this.market.has(id),
      asOf: snapshot.asOf,
    });
  }

  #onTick(now: number): void {
    const kill = this.#o.killSwitch?.() ?? null;
    if (kill && !this.#killed) this.kill(kill);
    if (now - this.#lastEndedSweep >= ENDED_GAME_SWEEP_MS) {
      this.#lastEndedSweep = now;
      for (const id of forgettableGames(this.market, this.own, now)) this.#forgetGame(id);
    }
    if (
      this.#halts.mode !== 'halted' &&
      this.orders.gateOpen &&
      now - this.#lastHeartbeat >= (this.#o.heartbeatEveryMs ?? (this.#o.heartbeatSeconds * 1000) / 3)
    ) {
      this.#lastHeartbeat = now;
      this.orders.heartbeat(this.#o.heartbeatSeconds);
    }
    // Unknown outcomes are resolved by the exchange's own account of our orders, and fills
    // it reported that the user feed has not delivered are booked from its matched bets.
    const awaited = this.own.oldestAwaitedFill();
    const fillsOverdue = awaited !== undefined && now - awaited >= UNKNOWN_RECONCILE_MS;
    if (
      !this.#reconciling &&
      now - this.#lastReconcile >= UNKNOWN_RECONCILE_MS &&
      (fillsOverdue || this.own.hasLiveWithStatus('unknown'))
    ) {
      this.#reconciling = true;
      this.#lastReconcile = now;
      const rest = this.#o.exchange.rest;
      openOrdersThenBets(rest).then(
        ({ unmatched, bets }) =>
          this.dispatch({ kind: 'rest-snapshot', snapshot: { unmatched, matchedBets: bets, asOf: now } }),
        (err: unknown) => {
          this.#reconciling = false;
          this.#log.warn({ err }, 'reconciliation of unknown orders failed; trying again');
        },
      );
    }
  }

  /** An ended game leaves the model, with everything the loop keeps per game for it. */
  #forgetGame(gameID: string): void {
    this.market.forget(gameID);
    this.own.forgetGame(gameID);
    for (const s of this.#o.strategies) {
      const k = strategyGameKey(s.id, gameID);
      this.#due.forget(k);
      this.#pairs.forget(k);
      this.#refusals.forget(k);
    }
  }

  /**
   * The kill switch: close the gate, cancel everything (every open order of the account in
   * one request where the venue can: what it does not list as cancelled is looked up over
   * REST as unknown), stop quoting until restarted.
   */
  kill(reason: string): void {
    this.#killed = reason;
    this.#halts.holdForGood();
    this.#log.error({ reason }, 'kill switch: cancelling everything and halting');
    const why = killSwitchReason(reason);
    this.orders.closeGate(why);
    this.#sweepAll(why);
    this.#halt(why);
  }

  /** One cancel of every open order of the account (when anything of ours is live), before the halt's own cancels, which then find nothing left to send. */
  #sweepAll(reason: string): void {
    this.orders.cancelAll(reason, {}, { sweep: true });
  }

  #halt(reason: HaltReason): void {
    const stopped = this.#halts.halt(reason);
    this.#due.pullHeld();
    if (stopped) {
      // A shutdown asked for is no anomaly; every other halt is one an operator wants to see.
      if (reason === SHUTTING_DOWN) this.#log.info({ reason }, 'halted: pulling quotes');
      else this.#log.warn({ reason }, 'halted: pulling quotes');
      this.orders.cancelAll(`halted: ${reason}`);
    }
  }

  #resume(reason: HaltReason): void {
    if (this.#halts.lift(reason)) {
      this.#log.info({ reason }, 'active: quoting');
      this.#due.markAll();
    }
  }

  #onNotice(n: OrderManagerNotice): void {
    const now = this.#o.clock.now();
    if (n.kind === 'risk-rejected') {
      this.#due.retryGameAfter(n.gameID, this.orders.cooldownMs + 1);
      this.#refusals.remember(n.strategyId, n.gameID, {
        intentKey: n.intentKey,
        source: 'risk',
        reason: n.verdict.rule,
        detail: n.verdict.detail,
        at: now,
      });
    }
    if (n.kind === 'exchange-rejected') {
      this.#due.retryGameAfter(n.order.gameID, this.orders.cooldownMs + 1);
      if (n.order.strategyId)
        this.#refusals.remember(n.order.strategyId, n.order.gameID, {
          intentKey: n.order.intentKey ?? '',
          source: 'exchange',
          reason: n.errorType,
          detail: n.error,
          at: now,
        });
    }
    switch (n.kind) {
      case 'risk-rejected':
        this.#log.info(
          {
            strategy: n.strategyId,
            gameID: n.gameID,
            intent: n.intentKey,
            rule: n.verdict.rule,
            detail: n.verdict.detail,
          },
          'risk check refused an order',
        );
        return;
      case 'exchange-rejected': {
        const o = n.order;
        this.#log.warn(
          {
            strategy: o.strategyId,
            gameID: o.gameID,
            intent: o.intentKey,
            orderType: o.isPostArb ? 'postArb' : o.mayTake === true ? 'taking' : 'post',
            odds: o.odds,
            // The side as the model lists it when the refusal is handled: the feed has usually
            // shown by then what the order met at the exchange.
            bestListedNow: bestListed(this.market.game(o.gameID), o.selection),
            errorType: n.errorType,
            error: n.error,
          },
          'exchange rejected an order',
        );
        return;
      }
      case 'unknown-outcome':
        this.#log.warn(
          { clientId: n.order.clientId, error: n.error },
          'order outcome unknown until the user feed or REST says',
        );
        return;
      case 'exchange-cancelled': {
        const seen = this.#heartbeat.cancelled(now, n.order.createdAt);
        if (seen.newLapse)
          this.#log.error(
            { via: n.via },
            "heartbeat lapsed: the exchange's dead man's switch is cancelling our orders",
          );
        if (!seen.heartbeat && !n.asked) {
          const start = this.market.head(n.order.gameID)?.start ?? NaN;
          // The exchange expires the orders placed before a game's start when it starts: expected,
          // not a warning. A cancel long after the start is someone's, whenever the order was placed.
          if (n.order.createdAt < start && start <= now && now - start <= START_EXPIRY_NOTICE_MS)
            this.#log.info(
              { clientId: n.order.clientId, gameID: n.order.gameID, via: n.via },
              "the exchange expired an order of ours at the game's start",
            );
          else
            this.#log.warn(
              { clientId: n.order.clientId, gameID: n.order.gameID, via: n.via },
              'the exchange cancelled an order of ours we had not asked to cancel',
            );
        }
        this.#due.markGame(n.order.gameID);
        return;
      }
    }
  }

  /** Graded rows from the graded walker (realised P&L; settled games stop counting as risk). */
  graded(rows: readonly GradedRow[]): void {
    this.dispatch({ kind: 'graded', rows });
  }

  /**
   * Errors caught and logged since start: events that failed to apply, evaluations that
   * failed, and per strategy id the quote() calls that threw or returned no usable list
   * plus the malformed intents dropped from a list.
   */
  get errors(): {
    readonly events: number;
    readonly evaluations: number;
    readonly strategies: ReadonlyMap<string, number>;
  } {
    return { ...this.#loop.errors, strategies: this.strategyErrors.byStrategy };
  }

  /**
   * Strategy evaluations since start: `asked`, the strategy's quote() called; `reused`, its
   * last intents kept because nothing it read had changed (evaluate on change).
   */
  get evaluations(): { readonly asked: number; readonly reused: number } {
    return this.#pairs.evaluations;
  }

  status(): RuntimeStatus {
    // Fills since start, games the model has forgotten included (as the fills metric counts them).
    const totals = this.own.fillTotals();
    let worst = 0;
    for (const g of this.own.gameIDs()) worst += this.own.projectedLiability(g);
    return {
      mode: this.#halts.mode,
      haltReasons: this.#halts.reasons,
      games: this.market.size,
      quotedGames: this.#pairs.quotedGames,
      openOrders: this.orders.liveCount(),
      fills: totals.maker + totals.taker,
      makerVolume: totals.makerVolume,
      takerVolume: totals.takerVolume,
      worstCase: worst,
      realizedPnl: this.#pnl.realized,
      commissionPaid: this.#pnl.commissionPaid,
      orders: this.orders.stats,
      strategyErrors: {
        total: this.strategyErrors.total,
        byStrategy: Object.fromEntries(this.strategyErrors.byStrategy),
      },
      heartbeatLapses: this.#heartbeat.stats.lapses,
      heartbeatCancels: this.#heartbeat.stats.cancels,
    };
  }

  /**
   * The id of the last user-feed message this loop handled (null before the first): the
   * replay cursor to persist. Not the feed client's own cursor, which also moves past
   * messages that arrive after the runtime stopped listening.
   */
  get userFeedCursor(): string | null {
    return this.#userFeedCursor;
  }

  /**
   * Clean shutdown: close the gate so no place can leave, cancel every order we own, and
   * wait (up to `timeoutMs`) until each is confirmed gone. Resolves with what is still open.
   */
  async stop(timeoutMs = 10_000): Promise<OwnOrder[]> {
    this.#stopping = true;
    this.#halts.holdForGood();
    this.orders.closeGate('shutdown');
    this.#sweepAll('shutdown');
    this.#halt(SHUTTING_DOWN);
    const host: ShutdownHost = {
      own: this.own,
      rest: this.#o.exchange.rest,
      clock: this.#o.clock,
      scheduler: this.#o.scheduler,
      logger: this.#log,
      tick: () => this.dispatch(TICK),
      cancelAll: () => this.orders.cancelAll('shutdown'),
    };
    await waitForOrdersGone(host, timeoutMs);
    for (const s of this.#subs) s.unsubscribe();
    this.#due.stop();
    this.#books.stop();
    return confirmNothingOpen(host);
  }
}
