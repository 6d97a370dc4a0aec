import type { ResolvedSide } from '../../market-model/side-labels.ts';
import type { ListedOffer } from '../../market-model/types.ts';
import type { BookOrder } from '../../exchange/schemas/book-order.ts';
import type { OrderUpdate } from '../../exchange/schemas/price-feed.ts';
import type { Selection } from '../../markets/types.ts';
import { oddsRank } from '../../odds/american.ts';
import type { EngineGame, ListedOrder } from '../../engine/types.ts';
import { renderBookOrder, sideLabel, type SideLabel, type WireBookOrder } from '../../sim/render/book.ts';
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
  readonly #epochs = new Map<string, { epoch: number }>();
  /**
   * The game last looked up in #epochs and its record (undefined: none yet): the feed sends
   * a game's sides in bursts, so most updates find it here without a lookup.
   */
  #epochGame: string | null = null;
  #epochRecord: { epoch: number } | undefined = undefined;
  /** Per game, per book, each side's listing kept from the last time it was built: what of it can be listed again as it is. */
  readonly #sides = new Map<string, Map<string, [SideCache | null, SideCache | null]>>();

  constructor(execution: BacktestExecution) {
    this.#x = execution;
  }

  /** The engine forgot the game: its epochs and listings go too. */
  forgetGame(gameID: string): void {
    this.#epochs.delete(gameID);
    this.#sides.delete(gameID);
    if (this.#epochGame === gameID) {
      this.#epochGame = null;
      this.#epochRecord = undefined;
    }
  }

  /**
   * A recorded side update as the bot receives it: unchanged unless we took from it or rest
   * on it. `side` is the side the recorded market read from its label when it applied it;
   * an update it has not seen is read here.
   */
  recordedUpdate(u: OrderUpdate, side: ResolvedSide | null = this.#x.recorded.resolveSide(u)): OrderUpdate {
    const epoch = u.epoch;
    if (epoch != null) {
      const newest = this.#newestEpoch(u.gameID);
      if (newest !== undefined) {
        if (epoch > newest.epoch) newest.epoch = epoch;
      } else if (epoch > -Infinity) this.#epochs.set(u.gameID, (this.#epochRecord = { epoch }));
    }
    const resting = this.#x.hasRestingOn(u.gameID);
    // Only a game we took recorded liquidity from lists an order less what we took.
    const taken = this.#x.recorded.hasConsumedIn(u.gameID);
    if (!resting && !taken) return u;
    const ours = resting && side ? this.#oursOf(u.gameID, side.key, side.idx, side.taker) : NO_ORDERS;
    const recorded = taken ? this.#lessTaken(u.sideOrders) : u.sideOrders;
    if (ours.length === 0 && recorded === u.sideOrders) return u;
    return { ...u, sideOrders: merge(recorded, ours) };
  }

  /**
   * The side as it stands now, for when only our part of it changed (an order of ours
   * placed, cancelled, filled, or recorded liquidity taken): null when the game is unknown
   * or has ended (the exchange lists nothing on a closed game).
   */
  sideUpdate(gameID: string, bookKey: string, side: 0 | 1, taker: Selection): OrderUpdate | null {
    const c = this.#list(gameID, bookKey, side, taker);
    if (c === null) return null;
    const game = c.game!;
    const label = c.label!;
    const epoch = Math.max(c.epoch, this.#newestEpoch(gameID)?.epoch ?? 0);
    const { parentGameID, sport, league, live } = game;
    const type = taker.type;
    const orders = c.orders;
    // The label's fields after `type`, in the label's own order, as a spread of it would put
    // them, spelt as whole literals: a spread in the middle of a literal takes V8's slow path,
    // and fields added after it give the object a second store.
    switch (c.shape) {
      case LabelShape.Participant:
        return {
          epoch,
          gameID,
          parentGameID,
          sport,
          league,
          live,
          type,
          participantID: label.participantID,
          sideOrders: orders,
        };
      case LabelShape.Spread:
        return {
          epoch,
          gameID,
          parentGameID,
          sport,
          league,
          live,
          type,
          participantID: label.participantID,
          spread: label.spread!,
          sideOrders: orders,
        };
      case LabelShape.Total:
        return {
          epoch,
          gameID,
          parentGameID,
          sport,
          league,
          live,
          type,
          participantID: label.participantID,
          total: label.total!,
          OU: label.OU!,
          sideOrders: orders,
        };
      case LabelShape.Outcome:
        return {
          epoch,
          gameID,
          parentGameID,
          sport,
          league,
          live,
          type,
          participantID: label.participantID,
          market: label.market!,
          side: label.side!,
          sideOrders: orders,
        };
      default:
        return { epoch, gameID, parentGameID, sport, league, live, type, ...label, sideOrders: orders };
    }
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
    const c = this.#list(gameID, bookKey, side, taker);
    return c === null ? null : { game: c.game!, label: c.label!, orders: c.orders, epoch: c.epoch };
  }

  /** The record of the newest epoch the bot got for the game (undefined: none yet), through the one-game memo. */
  #newestEpoch(gameID: string): { epoch: number } | undefined {
    if (gameID !== this.#epochGame) {
      this.#epochGame = gameID;
      this.#epochRecord = this.#epochs.get(gameID);
    }
    return this.#epochRecord;
  }

  /** The side's listing built now into its cache (`orders`, `epoch`); null as for sideUpdate. */
  #list(gameID: string, bookKey: string, side: 0 | 1, taker: Selection): SideCache | null {
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
      cache.shape = labelShape(cache.label);
    }
    cache.orders = merge(
      this.#recordedPart(cache, listed?.offers ?? NO_OFFERS),
      this.#ours(game, bookKey, side, cache),
    );
    cache.epoch = listed?.epoch ?? 0;
    return cache;
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
    return (pair[side] ??= {
      game: null,
      label: null,
      shape: LabelShape.Other,
      recorded: NO_ORDERS,
      oursGame: null,
      ours: NO_ORDERS,
      orders: NO_ORDERS,
      epoch: 0,
    });
  }

  /**
   * Our orders on the side, rendered as the exchange lists them. An order listed last time
   * with nothing in it changed since is listed as rendered then: a recorded update on a side
   * where ours rest lists them again each time, and most of them are as they were.
   */
  #ours(game: EngineGame, bookKey: string, side: 0 | 1, cache: SideCache): BookOrder[] {
    const listed = this.#x.engine.bookSide(game.id, bookKey, side);
    if (listed.length === 0) return (cache.ours = NO_ORDERS);
    const label = cache.label!;
    const prev = cache.oursGame === game ? cache.ours : NO_ORDERS;
    const out: BookOrder[] = [];
    let j = 0;
    for (let i = 0; i < listed.length; i++) {
      const l = listed[i]!;
      if (l.order.userId !== US) continue;
      // Ours keep their order in the listing: the one listed last time is found where the last match left off.
      let was: BookOrder | undefined;
      for (let k = j; k < prev.length; k++)
        if (prev[k]!.id === l.order.id) {
          was = prev[k];
          j = k + 1;
          break;
        }
      out.push(was !== undefined && sameOurs(was, l) ? was : (renderBookOrder(game, label, l) as BookOrder));
    }
    cache.oursGame = game;
    cache.ours = out;
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
      cache.shape = labelShape(cache.label);
    }
    return this.#ours(game, bookKey, side, cache);
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

