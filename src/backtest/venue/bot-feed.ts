import type { ResolvedSide } from '../../market-model/side-labels.ts';
import type { ListedOffer } from '../../market-model/types.ts';
import type { BookOrder } from '../../exchange/schemas/book-order.ts';
import type { OrderUpdate } from '../../exchange/schemas/price-feed.ts';
import type { Selection } from '../../markets/types.ts';
import { oddsRank } from '../../odds/american.ts';
import type { EngineGame } from '../../engine/types.ts';
import { renderBookOrder, sideLabel, type SideLabel } from '../../sim/render/book.ts';
import type { BacktestExecution } from './execution.ts';
import { US } from './execution.ts';

const EPS = 1e-9;

/**
 * What the bot's price feed lists on a side in a backtest: the recorded orders, less what
 * our orders took from them, and our own resting orders — as the exchange would list them
 * (feeds §2: every side carries every order, ours included). Without ours the bot would see
 * a book it is not in: a post-arb sweep would not stop at its own offer, and a post priced
 * through our own resting order would go out and be rejected instead of re-priced.
 *
 * Ours come after the recorded orders at the same price: they joined the queue there last
 * (the queue model puts them behind what is recorded at their price). One approximation: a
 * recorded update shows our orders as they are when it arrives, so the bot may see its own
 * order there up to one latency leg before the exchange could have told it.
 */
export class BotFeed {
  readonly #x: BacktestExecution;
  /**
   * The newest epoch the bot got for each game. A snapshot in the recording (after a
   * reconnect, at a new day) resets the recorded sides' epochs, but the bot never sees it:
   * its sides keep the newer epochs, so an update of ours must carry at least this one or
   * the bot would drop it as stale. The exchange's epochs only grow, so the next recorded
   * update still wins.
   */
  readonly #epochs = new Map<string, number>();

  constructor(execution: BacktestExecution) {
    this.#x = execution;
  }

  /**
   * A recorded side update as the bot receives it: unchanged unless we took from it or rest
   * on it. `side` is the side the recorded market read from its label when it applied it;
   * an update it has not seen is read here.
   */
  recordedUpdate(u: OrderUpdate, side: ResolvedSide | null = this.#x.recorded.resolveSide(u)): OrderUpdate {
    if (u.epoch != null && u.epoch > (this.#epochs.get(u.gameID) ?? -Infinity)) this.#epochs.set(u.gameID, u.epoch);
    const resting = this.#x.hasRestingOn(u.gameID);
    if (!resting && !this.#x.recorded.hasConsumed()) return u;
    const ours = resting && side ? this.#ours(u.gameID, side.key, side.idx, side.taker) : [];
    const recorded = this.#x.recorded.hasConsumed() ? this.#lessTaken(u.sideOrders) : u.sideOrders;
    if (ours.length === 0 && recorded === u.sideOrders) return u;
    return { ...u, sideOrders: merge(recorded, ours) };
  }

  /**
   * The side as it stands now, for when only our part of it changed (an order of ours
   * placed, cancelled, filled, or recorded liquidity taken): null when the game is unknown
   * or has ended (the exchange lists nothing on a closed game).
   */
  sideUpdate(gameID: string, bookKey: string, side: 0 | 1, taker: Selection): OrderUpdate | null {
    const l = this.listing(gameID, bookKey, side, taker);
    if (!l) return null;
    const { game } = l;
    return {
      epoch: Math.max(l.epoch, this.#epochs.get(gameID) ?? 0),
      gameID,
      parentGameID: game.parentGameID,
      sport: game.sport,
      league: game.league,
      live: game.live,
      type: taker.type,
      ...l.label,
      sideOrders: l.orders,
    };
  }

  /** What a side lists now (the recorded orders less what we took, then ours), with its label; null as for sideUpdate. */
  listing(
    gameID: string,
    bookKey: string,
    side: 0 | 1,
    taker: Selection,
  ): {
    readonly game: EngineGame;
    readonly label: SideLabel;
    readonly orders: BookOrder[];
    readonly epoch: number;
  } | null {
    const game = this.#x.engine.game(gameID);
    if (!game || game.ended || this.#x.hasEnded(gameID)) return null;
    const listed = this.#x.recorded.side(gameID, bookKey, side);
    const recorded: BookOrder[] = [];
    for (const o of listed?.offers ?? []) {
      const sumUntaken = this.#x.recorded.available(o);
      if (sumUntaken > EPS) recorded.push(wireOf(o, sumUntaken));
    }
    return {
      game,
      label: sideLabel(game, taker),
      orders: merge(recorded, this.#ours(gameID, bookKey, side, taker)),
      epoch: listed?.epoch ?? 0,
    };
  }

  #ours(gameID: string, bookKey: string, side: 0 | 1, taker: Selection): BookOrder[] {
    const listed = this.#x.engine.bookSide(gameID, bookKey, side);
    if (listed.length === 0) return [];
    const game = this.#x.engine.game(gameID)!;
    const label = sideLabel(game, taker);
    const out: BookOrder[] = [];
    for (const l of listed) if (l.order.userId === US) out.push(renderBookOrder(game, label, l) as BookOrder);
    return out;
  }

  #lessTaken(orders: readonly BookOrder[]): readonly BookOrder[] {
    let out: BookOrder[] | null = null;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i]!;
      const taken = this.#x.recorded.consumedOf(o.id);
      if (taken === 0 && out === null) continue;
      out ??= orders.slice(0, i);
      if (taken === 0) out.push(o);
      else if (o.sumUntaken - taken > EPS) out.push({ ...o, sumUntaken: o.sumUntaken - taken });
    }
    return out ?? orders;
  }
}

function wireOf(o: ListedOffer, sumUntaken: number): BookOrder {
  return o.isPostArb
    ? { id: o.id, sumUntaken, odds: o.odds, bet: o.bet, isPostArb: true }
    : { id: o.id, sumUntaken, odds: o.odds, bet: o.bet };
}

/** Best price for a taker first; at one price, the recorded orders before ours. */
function merge(recorded: readonly BookOrder[], ours: readonly BookOrder[]): BookOrder[] {
  // Both callers pass a list of their own (a fresh one, or the recording's, which is not changed).
  if (ours.length === 0) return recorded as BookOrder[];
  const out: BookOrder[] = [];
  let j = 0;
  for (const r of recorded) {
    while (j < ours.length && oddsRank(ours[j]!.odds) > oddsRank(r.odds)) out.push(ours[j++]!);
    out.push(r);
  }
  while (j < ours.length) out.push(ours[j++]!);
  return out;
}
