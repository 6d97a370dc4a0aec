import type { Logger } from 'pino';
import type { MarketModel } from '../market-model/market-model.ts';
import type { OrderGateway, MatchedBet, UnmatchedOrder } from '../exchange/orders/types.ts';
import type { UserFeedMessageEvent } from '../exchange/socket/user-feed-events.ts';
import type { Clock } from '../shared/clock.ts';
import { ExecutionEvents } from './execution-events.ts';
import type { GateCloseReason } from './gate-close-reason.ts';
import { IntentCooldowns } from './intent-cooldowns.ts';
import { IntentCycle, type CycleSummary, type StrategyWork } from './intent-cycle.ts';
import { orderManagerStats, type OrderContext, type OrderManagerStats } from './order-context.ts';
import type { GatewayResult, OrderManagerNotice } from './order-messages.ts';
import type { OwnBook } from './own-book.ts';
import { OrderReconciliation, type ReconcileOptions, type ReconcileSummary } from './reconciliation.ts';
import type { RiskLimits } from './risk-gate.ts';

export { resultClientIds, type GatewayResult, type OrderManagerNotice } from './order-messages.ts';
export type { CycleSummary, StrategyWork } from './intent-cycle.ts';
export type { OrderManagerStats } from './order-context.ts';
export {
  PLACE_OUTCOME_GRACE_MS,
  wireOfUnmatched,
  type ReconcileOptions,
  type ReconcileSummary,
} from './reconciliation.ts';

export interface OrderManagerOptions {
  readonly own: OwnBook;
  readonly market: MarketModel;
  readonly gateway: OrderGateway;
  readonly limits: RiskLimits;
  readonly usePostArb: boolean;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly runId: string;
  /** Answers go back through the runtime's loop, never straight into state. */
  readonly deliver: (result: GatewayResult) => void;
  readonly notify: (notice: OrderManagerNotice) => void;
  readonly commissionRate: () => number;
  /** How long a key waits after a rejection before it is sent again. */
  readonly rejectionCooldownMs?: number;
}

/**
 * Intents in, the fewest place and cancel calls out; every order tracked through an
 * explicit state machine (pending-place → resting / partly-filled / filled / rejected /
 * unknown; resting → pending-cancel → cancelled; …) driven by gateway answers, the user
 * feed and REST reconciliation. Risk is checked before anything leaves. An order whose
 * outcome is unknown stays `unknown` until evidence resolves it — it is never taken for
 * "not placed". The gate closes for shutdown and the kill switch: no place leaves after.
 *
 * The facade of three parts that share the own book, the gateway and the counters through
 * one OrderContext: the intent cycle (intent-cycle.ts: plan, risk gate, batches, edits,
 * the gate), the execution events (execution-events.ts: the gateway's answers and the
 * user feed) and the reconciliation (reconciliation.ts: REST views, adoption, recovered
 * and unknown orders, sweeps).
 */
export class OrderManager {
  readonly stats: OrderManagerStats;
  readonly #ctx: OrderContext;
  readonly #cycle: IntentCycle;
  readonly #events: ExecutionEvents;
  readonly #reconciliation: OrderReconciliation;
  #heartbeatInFlight = false;

