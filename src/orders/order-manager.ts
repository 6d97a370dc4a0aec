import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { MarketModel } from '../book/market-model.ts';
import { DUST, isLive, isTerminal, type OwnBook } from './own-book.ts';
import type { GameState, OwnOrder, TradingMode } from '../book/types.ts';
import { RateLimitedError, RequestAbortedError } from '../exchange/errors.ts';
import { isNotSent, LinesmithError } from '../shared/errors.ts';
import {
  editLeavesOriginal,
  type CancelEntry,
  type EditEntry,
  type EditOrderInput,
  type MatchedBet,
  type OrderGateway,
  type PlaceEntry,
  type PlaceOrderInput,
  type UnmatchedOrder,
} from '../exchange/orders/types.ts';
import type { UserFeedMessageEvent } from '../exchange/socket/user-feed-events.ts';
import { selectionFromWire, wireFromSelection } from '../markets/wire-selection.ts';
import type { Clock } from '../shared/clock.ts';
import type { QuoteIntent } from '../strategy/types.ts';
import { fillFromBet, fillFromFeed, fillFromPlace } from './fills.ts';
import { planGame } from './plan.ts';
import { pricePost } from './post-pricing.ts';
import type { GateCloseReason } from './gate-close-reason.ts';
import { RiskGate, type RiskLimits, type RiskVerdict } from './risk-gate.ts';
import { ClientIds, decodeReference, encodeReference } from '../exchange/orders/user-reference.ts';
import type { TotalSide } from './total-sides.ts';

/** What the order manager tells the rest of the runtime (strategies, log, status). */
export type OrderManagerNotice =
  | {
      readonly kind: 'risk-rejected';
      readonly strategyId: string;
      readonly gameID: string;
      readonly intentKey: string;
      readonly verdict: Extract<RiskVerdict, { ok: false }>;
    }
  | { readonly kind: 'exchange-rejected'; readonly order: OwnOrder; readonly errorType: string; readonly error: string }
  | { readonly kind: 'unknown-outcome'; readonly order: OwnOrder; readonly error: string }
  /**
   * The exchange reports an order of ours cancelled that was live in our book: one we had not
   * asked to cancel (its heartbeat switch, an operator, another session) or, `asked`, one whose
   * cancel we had sent or whose state was unknown (the switch may have come first).
   */
  | {
      readonly kind: 'exchange-cancelled';
      readonly order: OwnOrder;
      readonly asked: boolean;
      readonly via: 'user feed' | 'reconciliation';
    };

/** Answers of the gateway come back as these, through the runtime's single event loop. */
export type GatewayResult =
  | { readonly kind: 'placed'; readonly clientIds: readonly string[]; readonly entries: readonly PlaceEntry[] }
  | { readonly kind: 'place-failed'; readonly clientIds: readonly string[]; readonly error: unknown }
  | { readonly kind: 'cancelled'; readonly clientIds: readonly string[]; readonly entries: readonly CancelEntry[] }
  | { readonly kind: 'cancel-failed'; readonly clientIds: readonly string[]; readonly error: unknown }
  /** An edit's answer: `replaced` is the edited order's client id, `clientId` the record of its new terms. */
  | { readonly kind: 'edited'; readonly replaced: string; readonly clientId: string; readonly entry: EditEntry }
  | { readonly kind: 'edit-failed'; readonly replaced: string; readonly clientId: string; readonly error: unknown }
  /** The answer of a cancel of every order of the account (or of one game): `clientIds` are ours it was sent for. */
  | { readonly kind: 'swept'; readonly clientIds: readonly string[]; readonly entries: readonly CancelEntry[] }
  | { readonly kind: 'heartbeat-failed'; readonly error: unknown }
  /** The exchange accepted a heartbeat sent at `sentAt` (this clock) with this timeout. */
  | { readonly kind: 'heartbeat-accepted'; readonly sentAt: number; readonly timeoutSec: number };

/** The client ids of our orders a gateway answer is about. */
export function resultClientIds(r: GatewayResult): readonly string[] {
  switch (r.kind) {
    case 'heartbeat-failed':
    case 'heartbeat-accepted':
      return [];
    case 'edited':
    case 'edit-failed':
      return [r.replaced, r.clientId];
    default:
      return r.clientIds;
  }
}

export interface StrategyWork {
  readonly strategyId: string;
  readonly gameID: string;
  readonly intents: readonly QuoteIntent[];
  readonly mode: TradingMode;
}

export interface CycleSummary {
  readonly places: number;
  readonly cancels: number;
  /** Re-pricings sent as edits, one request each (counted in neither places nor cancels). */
  readonly edits: number;
  readonly riskRejected: number;
  readonly postArb: number;
  readonly repriced: number;
}

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
 * How long an order whose place outcome is unknown may still first appear at the exchange,
 * counted from when it became unknown (after its request was sent: the gateway may hold a
 * batch behind the request budget or an earlier batch, so the send time is not known
 * here). A matching order on a live game waits its league's delay before it executes, up
 * to 10 s (exchange-api §4.5 rule 7, §8), and a request may run 15 s server-side before it
 * is aborted (§7.1 item 4, §8): 25 s, plus 5 s for transit and clock skew. Until then a REST
 * view that does not list the order proves nothing, and it stays unknown and counted.
 */
export const PLACE_OUTCOME_GRACE_MS = 30_000;

/** An order whose place was never answered: no order id, nothing known of it at the exchange. */
function placeOutcomeUnknown(o: OwnOrder): boolean {
  return o.status === 'unknown' && o.orderID === null;
}

/**
 * The controller whose signal every place carries until quotes are pulled. Each place waiting
 * to go listens to it (the REST client, while the request budget holds it), so it has as many
 * listeners as places in flight, each removed as its place goes: no limit applies, and Node's
 * leak warning past ten would be a false alarm on any busy run.
 */
function pullSignal(): AbortController {
  const c = new AbortController();
  setMaxListeners(0, c.signal);
  return c;
}

