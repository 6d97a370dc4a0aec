import type { MatchingEngine } from '../engine/engine.ts';
import type { CloseReason, EngineEvent, OrderStatus } from '../engine/types.ts';
import { ProjectedExposure } from './projected-exposure.ts';

/** One side of one fill the simulator made for the account. */
export interface SimFill {
  readonly txID: string;
  readonly origin: 'offer' | 'wager';
  readonly orderID: string;
  readonly userReference: string | null;
  readonly gameID: string;
  /** Stake of this side, in its own view (a maker's risk, a taker's amount). */
  readonly amount: number;
  readonly odds: number;
  readonly at: number;
}

export interface SimOrderRecord {
  readonly id: string;
  readonly userReference: string | null;
  readonly gameID: string;
  readonly placedAt: number;
  status: OrderStatus;
  closeReason: CloseReason | null;
}

/**
 * The simulator's own account of one user, kept from the matching engine's events (not
 * from anything the bot says): every order that reached the book or traded, by id and by
 * userReference; every fill side; the
 * account's projected worst case (resting orders counted where they lose) per game and in
 * total after every change; the orders the dead man's switch cancelled; when games ended.
 */
export class SimLedger {
  readonly #engine: MatchingEngine;
  readonly #userId: string;
  readonly orders = new Map<string, SimOrderRecord>();
  /** userReference → ids of the engine orders that carried it. */
  readonly byReference = new Map<string, Set<string>>();
  /** Orders of the account without a userReference. */
  readonly unreferenced = new Set<string>();
  readonly fills: SimFill[] = [];
  /** Orders cancelled by a heartbeat lapse, with the time of each lapse. */
  readonly heartbeatCancels: { readonly orderID: string; readonly at: number }[] = [];
  readonly gameEndedAt = new Map<string, number>();
  /** The account's projected worst case, read after every change of its positions. */
  readonly exposure = new ProjectedExposure();
  readonly #unsubscribe: () => void;
  /** The commission the account pays as a taker (read once: the account view works out its exposure). */
  readonly #takerRate: number;

  constructor(engine: MatchingEngine, userId: string) {
    this.#engine = engine;
    this.#userId = userId;
    this.#takerRate = engine.account(userId)?.commissionRate ?? 0;
    this.#unsubscribe = engine.onEvent((e) => this.#on(e));
  }

  /** The account's open orders at the simulator now. */
  openOrders() {
    return this.#engine.openOrders(this.#userId);
  }

  close(): void {
    this.#unsubscribe();
  }

  #order(id: string, userReference: string | null, gameID: string, at: number): SimOrderRecord {
    let o = this.orders.get(id);
    if (!o) {
      o = { id, userReference, gameID, placedAt: at, status: 'open', closeReason: null };
      this.orders.set(id, o);
      if (userReference === null) this.unreferenced.add(id);
      else {
        const ids = this.byReference.get(userReference) ?? new Set<string>();
        ids.add(id);
        this.byReference.set(userReference, ids);
      }
    }
    return o;
  }

  #on(e: EngineEvent): void {
    const now = this.#engine.now();
    switch (e.kind) {
      case 'orderPlaced':
        // After the fills of its taking part, if any: it rests now.
        if (e.order.userId !== this.#userId) return;
        this.#order(e.order.id, e.order.userReference, e.order.gameID, now).status = 'open';
        this.exposure.rest(e.order.gameID, e.order.id, {
          selection: e.order.selection,
          amount: e.order.remaining,
          odds: e.order.odds,
        });
        this.exposure.read(e.order.gameID, now);
        return;
      case 'orderCancelled':
      case 'orderExpired': {
        if (e.order.userId !== this.#userId) return;
        const o = this.#order(e.order.id, e.order.userReference, e.order.gameID, now);
        o.status = e.order.status;
        o.closeReason = e.order.closeReason;
        if (e.order.closeReason === 'heartbeat') this.heartbeatCancels.push({ orderID: e.order.id, at: now });
        this.exposure.unrest(e.order.gameID, e.order.id);
        this.exposure.read(e.order.gameID, now);
        return;
      }
      case 'fill': {
        const f = e.fill;
        for (const [side, origin] of [
          [f.maker, 'offer'],
          [f.taker, 'wager'],
        ] as const) {
          if (side.userId !== this.#userId) continue;
          const o = this.#order(side.orderID, side.userReference, f.gameID, now);
          // Makers and postArb takers pay no commission; any other taker pays the account's rate.
          const rate = origin === 'offer' || f.isPostArb ? 0 : this.#takerRate;
          this.exposure.addBet(f.gameID, {
            selection: side.selection,
            amount: side.money.amount,
            odds: side.money.odds,
            commissionRate: rate,
          });
          if (origin === 'offer') {
            const after = f.makerOrderAfter;
            this.exposure.rest(f.gameID, side.orderID, {
              selection: after.selection,
              amount: after.status === 'open' ? after.remaining : 0,
              odds: after.odds,
            });
          }
          // A taker that rests its remainder is reported `orderPlaced` after these fills.
          o.status = origin === 'offer' ? f.makerOrderAfter.status : 'filled';
          this.fills.push({
            txID: f.txID,
            origin,
            orderID: side.orderID,
            userReference: side.userReference,
            gameID: f.gameID,
            amount: side.money.amount,
            odds: side.money.odds,
            at: f.at,
          });
        }
        if (f.maker.userId === this.#userId || f.taker.userId === this.#userId) this.exposure.read(f.gameID, f.at);
        return;
      }
      case 'gameChanged':
        if (e.change === 'ended' && !this.gameEndedAt.has(e.game.id)) this.gameEndedAt.set(e.game.id, now);
        // Graded (or refunded) with its end: the engine releases the game's liability then.
        if (e.change === 'ended' || e.change === 'refunded') this.exposure.settle(e.game.id, now);
        return;
      default:
        return;
    }
  }
}