  constructor(options: OrderManagerOptions) {
    this.stats = orderManagerStats();
    this.#ctx = {
      own: options.own,
      market: options.market,
      gateway: options.gateway,
      clock: options.clock,
      logger: options.logger,
      deliver: options.deliver,
      notify: options.notify,
      commissionRate: options.commissionRate,
      stats: this.stats,
      cooldowns: new IntentCooldowns(options.rejectionCooldownMs ?? 2_000),
    };
    this.#cycle = new IntentCycle(this.#ctx, options);
    this.#reconciliation = new OrderReconciliation(this.#ctx);
    this.#events = new ExecutionEvents(this.#ctx, this.#reconciliation);
    // Said once, so a venue that sends re-pricings as a cancel and a place (the backtest's, the
    // orders socket) does not differ silently from one that edits.
    if (options.gateway.edit === undefined)
      options.logger.info('the venue has no order edit: re-pricings go out as a cancel and a place');
  }

  /** How long a key waits after a rejection before it is sent again. */
  get cooldownMs(): number {
    return this.#ctx.cooldowns.ms;
  }

  get gateOpen(): boolean {
    return this.#cycle.gateOpen;
  }

  /** No place leaves after this (shutdown, kill switch). Cancels still do. */
  closeGate(reason: GateCloseReason): void {
    this.#cycle.closeGate(reason);
  }

  openGate(): void {
    this.#cycle.openGate();
  }

  /**
   * One reconciliation cycle over the strategies' intents: at most one cancel batch and one
   * place batch, or, when the venue edits and that takes no more requests, re-pricings of
   * resting posts as one edit each.
   */
  cycle(work: readonly StrategyWork[]): CycleSummary {
    return this.#cycle.cycle(work);
  }

  /**
   * Cancel every resting order of ours (or of one game / strategy); orders with an answer in
   * flight are left alone. Places not yet sent (held by the request budget) are withdrawn,
   * all of them: priced before the pull, they would reach the book after it. They wait only
   * while the budget is full, and come back `failed`, so the next cycle decides afresh.
   * `sweep`: in one request of the whole account or game, where the venue can (see
   * OrderReconciliation.sweep).
   */
  cancelAll(
    reason: string,
    filter: { gameID?: string; strategyId?: string } = {},
    options: { sweep?: boolean } = {},
  ): number {
    // A halt (of all, or of one strategy) withdraws the places waiting to go, all of them:
    // they are not told apart, and the others are decided again at once. One game closing
    // does not: it happens often in play, and that game's place is refused by the exchange.
    if (filter.gameID === undefined) this.#cycle.withdrawUnsent(reason);
    const orders = this.#ctx.own
      .liveOrders(filter.gameID, filter.strategyId)
      .filter((o) => o.status === 'resting' || o.status === 'partly-filled');
    if (
      options.sweep === true &&
      filter.strategyId === undefined &&
      this.#reconciliation.sweep(orders, reason, filter.gameID)
    )
      return orders.length;
    this.#cycle.sendCancels(orders, reason);
    return orders.length;
  }

  /** Orders of ours not yet in a final state. */
  liveCount(): number {
    return this.#ctx.own.liveCount();
  }

  /** A gateway answer, through the runtime's loop. */
  onResult(r: GatewayResult): void {
    this.#events.onResult(r);
  }

  /** One user-feed message, in order; fills are booked once per txID whoever reports them first. */
  onUserFeed(e: UserFeedMessageEvent): void {
    this.#events.onUserFeed(e);
  }

  /** Whether reconcile would adopt this open order (so a total's side is worth looking up for it). */
  adopts(u: UnmatchedOrder): boolean {
    return this.#reconciliation.adopts(u);
  }

  /** Align our state with the exchange's open orders and matched bets (see OrderReconciliation.reconcile). */
  reconcile(
    unmatched: readonly UnmatchedOrder[],
    bets: readonly MatchedBet[],
    options: ReconcileOptions,
  ): ReconcileSummary {
    return this.#reconciliation.reconcile(unmatched, bets, options);
  }

  /**
   * Arm the exchange's dead man's switch. One heartbeat at a time: one still waiting for its
   * answer arms the switch when it lands, and more behind it only queue on a slow link (the
   * client's request timeout bounds the wait).
   */
  heartbeat(timeoutSec: number): void {
    if (this.#heartbeatInFlight) return;
    this.#heartbeatInFlight = true;
    const sentAt = this.#ctx.clock.now();
    this.#ctx.gateway.heartbeat(timeoutSec).then(
      () => {
        this.#heartbeatInFlight = false;
        this.#ctx.deliver({ kind: 'heartbeat-accepted', sentAt, timeoutSec });
      },
      (error: unknown) => {
        this.#heartbeatInFlight = false;
        this.#ctx.deliver({ kind: 'heartbeat-failed', error });
      },
    );
  }
}