/**
 * The order type an order of ours was placed with, as far as it matters for an edit: a
 * postArb, one that may take (limit; fill-and-kill and fill-or-kill never rest), or a post.
 */
function placedType(o: OwnOrder): 'post' | 'postArb' | 'limit' {
  return o.isPostArb ? 'postArb' : o.mayTake === true ? 'limit' : 'post';
}

/** A re-pricing that qualifies for an edit: the order it edits, the record of its new terms and the request. */
interface EditCandidate {
  readonly old: OwnOrder;
  readonly order: OwnOrder;
  readonly input: EditOrderInput;
  /** What goes out instead when the cycle sends no edits. */
  readonly place: PlaceOrderInput;
}

const errorText = (e: unknown) =>
  e instanceof LinesmithError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
const NOTHING_BLOCKED: ReadonlySet<string> = new Set();

/**
 * Intents in, the fewest place and cancel calls out; every order tracked through an
 * explicit state machine (pending-place → resting / partly-filled / filled / rejected /
 * unknown; resting → pending-cancel → cancelled; …) driven by gateway answers, the user
 * feed and REST reconciliation. Risk is checked before anything leaves. An order whose
 * outcome is unknown stays `unknown` until evidence resolves it — it is never taken for
 * "not placed". The gate closes for shutdown and the kill switch: no place leaves after.
 */
export class OrderManager {
  readonly #o: OrderManagerOptions;
  readonly #ids: ClientIds;
  readonly #risk: RiskGate;
  /** key `${strategy}|${game}|${intentKey}` → time until which it is not sent. */
  readonly #cooldown = new Map<string, number>();
  /** The latest time any cooldown runs until: once past it, nothing is blocked, with no key to spell per intent. */
  #cooledUntil = -Infinity;
  #gateOpen = true;
  /** Aborted whenever quotes are pulled: a place still waiting to be sent is then not sent (see cancelAll). */
  #pulled = pullSignal();
  readonly stats = {
    placesSent: 0,
    cancelsSent: 0,
    placeRequests: 0,
    cancelRequests: 0,
    /** Edit requests (one order each): a re-pricing sent as one edit instead of a cancel and a place. */
    editRequests: 0,
    /** Cancel requests of every order of the account or of one game (one request each); also counted in cancelRequests. */
    sweepRequests: 0,
    riskRejected: 0,
    exchangeRejected: 0,
    postArb: 0,
    repriced: 0,
    unknown: 0,
    /** Reconciliation: orders of an earlier run adopted (at a REST reconciliation or from the user feed). */
    adopted: 0,
    /** Reconciliation: our live orders the exchange no longer listed, closed as filled or cancelled. */
    reconcileClosed: 0,
    /** Reconciliation: open orders found that linesmith did not place (counted at each reconciliation). */
    foreignFound: 0,
    /** Reconciliation: of those, how many we asked the exchange to cancel. */
    foreignCancelled: 0,
    /** Orders of ours (by reference) found open but unreadable (a total whose side a lookup could not give): cancelled. */
    unreadableCancelled: 0,
  };

  constructor(options: OrderManagerOptions) {
    this.#o = options;
    this.#ids = new ClientIds(options.runId);
    this.#risk = new RiskGate(options.own, options.limits);
    // Said once, so a venue that sends re-pricings as a cancel and a place (the backtest's, the
    // orders socket) does not differ silently from one that edits.
    if (options.gateway.edit === undefined)
      options.logger.info('the venue has no order edit: re-pricings go out as a cancel and a place');
  }

  /** How long a key waits after a rejection before it is sent again. */
  get cooldownMs(): number {
    return this.#o.rejectionCooldownMs ?? 2_000;
  }

  get gateOpen(): boolean {
    return this.#gateOpen;
  }