/** Which fields a side's label has, past `participantID`: the four that sideLabel makes, or another. */
const LabelShape = { Participant: 0, Spread: 1, Total: 2, Outcome: 3, Other: 4 } as const;
type LabelShape = (typeof LabelShape)[keyof typeof LabelShape];

function labelShape(l: SideLabel): LabelShape {
  const spread = l.spread !== undefined;
  const total = l.total !== undefined || l.OU !== undefined;
  const outcome = l.market !== undefined || l.side !== undefined;
  const keys = Object.keys(l).length;
  if (!spread && !total && !outcome) return keys === 1 ? LabelShape.Participant : LabelShape.Other;
  if (spread && !total && !outcome) return keys === 2 ? LabelShape.Spread : LabelShape.Other;
  if (!spread && l.total !== undefined && l.OU !== undefined && !outcome)
    return keys === 3 ? LabelShape.Total : LabelShape.Other;
  if (!spread && !total && l.market !== undefined && l.side !== undefined)
    return keys === 3 ? LabelShape.Outcome : LabelShape.Other;
  return LabelShape.Other;
}

/** What a side's listing keeps between builds. */
interface SideCache {
  /** The game's record the label was spelt from (the engine replaces it when the game changes). */
  game: EngineGame | null;
  label: SideLabel | null;
  /** Which fields the label has: how a side update spells them. */
  shape: LabelShape;
  /** The recorded part as last listed; never changed once listed (a listing may share it). */
  recorded: BookOrder[];
  /** Our orders as last rendered, and the game's record they were rendered on (its start is an expiry's). */
  oursGame: EngineGame | null;
  ours: BookOrder[];
  /** The listing last built: the recorded part and ours merged, and the recorded side's epoch. */
  orders: BookOrder[];
  epoch: number;
}

const NO_OFFERS: readonly ListedOffer[] = [];
/** Shared and empty: never pushed to (merge copies before adding). */
const NO_ORDERS: BookOrder[] = [];

/**
 * Whether an order of ours rendered earlier still says what rendering `l` would, on the same
 * game record and label: its id, wire type, game and creation never change; the rest may (a
 * fill, an edit).
 */
function sameOurs(was: BookOrder, l: ListedOrder): boolean {
  const o = l.order;
  const w = was as WireBookOrder;
  return (
    w.sumUntaken === l.sumUntaken &&
    w.odds === l.listedOdds &&
    w.bet === o.bet &&
    w.takenRatio === (o.bet > 0 ? o.filled / o.bet : 0) &&
    w.gameStartExpiry === o.gameStartExpiry &&
    (w.isPostArb === true) === o.isPostArb
  );
}

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
