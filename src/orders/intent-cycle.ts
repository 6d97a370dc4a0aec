import { setMaxListeners } from 'node:events';
import type { OwnOrder, TradingMode } from '../market-model/types.ts';
import type { EditOrderInput, PlaceOrderInput } from '../exchange/orders/types.ts';
import { ClientIds, StrategyReferences } from '../exchange/orders/user-reference.ts';
import { wireFromSelection } from '../markets/wire-selection.ts';
import type { QuoteIntent } from '../strategy/types.ts';
import type { GateCloseReason } from './gate-close-reason.ts';
import type { OrderContext } from './order-context.ts';
import { planGame } from './plan.ts';
import { pricePost } from './post-pricing.ts';
import { RiskGate, type RiskLimits } from './risk-gate.ts';
import type { TransitionReason } from './transition-reason.ts';

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

/** A cycle that sends nothing and refuses nothing. */
const NOTHING_SENT: CycleSummary = { places: 0, cancels: 0, edits: 0, riskRejected: 0, postArb: 0, repriced: 0 };

/**
 * Whether a pair's work can plan anything. planGame makes its cancels from the strategy's
 * live orders on the game and its places from the intents, so a pair that asks for nothing
 * on a game where no order of ours is live (of any strategy, pending or resting) plans no
 * cancel and no place: skipping it, and the whole cycle when no pair plans, sends and
 * counts exactly what going through it would. Most evaluations of a quiet strategy end so.
 */
function hasPlan(w: StrategyWork, own: OrderContext['own']): boolean {
  return w.intents.length > 0 || own.liveCountOf(w.gameID) > 0;
}

/** Whether any pair of the work can plan anything (see hasPlan). */
function anyPlan(work: readonly StrategyWork[], own: OrderContext['own']): boolean {
  for (const w of work) if (hasPlan(w, own)) return true;
  return false;
}

/** The edits of a cycle that sends none. */
const NO_EDITS: readonly EditCandidate[] = [];

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

/**
 * Whether the exchange is expiring `o` now: placed before its game's `start`, which has
 * passed. The exchange expires such orders at the start, so an edit of one is refused ("order
 * is expired"); it is cancelled and its intent placed afresh instead, which serves as well an
 * order the exchange does not expire.
 */
function expiringAtStart(o: OwnOrder, start: number, now: number): boolean {
  return o.createdAt < start && start <= now;
}

/**
 * The record of an order about to be placed: pending-place, nothing filled. `mayTake` is
 * present only on an order that may take, as in every record of ours (one literal per
 * case, so no object is spread per order).
 */
function newOrder(
  w: StrategyWork,
  intent: QuoteIntent,
  clientId: string,
  userReference: string,
  odds: number,
  isPostArb: boolean,
  mayTake: boolean,
  now: number,
): OwnOrder {
  return mayTake
    ? {
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
        isPostArb,
        mayTake,
        createdAt: now,
        updatedAt: now,
      }
    : {
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
        isPostArb,
        createdAt: now,
        updatedAt: now,
      };
}

/**
 * A pair's last plan that had nothing to do with each of its intents served or in flight:
 * the intents (the list, as the runtime handed it) and the version of the game's live
 * orders then.
 */
interface Served {
  intents: readonly QuoteIntent[];
  version: number;
}

/** How many games' Served records a strategy keeps at most. */
const MAX_SERVED_GAMES = 4_096;

/**
 * Why an order of a type is placed (`place post 100 at 150`), said of the order it is told
 * with: the order's bet and odds are those of its request. One function per order type,
 * made once, so placing an order builds no text that only a debug log reads.
 */
const placeReasons = new Map<string, TransitionReason>();
function placeReason(orderType: NonNullable<PlaceOrderInput['orderType']>): TransitionReason {
  let reason = placeReasons.get(orderType);
  if (reason === undefined) placeReasons.set(orderType, (reason = (o) => `place ${orderType} ${o.bet} at ${o.odds}`));
  return reason;
}