  /** No place leaves after this (shutdown, kill switch). Cancels still do. */
  closeGate(reason: GateCloseReason): void {
    if (!this.#gateOpen) return;
    this.#gateOpen = false;
    this.#withdrawUnsent(reason);
    this.#o.logger.warn({ reason }, 'order gate closed: no new orders');
  }

  openGate(): void {
    this.#gateOpen = true;
  }

  /**
   * One reconciliation cycle over the strategies' intents: at most one cancel batch and one
   * place batch, or, when the venue edits and that takes no more requests, re-pricings of
   * resting posts as one edit each (see #useEdits).
   */
  cycle(work: readonly StrategyWork[]): CycleSummary {
    const now = this.#o.clock.now();
    this.#risk.begin();
    const cancels: OwnOrder[] = [];
    const places: { order: OwnOrder; input: PlaceOrderInput }[] = [];
    const candidates: EditCandidate[] = [];
    let riskRejected = 0;
    let postArb = 0;
    let repriced = 0;
    for (const w of work) {
      const head = this.#o.market.head(w.gameID);
      const blocked = this.#blocked(w, now);
      const plan = planGame({
        strategyId: w.strategyId,
        gameID: w.gameID,
        intents: w.intents,
        orders: this.#o.own.liveOrders(w.gameID, w.strategyId),
        blockedKeys: blocked,
      });
      const firstCandidate = candidates.length;
      if (!this.#gateOpen || !head || head.ended) {
        cancels.push(...plan.cancels);
        continue;
      }
      // The game's snapshot only when something is placed: most cycles of a game place nothing.
      const game = plan.places.length > 0 ? this.#o.market.game(w.gameID) : undefined;
      for (const intent of plan.places) {
        if (game === undefined) break;
        let orderType = intent.orderType ?? 'post';
        let odds = intent.odds;
        if (orderType === 'post') {
          const p = pricePost(
            game,
            intent.selection,
            odds,
            this.#o.usePostArb,
            this.#risk.ownListedAgainst(w.gameID, intent.selection),
          );
          if (p.kind === 'repriced') repriced++;
          orderType = p.orderType;
          odds = p.odds;
        }
        const mayTake = orderType === 'limit' || orderType === 'fillAndKill' || orderType === 'fillOrKill';
        const takerCommission = mayTake ? this.#o.commissionRate() : 0;
        const verdict = this.#risk.check(
          {
            gameID: w.gameID,
            selection: intent.selection,
            odds,
            size: intent.size,
            commissionRate: takerCommission,
            crossing: orderType !== 'post',
          },
          w.mode,
        );
        if (!verdict.ok) {
          riskRejected++;
          this.stats.riskRejected++;
          this.#cool(w.strategyId, w.gameID, intent.key, now);
          this.#o.notify({
            kind: 'risk-rejected',
            strategyId: w.strategyId,
            gameID: w.gameID,
            intentKey: intent.key,
            verdict,
          });
          continue;
        }
        if (orderType === 'postArb') postArb++;
        const clientId = this.#ids.next();
        const userReference = encodeReference(w.strategyId, clientId);
        const order: OwnOrder = {
          clientId,
          userReference,
          orderID: null,
          strategyId: w.strategyId,
          intentKey: intent.key,
          gameID: w.gameID,
          selection: intent.selection,
          odds,
          bet: intent.size,
          filled: 0,
          remaining: intent.size,
          status: 'pending-place',
          isPostArb: orderType === 'postArb',
          ...(mayTake ? { mayTake } : {}),
          createdAt: now,
          updatedAt: now,
        };
        const input: PlaceOrderInput = {
          gameID: w.gameID,
          ...wireFromSelection(game.participants, intent.selection),
          odds,
          bet: intent.size,
          orderType,
          userReference,
          ...(intent.expirationMinutes !== undefined ? { expirationMinutes: intent.expirationMinutes } : {}),
        };
        const old = plan.replaceable.get(intent.key);
        if (
          old !== undefined &&
          orderType === 'post' &&
          placedType(old) === 'post' &&
          this.#o.gateway.edit !== undefined
        ) {
          const edit: EditOrderInput = {
            orderID: old.orderID!,
            odds,
            bet: intent.size,
            orderType,
            userReference,
            ...(intent.expirationMinutes !== undefined ? { expirationMinutes: intent.expirationMinutes } : {}),
          };
          candidates.push({ old, order, input: edit, place: input });
          continue;
        }
        places.push({ order, input });
        if (orderType === 'fillAndKill' || orderType === 'fillOrKill')
          this.#cool(w.strategyId, w.gameID, intent.key, now);
      }
      let editing: Set<string> | null = null;
      for (let i = firstCandidate; i < candidates.length; i++) (editing ??= new Set()).add(candidates[i]!.old.clientId);
      for (const o of plan.cancels) if (editing === null || !editing.has(o.clientId)) cancels.push(o);
    }
    this.stats.postArb += postArb;
    this.stats.repriced += repriced;
    const edits = this.#useEdits(candidates.length, cancels.length, places.length) ? candidates : [];
    if (edits.length === 0) {
      for (const c of candidates) {
        cancels.push(c.old);
        places.push({ order: c.order, input: c.place });
      }
    }
    this.#sendCancels(cancels, 'intent changed');
    this.#sendEdits(edits);
    this.#sendPlaces(places);
    return { places: places.length, cancels: cancels.length, edits: edits.length, riskRejected, postArb, repriced };
  }

  /**
   * Whether the cycle's re-pricings that qualify go out as edits: one request each, where a
   * cancel batch and a place batch carry any number of orders in one request each. Edits are
   * used when they take no more requests than those batches would (one re-pricing and
   * nothing else, say, or one beside other cancels or places): a tie goes to the edit, which
   * leaves no moment with neither order on the book and, lowering only the volume of an
   * unfilled order, keeps its place in the queue.
   */
  #useEdits(edits: number, cancels: number, places: number): boolean {
    if (edits === 0) return false;
    const withEdits = edits + (cancels > 0 ? 1 : 0) + (places > 0 ? 1 : 0);
    return withEdits <= 2;
  }

  /** The intents of a strategy's game that sit out a cooldown now; most cycles have none. */
  #blocked(w: StrategyWork, now: number): ReadonlySet<string> {
    if (this.#cooldown.size === 0 || this.#cooledUntil <= now) return NOTHING_BLOCKED;
    let blocked: Set<string> | null = null;
    for (const i of w.intents) {
      if ((this.#cooldown.get(this.#coolKey(w.strategyId, w.gameID, i.key)) ?? -Infinity) > now)
        (blocked ??= new Set()).add(i.key);
    }
    return blocked ?? NOTHING_BLOCKED;
  }

  /**
   * Cancel every resting order of ours (or of one game / strategy); orders with an answer in
   * flight are left alone. Places not yet sent (held by the request budget) are withdrawn,
   * all of them: priced before the pull, they would reach the book after it. They wait only
   * while the budget is full, and come back `failed`, so the next cycle decides afresh.
   */
  cancelAll(
    reason: string,
    filter: { gameID?: string; strategyId?: string } = {},
    options: { sweep?: boolean } = {},
  ): number {
    // A halt (of all, or of one strategy) withdraws the places waiting to go, all of them:
    // they are not told apart, and the others are decided again at once. One game closing
    // does not: it happens often in play, and that game's place is refused by the exchange.
    if (filter.gameID === undefined) this.#withdrawUnsent(reason);
    const orders = this.#o.own
      .liveOrders(filter.gameID, filter.strategyId)
      .filter((o) => o.status === 'resting' || o.status === 'partly-filled');
    if (options.sweep === true && filter.strategyId === undefined && this.#sweep(orders, reason, filter.gameID))
      return orders.length;
    this.#sendCancels(orders, reason);
    return orders.length;
  }

  /**
   * Cancel every open order of the account (no game given) or of one game in one request,
   * when the venue can: the kill switch, shutdown and a game's halt. It also reaches orders
   * whose place or edit is still unanswered, and orders linesmith did not place. False when
   * the venue cannot, or nothing of ours is live there (the caller cancels by id, if anything).
   */
  #sweep(orders: readonly OwnOrder[], reason: string, gameID: string | undefined): boolean {
    const gw = this.#o.gateway;
    const send =
      gameID === undefined
        ? gw.cancelAllOfAccount === undefined
          ? undefined
          : () => gw.cancelAllOfAccount!()
        : gw.cancelAllOfGame === undefined
          ? undefined
          : () => gw.cancelAllOfGame!(gameID);
    // Nothing of ours there (a game we never quoted closing, say): nothing to send.
    if (send === undefined || (gameID === undefined ? this.#o.own.liveCount() : this.#o.own.liveCountOf(gameID)) === 0)
      return false;
    const now = this.#o.clock.now();
    const clientIds = orders.map(
      (o) =>
        this.#o.own.apply(
          o.clientId,
          { kind: 'cancel-sent' },
          now,
          `cancel all${gameID === undefined ? '' : ' of the game'}: ${reason}`,
        ).clientId,
    );
    this.stats.cancelRequests++;
    this.stats.sweepRequests++;
    this.stats.cancelsSent += clientIds.length;
    send().then(
      (entries) => this.#o.deliver({ kind: 'swept', clientIds, entries }),
      (error: unknown) => this.#o.deliver({ kind: 'cancel-failed', clientIds, error }),
    );
    return true;
  }

  /** Orders of ours not yet in a final state. */
  liveCount(): number {
    return this.#o.own.liveCount();
  }

  // ---- answers ----

  onResult(r: GatewayResult): void {
    const now = this.#o.clock.now();
    switch (r.kind) {
      case 'placed':
        r.clientIds.forEach((id, i) => this.#onPlaceEntry(id, r.entries[i], now));
        return;
      case 'place-failed': {
        // Errors that know the request never left say so (NotSent): not placed, for sure.
        const notSent = isNotSent(r.error);
        for (const id of r.clientIds) {
          const o = this.#o.own.order(id);
          if (!o) continue;
          if (notSent) {
            this.#o.own.apply(
              id,
              { kind: 'refused', amounts: { remaining: 0 } },
              now,
              `not sent: ${errorText(r.error)}`,
            );
          } else {
            this.#markUnknown(o, `place outcome unknown: ${errorText(r.error)}`, now);
          }
        }
        return;
      }
      case 'cancelled':
        r.clientIds.forEach((id, i) => this.#onCancelEntry(id, r.entries[i], now));
        return;
      case 'cancel-failed':
        for (const id of r.clientIds) {
          const o = this.#o.own.order(id);
          if (o && o.status === 'pending-cancel')
            this.#markUnknown(o, `cancel outcome unknown: ${errorText(r.error)}`, now);
        }
        return;
      case 'swept':
        this.#onSwept(r.clientIds, r.entries, now);
        return;
      case 'edited':
        this.#onEditEntry(r.replaced, r.clientId, r.entry, now);
        return;
      case 'edit-failed': {
        // As for a place: an error that knows its request never left says so, and nothing changed.
        if (isNotSent(r.error)) {
          const old = this.#o.own.order(r.replaced);
          if (old && old.status === 'pending-cancel') this.#restore(old, `edit not sent: ${errorText(r.error)}`, now);
          if (this.#o.own.order(r.clientId))
            this.#o.own.apply(
              r.clientId,
              { kind: 'refused', amounts: { remaining: 0 } },
              now,
              `not sent: ${errorText(r.error)}`,
            );
          return;
        }
        const error =
          r.error instanceof LinesmithError ? r.error : new LinesmithError(errorText(r.error), { cause: r.error });
        this.#onEditEntry(r.replaced, r.clientId, { status: 'unknown', error }, now);
        return;
      }
      case 'heartbeat-failed':
        this.#o.logger.error({ error: errorText(r.error) }, 'heartbeat failed: the exchange may cancel our orders');
        return;
      case 'heartbeat-accepted':
        return;
    }
  }

  #onPlaceEntry(clientId: string, e: PlaceEntry | undefined, now: number): void {
    const o = this.#o.own.order(clientId);
    if (!o) return;
    if (!e) {
      this.#markUnknown(o, 'place answer had no entry for this order', now);
      return;
    }
    switch (e.status) {
      case 'accepted': {
        for (const f of e.matched)
          this.#o.own.addFill(fillFromPlace(f, o.gameID, o.selection, o.strategyId, o.isPostArb, now), clientId);
        const matchedRisk = e.matched.reduce((s, f) => s + f.amount, 0);
        if (o.status !== 'pending-place' && o.status !== 'unknown' && !o.closedByAbsence) {
          // The user feed got here first: the order is already resting, being cancelled or
          // done, and the feed's state is newer than this answer's. Only what the feed
          // could not say yet is taken from the answer.
          const orderID = e.resting?.orderID;
          if (orderID && !o.orderID)
            this.#o.own.amend(clientId, { orderID }, now, 'place accepted (after the user feed)');
          return;
        }
        if (e.resting) {
          const remaining = e.resting.offered;
          this.#o.own.apply(
            clientId,
            {
              kind: matchedRisk > DUST ? 'rests-partly-filled' : 'rests',
              amounts: { orderID: e.resting.orderID, remaining, filled: Math.max(0, o.bet - remaining) },
            },
            now,
            'place accepted',
          );
          this.#o.market.remarkMine(o.gameID, e.resting.orderID, now);
        } else {
          this.#o.own.apply(
            clientId,
            { kind: matchedRisk > DUST ? 'filled' : 'cancelled', amounts: { remaining: 0, filled: matchedRisk } },
            now,
            matchedRisk > DUST ? 'place filled at once' : 'nothing rested',
          );
        }
        return;
      }
      case 'rejected':
        this.stats.exchangeRejected++;
        this.#cool(o.strategyId ?? '', o.gameID, o.intentKey ?? '', now);
        this.#o.notify({
          kind: 'exchange-rejected',
          order: this.#o.own.apply(
            clientId,
            { kind: 'refused', amounts: { remaining: 0 } },
            now,
            `${e.errorType}: ${e.error}`,
          ),
          errorType: e.errorType,
          error: e.error,
        });
        return;
      case 'failed':
        // Never sent (a 429, a budget that held it too long, a kill's withdrawal): nothing was
        // said of the order itself, so its key is decided again at once (the runtime looks at
        // the game on every answer), not after a cooldown nothing would end.
        if (!(e.error instanceof RateLimitedError || e.error instanceof RequestAbortedError))
          this.#cool(o.strategyId ?? '', o.gameID, o.intentKey ?? '', now);
        this.#o.own.apply(
          clientId,
          { kind: 'refused', amounts: { remaining: 0 } },
          now,
          `request refused: ${errorText(e.error)}`,
        );
        return;
      case 'absent':
        // No trace yet is not "not placed": a live delay and the exchange's request limit can
        // keep an order out of every listing for up to PLACE_OUTCOME_GRACE_MS. It stays
        // unknown, counted where it loses, until a listing or message shows it, or the grace
        // passes with none (reconcile closes it then).
        this.#markUnknown(o, `answer lost, no trace found yet: ${e.reason}`, now);
        return;
      case 'recovered':
        this.#applyRecovered(o, e.resting, e.bets, now);
        return;
      case 'unknown':
        this.#markUnknown(o, `place outcome unknown: ${errorText(e.error)}`, now);
        return;
    }
  }

  #onCancelEntry(clientId: string, e: CancelEntry | undefined, now: number, reason = 'cancel confirmed'): void {
    const o = this.#o.own.order(clientId);
    if (!o || !e) return;
    if (e.ok) {
      this.#o.own.apply(clientId, { kind: 'cancelled', amounts: { remaining: 0, filled: e.filled } }, now, reason);
      // The answer can beat the user feed's fills of the order: what it says matched and no
      // booked fill covers yet still counts where it loses, until those fills are booked
      // (from the feed, or from REST's matched bets at a reconciliation).
      this.#o.own.awaitFills(clientId, e.filled, now);
    } else if (e.outcomeUnknown) {
      this.#markUnknown(o, `cancel outcome unknown: ${e.reason}`, now);
    } else if (o.status === 'pending-cancel') {
      // Refused: already filled, cancelled or expired. The user feed or a reconciliation says which.
      this.#markUnknown(o, `cancel refused: ${e.reason}`, now);
    }
  }

  /**
   * An edit's answer, for both records: the edited order (`replaced`) and its new terms
   * (`clientId`). Either may have moved on already (the user feed can report the edit, or a
   * fill, before the answer): what the feed set stands, as for a place or a cancel.
   */
  #onEditEntry(replaced: string, clientId: string, e: EditEntry, now: number): void {
    const old = this.#o.own.order(replaced);
    const next = this.#o.own.order(clientId);
    switch (e.status) {
      case 'accepted':
        // The original is gone either way: amended (its id now the new record's) or cancelled and replaced.
        if (old) this.#onCancelEntry(replaced, e.original, now, 'edited: replaced by its new terms');
        if (next)
          this.#onPlaceEntry(
            clientId,
            { status: 'accepted', userReference: next.userReference, matched: e.matched, resting: e.resting },
            now,
          );
        return;
      case 'rejected':
        if (old && old.status === 'pending-cancel') {
          if (editLeavesOriginal(e.errorType))
            this.#restore(old, `edit refused (${e.errorType}): the order rests as it was`, now);
          else this.#markUnknown(old, `edit refused: ${e.errorType}: ${e.error}`, now);
        }
        if (next)
          this.#onPlaceEntry(
            clientId,
            { status: 'rejected', userReference: next.userReference, errorType: e.errorType, error: e.error },
            now,
          );
        return;
      case 'failed':
        if (old && old.status === 'pending-cancel') this.#restore(old, `edit not sent: ${errorText(e.error)}`, now);
        if (next)
          this.#onPlaceEntry(clientId, { status: 'failed', userReference: next.userReference, error: e.error }, now);
        return;
      case 'unknown':
        if (old && old.status === 'pending-cancel')
          this.#markUnknown(old, `edit outcome unknown: ${errorText(e.error)}`, now);
        if (next && next.status === 'pending-place')
          this.#markUnknown(next, `edit outcome unknown: ${errorText(e.error)}`, now);
        return;
    }
  }

  /** An order whose edit did not run rests on as the user feed last left it. */
  #restore(o: OwnOrder, why: string, now: number): void {
    this.#o.own.apply(o.clientId, { kind: o.filled > DUST ? 'rests-partly-filled' : 'rests' }, now, why);
  }

  /**
   * The answer of a cancel of every order of the account (or game): each result is matched to
   * our order by reference, else id (an order whose place or edit is still unanswered too). An
   * order of ours it was sent for and that it does not list was not open when it ran (filled,
   * cancelled or expired): unknown until the user feed or a REST view says which.
   */
  #onSwept(clientIds: readonly string[], entries: readonly CancelEntry[], now: number): void {
    const answered = new Set<string>();
    let foreign = 0;
    for (const e of entries) {
      if (!e.ok) continue;
      const mine =
        (e.userReference ? this.#o.own.byReference(e.userReference) : undefined) ?? this.#o.own.byOrderId(e.orderID);
      if (!mine) {
        foreign++;
        continue;
      }
      answered.add(mine.clientId);
      this.#onCancelEntry(mine.clientId, e, now);
    }
    for (const id of clientIds) {
      const o = this.#o.own.order(id);
      if (o && !answered.has(id) && o.status === 'pending-cancel')
        this.#markUnknown(o, 'not among the cancelled: it was not open', now);
    }
    if (foreign > 0)
      this.#o.logger.warn({ count: foreign }, 'cancelled with ours: open orders linesmith did not place');
  }

  #markUnknown(o: OwnOrder, why: string, now: number): void {
    this.stats.unknown++;
    const next = this.#o.own.apply(o.clientId, { kind: 'outcome-unknown' }, now, why);
    this.#o.notify({ kind: 'unknown-outcome', order: next, error: why });
  }

  #applyRecovered(o: OwnOrder, resting: UnmatchedOrder | null, bets: readonly MatchedBet[], now: number): void {
    const game = this.#o.market.game(o.gameID);
    if (game)
      for (const b of bets) {
        const f = fillFromBet(b, game.participants, this.#o.commissionRate(), o.strategyId, now, o.isPostArb);
        if (f) this.#o.own.addFill(f, o.clientId);
      }
    if (resting) {
      this.#o.own.apply(
        o.clientId,
        {
          kind: resting.filled > DUST ? 'rests-partly-filled' : 'rests',
          amounts: { orderID: resting.id, remaining: resting.remaining, filled: resting.filled },
        },
        now,
        'recovered by userReference: resting',
      );
      this.#o.market.remarkMine(o.gameID, resting.id, now);
    } else {
      this.#o.own.apply(
        o.clientId,
        { kind: 'filled', amounts: { remaining: 0 } },
        now,
        'recovered by userReference: filled',
      );
    }
  }

  // ---- user feed ----

  /** One user-feed message, in order; fills are booked once per txID whoever reports them first. */
  onUserFeed(e: UserFeedMessageEvent): void {
    const now = this.#o.clock.now();
    const gameID = e.message.gameID ?? null;
    const order = e.type === 'orderPlaced' || e.type === 'orderCancelled' || e.type === 'makerFill' ? e.order : null;
    const fill = e.type === 'takerFill' || e.type === 'makerFill' ? e.fill : null;
    const ref = order?.userReference ?? fill?.userReference ?? null;
    const orderID = order?.orderID ?? (e.type === 'takerFill' ? null : (fill?.orderID ?? null));
    let mine =
      (ref ? this.#o.own.byReference(ref) : undefined) ?? (orderID ? this.#o.own.byOrderId(orderID) : undefined);
    if (!mine && order && gameID && decodeReference(ref)) mine = this.#adoptFromFeed(order, gameID, ref!, now);
    // An order amended in place keeps its id under its new record: a message under the old
    // reference that names that id (a venue that keeps the reference through an edit) is the new record's.
    if (mine && orderID && isTerminal(mine.status) && !mine.closedByAbsence) {
      const current = this.#o.own.byOrderId(orderID);
      if (current !== undefined && current !== mine && isLive(current)) mine = current;
    }

    if (fill && gameID) {
      const game = this.#o.market.game(gameID);
      if (game) {
        const f = fillFromFeed(
          fill,
          gameID,
          game.participants,
          e.type === 'makerFill' ? 'offer' : 'wager',
          mine?.strategyId ?? null,
          now,
        );
        // A taker fill's orderID is the order it hit: ours only by its reference.
        if (f) this.#o.own.addFill(f, mine?.clientId ?? (e.type === 'takerFill' ? null : undefined));
      } else {
        this.#o.logger.warn(
          { gameID, txID: fill.txID },
          'fill on a game the model does not know: booked at the next reconciliation',
        );
      }
    }
    if (!mine || !order) return;
    switch (e.type) {
      case 'orderPlaced':
        // Also an order closed only because a REST view did not list it yet: it rests after all.
        if (mine.status === 'pending-place' || mine.status === 'unknown' || mine.closedByAbsence) {
          this.#o.own.apply(
            mine.clientId,
            { kind: 'rests', amounts: { orderID: order.orderID, remaining: order.remaining } },
            now,
            mine.closedByAbsence ? 'user feed: placed (after it was closed as missing)' : 'user feed: placed',
          );
          this.#o.market.remarkMine(mine.gameID, order.orderID, now);
        } else if (!mine.orderID) {
          this.#o.own.amend(mine.clientId, { orderID: order.orderID }, now, 'user feed: order id');
        }
        return;
      case 'makerFill': {
        const remaining = order.remaining;
        // A fill that leaves some resting keeps a cancel already asked for (the lifecycle table says so).
        this.#o.own.apply(
          mine.clientId,
          {
            kind: remaining > DUST ? 'partly-filled' : 'filled',
            amounts: { orderID: order.orderID, remaining, filled: Math.max(0, order.offered - remaining) },
          },
          now,
          remaining > DUST ? 'user feed: partly filled' : 'user feed: filled',
        );
        return;
      }
      case 'orderCancelled': {
        const was = mine.status;
        this.#o.own.apply(
          mine.clientId,
          { kind: 'cancelled', amounts: { orderID: order.orderID, remaining: 0 } },
          now,
          'user feed: cancelled',
        );
        if (was === 'resting' || was === 'partly-filled' || was === 'pending-cancel' || was === 'unknown') {
          this.#o.notify({
            kind: 'exchange-cancelled',
            order: mine,
            asked: was === 'pending-cancel' || was === 'unknown',
            via: 'user feed',
          });
        }
        return;
      }
    }
  }

  #adoptFromFeed(
    order: {
      orderID: string;
      odds: number;
      type: string;
      side: string;
      number?: number | null;
      market?: string | null;
      offered: number;
      remaining: number;
      filled: number;
    },
    gameID: string,
    ref: string,
    now: number,
  ): OwnOrder | undefined {
    const game = this.#o.market.game(gameID);
    const decoded = decodeReference(ref);
    if (!game || !decoded) return undefined;
    const selection = selectionFromWire(game.participants, {
      type: order.type,
      side: order.side,
      number: order.number ?? null,
      market: order.market ?? null,
    });
    if (!selection) return undefined;
    this.stats.adopted++;
    return this.#o.own.add(
      {
        clientId: decoded.clientId,
        userReference: ref,
        orderID: order.orderID,
        strategyId: decoded.strategyId,
        intentKey: null,
        gameID,
        selection,
        odds: order.odds,
        bet: order.offered,
        filled: 0,
        remaining: order.remaining,
        status: 'resting',
        isPostArb: false,
        createdAt: now,
        updatedAt: now,
      },
      'adopted from the user feed (placed by an earlier run)',
    );
  }

  // ---- reconciliation with REST ----

  /** Whether reconcile would adopt this open order (so a total's side is worth looking up for it). */
  adopts(u: UnmatchedOrder): boolean {
    return this.#mine(u) === undefined && this.#adoptable(u) !== null;
  }

  /** The book's order this open order is (by reference, else by id). */
  #mine(u: UnmatchedOrder): OwnOrder | undefined {
    return (u.userReference ? this.#o.own.byReference(u.userReference) : undefined) ?? this.#o.own.byOrderId(u.id);
  }

  /** An open order unknown to the book that is ours by its reference, on a game the model holds: what reconcile adopts, if it can read it. */
  #adoptable(
    u: UnmatchedOrder,
  ): { readonly decoded: { strategyId: string; clientId: string }; readonly game: GameState } | null {
    const decoded = decodeReference(u.userReference);
    const game = u.game ? this.#o.market.game(u.game.id) : undefined;
    return decoded && game ? { decoded, game } : null;
  }

  /**
   * Align our state with the exchange's open orders and matched bets (start-up, after a
   * cache_expired gap, and to resolve unknown outcomes): orders of ours found resting are
   * adopted or confirmed (also one closed earlier for missing from a view); live orders not
   * found are closed (filled if a bet of theirs exists, else cancelled) as missing, except an
   * unknown place inside PLACE_OUTCOME_GRACE_MS; fills are booked once. Orders of other origins are cancelled
   * when `cancelForeign`, else left alone and reported. `asOf`: when the snapshot was
   * requested; an order that changed since is newer than the snapshot (placed while it was
   * read, say) and is not closed for missing from it.
   */
  reconcile(
    unmatched: readonly UnmatchedOrder[],
    bets: readonly MatchedBet[],
    options: {
      cancelForeign: boolean;
      gameLookup: (id: string) => boolean;
      asOf?: number;
      /** The own side of each total to adopt, looked up (`totalSidesOf`): the listing does not say it. A total without one is not adopted. */
      totalSides?: ReadonlyMap<string, TotalSide>;
    },
  ): { adopted: number; closed: number; foreign: number } {
    const now = this.#o.clock.now();
    let adopted = 0;
    let closed = 0;
    const foreign: string[] = [];
    const unreadable: string[] = [];
    const seen = new Set<string>();
    for (const u of unmatched) {
      const mine = this.#mine(u);
      if (mine) {
        seen.add(mine.clientId);
        if (mine.status === 'pending-cancel') continue;
        this.#o.own.apply(
          mine.clientId,
          {
            kind: u.filled > DUST ? 'rests-partly-filled' : 'rests',
            amounts: { orderID: u.id, remaining: u.remaining, filled: u.filled },
          },
          now,
          'reconciled: resting',
        );
        // First seen by its order id (an unknown place, or one closed as missing): the book model lists it as ours.
        if (mine.orderID !== u.id) this.#o.market.remarkMine(mine.gameID, u.id, now);
        continue;
      }
      const ours = this.#adoptable(u);
      if (ours === null) {
        foreign.push(u.id);
        continue;
      }
      const { decoded, game } = ours;
      const selection = selectionFromWire(game.participants, wireOfUnmatched(u, options.totalSides));
      if (selection) {
        this.#o.own.add(
          {
            clientId: decoded.clientId,
            userReference: u.userReference!,
            orderID: u.id,
            strategyId: decoded.strategyId,
            intentKey: null,
            gameID: game.id,
            selection,
            odds: u.odds,
            bet: u.bet,
            filled: u.filled,
            remaining: u.remaining,
            status: 'resting',
            isPostArb: false,
            createdAt: now,
            updatedAt: now,
          },
          'adopted at reconciliation (placed by an earlier run)',
        );
        // Open at the exchange: not to be closed as missing below.
        seen.add(decoded.clientId);
        adopted++;
        continue;
      }
      // Ours by its reference, on a game we follow, but not readable (a total whose side could
      // not be looked up): it cannot be counted, so it is cancelled, whatever cancelForeign says.
      unreadable.push(u.id);
    }
    const betRefs = new Set<string>();
    for (const b of bets) {
      if (b.userReference) betRefs.add(b.userReference);
      if (!b.game || !options.gameLookup(b.game.id)) continue;
      const game = this.#o.market.game(b.game.id);
      if (!game || this.#o.own.hasFill(b.txID)) continue;
      const owner = b.userReference ? this.#o.own.byReference(b.userReference) : undefined;
      const f = fillFromBet(
        b,
        game.participants,
        this.#o.commissionRate(),
        owner?.strategyId ?? decodeReference(b.userReference)?.strategyId ?? null,
        now,
      );
      if (f) this.#o.own.addFill(f, owner?.clientId);
    }
    const asOf = options.asOf ?? now;
    for (const o of this.#o.own.liveOrders()) {
      if (seen.has(o.clientId) || o.status === 'pending-place' || o.status === 'pending-cancel') continue;
      if (options.asOf !== undefined && o.updatedAt >= options.asOf) continue;
      // Not listed yet is not "not placed": it may sit in a live delay or a slow request.
      if (placeOutcomeUnknown(o) && asOf - o.updatedAt < PLACE_OUTCOME_GRACE_MS) continue;
      const filled = betRefs.has(o.userReference);
      const unasked = !filled && (o.status === 'resting' || o.status === 'partly-filled');
      // Closed by absence, which later evidence of the order may overturn.
      this.#o.own.apply(
        o.clientId,
        { kind: filled ? 'missing-with-bets' : 'missing', amounts: { remaining: 0 } },
        now,
        filled ? 'reconciled: not open, has bets' : 'reconciled: not open',
      );
      if (unasked) this.#o.notify({ kind: 'exchange-cancelled', order: o, asked: false, via: 'reconciliation' });
      closed++;
    }
    if (unreadable.length > 0) {
      this.#o.logger.warn(
        { orderIDs: unreadable },
        'open orders of ours whose side could not be read: cancelling them, as they cannot be counted',
      );
      this.#sendForeignCancels(unreadable);
      this.stats.unreadableCancelled += unreadable.length;
    }
    if (foreign.length > 0) {
      this.#o.logger.warn(
        { count: foreign.length, cancel: options.cancelForeign },
        'open orders on the account that linesmith did not place',
      );
      if (options.cancelForeign) this.#sendForeignCancels(foreign);
    }
    this.stats.adopted += adopted;
    this.stats.reconcileClosed += closed;
    this.stats.foreignFound += foreign.length;
    if (options.cancelForeign) this.stats.foreignCancelled += foreign.length;
    return { adopted, closed, foreign: foreign.length };
  }

  // ---- sending ----

  /** Cancel what rests of `orders`; an order with an answer in flight (or none yet to cancel by) is skipped. */
  #sendCancels(orders: readonly OwnOrder[], reason: string): void {
    const now = this.#o.clock.now();
    const send: OwnOrder[] = [];
    for (const o of orders) {
      if (!o.orderID || (o.status !== 'resting' && o.status !== 'partly-filled')) continue;
      send.push(this.#o.own.apply(o.clientId, { kind: 'cancel-sent' }, now, `cancel: ${reason}`));
    }
    if (send.length === 0) return;
    this.stats.cancelRequests++;
    this.stats.cancelsSent += send.length;
    const clientIds = send.map((o) => o.clientId);
    this.#o.gateway.cancel(send.map((o) => o.orderID!)).then(
      (entries) => this.#o.deliver({ kind: 'cancelled', clientIds, entries }),
      (error: unknown) => this.#o.deliver({ kind: 'cancel-failed', clientIds, error }),
    );
  }

  #sendForeignCancels(orderIDs: readonly string[]): void {
    this.stats.cancelRequests++;
    this.#o.gateway.cancel(orderIDs).then(
      (entries) =>
        this.#o.logger.info(
          { cancelled: entries.filter((e) => e.ok).length, of: orderIDs.length },
          'cancelled orders linesmith did not place',
        ),
      (error: unknown) => this.#o.logger.error({ error: errorText(error) }, 'could not cancel foreign orders'),
    );
  }

  #sendPlaces(places: readonly { order: OwnOrder; input: PlaceOrderInput }[]): void {
    if (places.length === 0) return;
    for (const p of places) this.#o.own.add(p.order, `place ${p.input.orderType} ${p.input.bet} at ${p.input.odds}`);
    this.stats.placeRequests++;
    this.stats.placesSent += places.length;
    const clientIds = places.map((p) => p.order.clientId);
    this.#o.gateway
      .place(
        places.map((p) => p.input),
        { signal: this.#pulled.signal },
      )
      .then(
        (entries) => this.#o.deliver({ kind: 'placed', clientIds, entries }),
        (error: unknown) => this.#o.deliver({ kind: 'place-failed', clientIds, error }),
      );
  }

  /**
   * Each edit as one request. Until it is answered the edited order is on its way out
   * (pending-cancel: it covers no key) and the record of its new terms is pending-place: both
   * count where they lose, the old remainder and the whole new volume. That sum is the worst
   * of the outcomes, not a loose bound: an order hit while its edit is on the way is partly
   * filled when the edit runs, so the exchange cancels it and places the whole new volume,
   * the fills not netted (fills up to the old remainder plus all of the new). Counted so, an
   * edit needs nothing of the risk gate a cancel and a place would not.
   */
  #sendEdits(edits: readonly EditCandidate[]): void {
    const edit = this.#o.gateway.edit;
    if (edits.length === 0 || edit === undefined) return;
    const now = this.#o.clock.now();
    for (const e of edits) {
      this.#o.own.apply(
        e.old.clientId,
        { kind: 'cancel-sent' },
        now,
        `edit: replaced by ${e.order.clientId} (${e.input.bet} at ${e.input.odds})`,
      );
      this.#o.own.add(e.order, `edit of ${e.old.clientId}: ${e.input.orderType} ${e.input.bet} at ${e.input.odds}`);
      this.stats.editRequests++;
      const replaced = e.old.clientId;
      const clientId = e.order.clientId;
      edit.call(this.#o.gateway, e.input, { signal: this.#pulled.signal }).then(
        (entry) => this.#o.deliver({ kind: 'edited', replaced, clientId, entry }),
        (error: unknown) => this.#o.deliver({ kind: 'edit-failed', replaced, clientId, error }),
      );
    }
  }

  #withdrawUnsent(reason: string): void {
    this.#pulled.abort(reason);
    this.#pulled = pullSignal();
  }

  /** Arm the exchange's dead man's switch. */
  heartbeat(timeoutSec: number): void {
    const sentAt = this.#o.clock.now();
    this.#o.gateway.heartbeat(timeoutSec).then(
      () => this.#o.deliver({ kind: 'heartbeat-accepted', sentAt, timeoutSec }),
      (error: unknown) => this.#o.deliver({ kind: 'heartbeat-failed', error }),
    );
  }

  #coolKey(strategyId: string, gameID: string, key: string): string {
    return `${strategyId}|${gameID}|${key}`;
  }

  #cool(strategyId: string, gameID: string, key: string, now: number): void {
    const until = now + this.cooldownMs;
    this.#cooldown.set(this.#coolKey(strategyId, gameID, key), until);
    if (until > this.#cooledUntil) this.#cooledUntil = until;
    if (this.#cooldown.size > 10_000) for (const [k, t] of this.#cooldown) if (t <= now) this.#cooldown.delete(k);
  }
}

/** How an order of getUnmatched is placed; a total's side only from `totalSides` (see totalSidesOf), '' (unreadable) without it. */
export function wireOfUnmatched(
  u: UnmatchedOrder,
  totalSides: ReadonlyMap<string, TotalSide> | undefined,
): { type: string; side: string; number: number | null; market: string | null } {
  switch (u.type) {
    case 'total':
      return { type: u.type, side: totalSides?.get(u.id) ?? '', number: u.total ?? null, market: null };
    case 'spread':
      return { type: u.type, side: u.participantID ?? '', number: u.spread ?? null, market: null };
    case 'moneyline1x2':
      return { type: u.type, side: u.side ?? '', number: null, market: u.market ?? null };
    default:
      return { type: u.type, side: u.participantID ?? '', number: null, market: null };
  }
}
