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
  /** Per game, per book, each side's listing kept from the last time it was built: what of it can be listed again as it is. */
  readonly #sides = new Map<string, Map<string, [SideCache | null, SideCache | null]>>();

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
    const ours = resting && side ? this.#oursOf(u.gameID, side.key, side.idx, side.taker) : NO_ORDERS;
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
    if (!game || game.ended || this.#x.hasEnded(gameID)) {
      this.#sides.delete(gameID);
      return null;
    }
    const listed = this.#x.recorded.side(gameID, bookKey, side);
    const cache = this.#sideCache(gameID, bookKey, side);
    // The label is the game's and the side's: spelt again only for a new record of the game.
    if (cache.game !== game) {
      cache.game = game;
      cache.label = sideLabel(game, taker);
    }
    const label = cache.label!;
    return {
      game,
      label,
      orders: merge(this.#recordedPart(cache, listed?.offers ?? NO_OFFERS), this.#ours(game, bookKey, side, label)),
      epoch: listed?.epoch ?? 0,
    };
  }

  /**
   * The recorded orders of a side less what we took, as listed last time when nothing in
   * them changed: an order of ours placed, cancelled or filled changes only our part of the
   * side, and the recorded part (most of a busy side) is neither read from the model nor
   * built again. Checked order by order against the recorded market, not trusted to a
   * version: the recorded side may change in place or be replaced.
   */
  #recordedPart(cache: SideCache, offers: readonly ListedOffer[]): BookOrder[] {
    const recorded = this.#x.recorded;
    const prev = cache.recorded;
    let out: BookOrder[] | null = null;
    let j = 0;
    for (let i = 0; i < offers.length; i++) {
      const o = offers[i]!;
      const sumUntaken = recorded.available(o);
      if (!(sumUntaken > EPS)) continue;
      const was = prev[j];
      if (out === null && was !== undefined && sameListing(was, o, sumUntaken)) {
        j++;
        continue;
      }
      out ??= prev.slice(0, j);
      out.push(was !== undefined && sameListing(was, o, sumUntaken) ? was : wireOf(o, sumUntaken));
      j++;
    }
    if (out === null) {
      if (j === prev.length) return prev;
      out = prev.slice(0, j);
    }
    cache.recorded = out;
    return out;
  }

  #sideCache(gameID: string, bookKey: string, side: 0 | 1): SideCache {
    let books = this.#sides.get(gameID);
    if (books === undefined) this.#sides.set(gameID, (books = new Map()));
    let pair = books.get(bookKey);
    if (pair === undefined) books.set(bookKey, (pair = [null, null]));
    return (pair[side] ??= { game: null, label: null, recorded: NO_ORDERS });
  }

  #ours(game: EngineGame, bookKey: string, side: 0 | 1, label: SideLabel): BookOrder[] {
    const listed = this.#x.engine.bookSide(game.id, bookKey, side);
    if (listed.length === 0) return NO_ORDERS;
    const out: BookOrder[] = [];
    for (const l of listed) if (l.order.userId === US) out.push(renderBookOrder(game, label, l) as BookOrder);
    return out;
  }

  /** Our orders on a side, labelled as the side's listing labels them. */
  #oursOf(gameID: string, bookKey: string, side: 0 | 1, taker: Selection): BookOrder[] {
    const game = this.#x.engine.game(gameID);
    if (!game) return NO_ORDERS;
    const cache = this.#sideCache(gameID, bookKey, side);
    if (cache.game !== game) {
      cache.game = game;
      cache.label = sideLabel(game, taker);
    }
    return this.#ours(game, bookKey, side, cache.label!);
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

/** What a side's listing keeps between builds. */
interface SideCache {
  /** The game's record the label was spelt from (the engine replaces it when the game changes). */
  game: EngineGame | null;
  label: SideLabel | null;
  /** The recorded part as last listed; never changed once listed (a listing may share it). */
  recorded: BookOrder[];
}

const NO_OFFERS: readonly ListedOffer[] = [];
/** Shared and empty: never pushed to (merge copies before adding). */
const NO_ORDERS: BookOrder[] = [];

/** Whether a listed order still says what `o` with `sumUntaken` left would. */
function sameListing(was: BookOrder, o: ListedOffer, sumUntaken: number): boolean {
  return (
    was.id === o.id &&
    was.sumUntaken === sumUntaken &&
    was.odds === o.odds &&
    was.bet === o.bet &&
    (was.isPostArb === true) === o.isPostArb
  );
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