/** A request while it is built: the requests are read-only once sent. */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The place request of an order: the wire side's fields after the game, as spreading the
 * wire side into the literal would lay them out, and the expiry last when there is one.
 * Built as one literal per shape: a spread in the middle of a literal costs an order of
 * magnitude more than the literal, on every order placed.
 */
function placeInput(
  gameID: string,
  wire: ReturnType<typeof wireFromSelection>,
  odds: number,
  bet: number,
  orderType: NonNullable<PlaceOrderInput['orderType']>,
  userReference: string,
  expirationMinutes: number | undefined,
): PlaceOrderInput {
  const { type, side } = wire;
  const input: Writable<PlaceOrderInput> =
    'number' in wire
      ? { gameID, type, side, number: wire.number, odds, bet, orderType, userReference }
      : 'market' in wire
        ? { gameID, type, side, market: wire.market, odds, bet, orderType, userReference }
        : { gameID, type, side, odds, bet, orderType, userReference };
  if (expirationMinutes !== undefined) input.expirationMinutes = expirationMinutes;
  return input;
}

/** An order to place and its request. */
interface Place {
  readonly order: OwnOrder;
  readonly input: PlaceOrderInput;
}

/** Whether `o` is the order one of `candidates` from `from` on edits. */
function editedIn(candidates: readonly EditCandidate[], from: number, o: OwnOrder): boolean {
  for (let i = from; i < candidates.length; i++) if (candidates[i]!.old.clientId === o.clientId) return true;
  return false;
}

/** A re-pricing that qualifies for an edit: the order it edits, the record of its new terms and the request. */
interface EditCandidate {
  readonly old: OwnOrder;
  readonly order: OwnOrder;
  readonly input: EditOrderInput;
  /** What goes out instead when the cycle sends no edits. */
  readonly place: PlaceOrderInput;
}

/**
 * The order manager's intent cycle: the strategies' intents in, the fewest requests out.
 * It plans each game against our live orders, prices posts clear of a cross, passes every
 * new order through the risk gate, leaves keys on cooldown alone, and sends at most one
 * cancel batch and one place batch, or re-pricings as edits where those take no more
 * requests. It holds what only sending needs: the gate (closed, no place leaves), the
 * signal that withdraws places not yet sent, the client ids and the risk gate.
 */
export class IntentCycle {
  readonly #ctx: OrderContext;
  readonly #ids: ClientIds;
  readonly #references = new StrategyReferences();
  readonly #risk: RiskGate;
  readonly #usePostArb: boolean;
  #gateOpen = true;
  /**
   * Per strategy and game, its last plan with nothing to do (see Served). A plan is a
   * function of the intents, the live orders and the keys on cooldown, and a cooldown only
   * holds back places: the same list of intents over the same live orders (the same
   * version) plans nothing again, whatever has cooled since. Intents stand (the runtime
   * hands over the same list) on a fifth of a busy strategy's evaluations.
   */
  readonly #served = new Map<string, Map<string, Served>>();
  /** Aborted whenever quotes are pulled: a place still waiting to be sent is then not sent (see withdrawUnsent). */
  #pulled = pullSignal();

  constructor(ctx: OrderContext, options: { limits: RiskLimits; usePostArb: boolean; runId: string }) {
    this.#ctx = ctx;
    this.#ids = new ClientIds(options.runId);
    this.#risk = new RiskGate(ctx.own, options.limits);
    this.#usePostArb = options.usePostArb;
  }

  get gateOpen(): boolean {
    return this.#gateOpen;
  }

  /** No place leaves after this (shutdown, kill switch); the places waiting to go are withdrawn. Cancels still leave. */
  closeGate(reason: GateCloseReason): void {
    if (!this.#gateOpen) return;
    this.#gateOpen = false;
    this.withdrawUnsent(reason);
    // A shutdown asked for is no anomaly; a kill switch is.
    if (reason === 'shutdown') this.#ctx.logger.info({ reason }, 'order gate closed: no new orders');
    else this.#ctx.logger.warn({ reason }, 'order gate closed: no new orders');
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
    const { own, market, gateway, stats, cooldowns } = this.#ctx;
    if (!anyPlan(work, own)) return NOTHING_SENT;
    const now = this.#ctx.clock.now();
    this.#risk.begin();
    // The lists are made on their first entry: most cycles that plan send nothing.
    let cancels: OwnOrder[] | null = null;
    let places: Place[] | null = null;
    let candidates: EditCandidate[] | null = null;
    let riskRejected = 0;
    let postArb = 0;
    let repriced = 0;
    for (const w of work) {
      if (!hasPlan(w, own)) continue;
      const version = own.liveVersionOf(w.gameID);
      const served = this.#servedOf(w);
      if (served.intents === w.intents && served.version === version) continue;
      const head = market.head(w.gameID);
      const blocked = cooldowns.blocked(w.strategyId, w.gameID, w.intents, now);
      const plan = planGame({
        strategyId: w.strategyId,
        gameID: w.gameID,
        intents: w.intents,
        orders: own.liveOrders(w.gameID, w.strategyId),
        blockedKeys: blocked,
      });
      const firstCandidate = candidates === null ? 0 : candidates.length;
      if (plan.cancels.length === 0 && plan.places.length === 0 && blocked.size === 0) {
        served.intents = w.intents;
        served.version = version;
      } else {
        served.version = Number.NaN;
      }
      if (!this.#gateOpen || !head || head.ended) {
        if (plan.cancels.length > 0) (cancels ??= []).push(...plan.cancels);
        continue;
      }
      // The game's snapshot only when something is placed: most cycles of a game place nothing.
      const game = plan.places.length > 0 ? market.game(w.gameID) : undefined;
      for (const intent of plan.places) {
        if (game === undefined) break;
        let orderType = intent.orderType ?? 'post';
        let odds = intent.odds;
        if (orderType === 'post') {
          const p = pricePost(
            game,
            intent.selection,
            odds,
            this.#usePostArb,
            this.#risk.ownListedAgainst(w.gameID, intent.selection),
          );
          if (p.kind === 'repriced') repriced++;
          orderType = p.orderType;
          odds = p.odds;
        }
        const mayTake = orderType === 'limit' || orderType === 'fillAndKill' || orderType === 'fillOrKill';
        const takerCommission = mayTake ? this.#ctx.commissionRate() : 0;
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
          stats.riskRejected++;
          cooldowns.cool(w.strategyId, w.gameID, intent.key, now);
          this.#ctx.notify({
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
        const userReference = this.#references.of(w.strategyId, clientId);
        const order = newOrder(w, intent, clientId, userReference, odds, orderType === 'postArb', mayTake, now);
        const input = placeInput(
          w.gameID,
          wireFromSelection(game.participants, intent.selection),
          odds,
          intent.size,
          orderType,
          userReference,
          intent.expirationMinutes,
        );
        const old = plan.replaceable.get(intent.key);
        if (
          old !== undefined &&
          orderType === 'post' &&
          placedType(old) === 'post' &&
          gateway.edit !== undefined &&
          !expiringAtStart(old, head.start, now)
        ) {
          const edit: Writable<EditOrderInput> = {
            orderID: old.orderID!,
            odds,
            bet: intent.size,
            orderType,
            userReference,
          };
          if (intent.expirationMinutes !== undefined) edit.expirationMinutes = intent.expirationMinutes;
          (candidates ??= []).push({ old, order, input: edit, place: input });
          continue;
        }
        (places ??= []).push({ order, input });
        if (orderType === 'fillAndKill' || orderType === 'fillOrKill')
          cooldowns.cool(w.strategyId, w.gameID, intent.key, now);
      }
      // The game's re-pricings (a few at most) are scanned in place: no set is made per game.
      for (const o of plan.cancels)
        if (candidates === null || !editedIn(candidates, firstCandidate, o)) (cancels ??= []).push(o);
    }
    stats.postArb += postArb;
    stats.repriced += repriced;
    const edits =
      candidates !== null && this.#useEdits(candidates.length, cancels?.length ?? 0, places?.length ?? 0)
        ? candidates
        : NO_EDITS;
    if (edits.length === 0 && candidates !== null) {
      for (const c of candidates) {
        (cancels ??= []).push(c.old);
        (places ??= []).push({ order: c.order, input: c.place });
      }
    }
    if (cancels !== null) this.sendCancels(cancels, 'intent changed');
    this.#sendEdits(edits);
    if (places !== null) this.#sendPlaces(places);
    // Most cycles that plan send nothing: the shared summary says so, with no object made.
    if (
      places === null &&
      cancels === null &&
      edits.length === 0 &&
      riskRejected === 0 &&
      postArb === 0 &&
      repriced === 0
    )
      return NOTHING_SENT;
    return {
      places: places?.length ?? 0,
      cancels: cancels?.length ?? 0,
      edits: edits.length,
      riskRejected,
      postArb,
      repriced,
    };
  }

  /** The pair's Served record, made (serving nothing) on its first plan. */
  #servedOf(w: StrategyWork): Served {
    let games = this.#served.get(w.strategyId);
    if (games === undefined) this.#served.set(w.strategyId, (games = new Map()));
    let served = games.get(w.gameID);
    if (served === undefined) {
      // Games come and go over a long run: past this many, start again (a pair served is only planned once more).
      if (games.size >= MAX_SERVED_GAMES) games.clear();
      games.set(w.gameID, (served = { intents: w.intents, version: Number.NaN }));
    }
    return served;
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

  /** Cancel what rests of `orders`; an order with an answer in flight (or none yet to cancel by) is skipped. */
  sendCancels(orders: readonly OwnOrder[], reason: string): void {
    const { own, stats } = this.#ctx;
    const now = this.#ctx.clock.now();
    const send: OwnOrder[] = [];
    let why: string | undefined;
    for (const o of orders) {
      if (!o.orderID || (o.status !== 'resting' && o.status !== 'partly-filled')) continue;
      send.push(own.apply(o.clientId, { kind: 'cancel-sent' }, now, (why ??= `cancel: ${reason}`)));
    }
    if (send.length === 0) return;
    stats.cancelRequests++;
    stats.cancelsSent += send.length;
    const clientIds = send.map((o) => o.clientId);
    this.#ctx.gateway.cancel(send.map((o) => o.orderID!)).then(
      (entries) => this.#ctx.deliver({ kind: 'cancelled', clientIds, entries }),
      (error: unknown) => this.#ctx.deliver({ kind: 'cancel-failed', clientIds, error }),
    );
  }

  #sendPlaces(places: readonly Place[]): void {
    if (places.length === 0) return;
    const { own, stats } = this.#ctx;
    for (const p of places) own.add(p.order, placeReason(p.input.orderType ?? 'post'));
    stats.placeRequests++;
    stats.placesSent += places.length;
    const clientIds = places.map((p) => p.order.clientId);
    this.#ctx.gateway
      .place(
        places.map((p) => p.input),
        { signal: this.#pulled.signal },
      )
      .then(
        (entries) => this.#ctx.deliver({ kind: 'placed', clientIds, entries }),
        (error: unknown) => this.#ctx.deliver({ kind: 'place-failed', clientIds, error }),
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
    const { gateway, own, stats } = this.#ctx;
    const edit = gateway.edit;
    if (edits.length === 0 || edit === undefined) return;
    const now = this.#ctx.clock.now();
    for (const e of edits) {
      own.apply(
        e.old.clientId,
        { kind: 'cancel-sent' },
        now,
        `edit: replaced by ${e.order.clientId} (${e.input.bet} at ${e.input.odds})`,
      );
      own.add(e.order, `edit of ${e.old.clientId}: ${e.input.orderType} ${e.input.bet} at ${e.input.odds}`);
      stats.editRequests++;
      const replaced = e.old.clientId;
      const clientId = e.order.clientId;
      edit.call(gateway, e.input, { signal: this.#pulled.signal }).then(
        (entry) => this.#ctx.deliver({ kind: 'edited', replaced, clientId, entry }),
        (error: unknown) => this.#ctx.deliver({ kind: 'edit-failed', replaced, clientId, error }),
      );
    }
  }

  /** Places priced before a pull and still waiting to be sent are not sent (they come back `failed`). */
  withdrawUnsent(reason: string): void {
    this.#pulled.abort(reason);
    this.#pulled = pullSignal();
  }
}
