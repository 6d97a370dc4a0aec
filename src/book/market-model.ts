import { BOOK_COLLECTIONS, type BookOrder } from '../exchange/schemas/book-order.ts';
import type { OrderbookGame } from '../exchange/schemas/exchange.ts';
import type { Game } from '../exchange/schemas/game.ts';
import type { GameUpdate, MatchedVolumeUpdate, OrderUpdate } from '../exchange/schemas/price-feed.ts';
import { bookKeyOf, oppositeSelection, sideIndexOf, type Selection } from '../markets/types.ts';
import { oddsRank } from '../odds/american.ts';
import { takerSelectionOfLabel } from '../markets/wire-selection.ts';
import { ActivityMeter } from './activity.ts';
import type { BookSide, GameActivity, GameState, ListedOffer, MarketBook, Participants } from './types.ts';

export interface MarketModelStats {
  orderUpdates: number;
  staleUpdates: number;
  unknownGames: number;
  unreadableSides: number;
}

function participantsOf(g: Game): Participants | null {
  const away = g.participants.find((p) => p.homeAway === 'away') ?? g.participants[0];
  const home = g.participants.find((p) => p.homeAway === 'home') ?? g.participants[1];
  if (!away || !home) return null;
  return { awayId: away.id, homeId: home.id, awayName: away.longName, homeName: home.longName };
}

/** The two taker selections of a book, side 0 first. */
function sidesOf(taker: Selection): [Selection, Selection] {
  const other = oppositeSelection(taker);
  return sideIndexOf(taker) === 0 ? [taker, other] : [other, taker];
}

function emptyBook(taker: Selection): MarketBook {
  const [s0, s1] = sidesOf(taker);
  return { key: bookKeyOf(taker), type: taker.type, sides: [{ taker: s0, offers: [], epoch: 0 }, { taker: s1, offers: [], epoch: 0 }] };
}

/**
 * The market half of the book model: games and their books, from the v2 orderbook snapshot
 * and then the price feed. Every change replaces the touched objects (copy on write), so a
 * GameState handed out earlier never changes under its reader. Only the runtime's event
 * loop calls the mutating methods.
 */
export class MarketModel {
  readonly #games = new Map<string, GameState>();
  readonly #activity = new Map<string, ActivityMeter>();
  readonly #isMine: (orderID: string) => boolean;
  readonly stats: MarketModelStats = { orderUpdates: 0, staleUpdates: 0, unknownGames: 0, unreadableSides: 0 };

  constructor(isMine: (orderID: string) => boolean) {
    this.#isMine = isMine;
  }

  game(id: string): GameState | undefined {
    return this.#games.get(id);
  }

  games(): IterableIterator<GameState> {
    return this.#games.values();
  }

  activity(id: string, now: number): GameActivity {
    return this.#activity.get(id)?.read(now) ?? { takerArrivalsPerMinute: 0, volumePerMinute: 0 };
  }

  /** A game without prices (getGames, gameUpdate): keeps the books it has. */
  upsertGame(g: Game | GameUpdate, now: number, flags: { ended?: boolean } = {}): GameState | null {
    const participants = participantsOf(g);
    if (!participants) return null;
    const prev = this.#games.get(g.id);
    const next: GameState = {
      id: g.id,
      league: g.league,
      sport: g.sport,
      parentGameID: g.parentGameID ?? null,
      start: g.start ? Date.parse(g.start) : NaN,
      live: g.live ?? prev?.live ?? false,
      ended: flags.ended ?? g.ended ?? prev?.ended ?? false,
      participants,
      mainHomeSpread: 'mainHomeSpread' in g && g.mainHomeSpread !== undefined ? g.mainHomeSpread : (prev?.mainHomeSpread ?? null),
      mainTotal: 'mainTotal' in g && g.mainTotal !== undefined ? g.mainTotal : (prev?.mainTotal ?? null),
      matchedVolume: 'matchedVolume' in g && typeof g.matchedVolume === 'number' ? g.matchedVolume : (prev?.matchedVolume ?? 0),
      books: prev?.books ?? new Map(),
      updatedAt: now,
    };
    this.#games.set(g.id, next);
    if (!this.#activity.has(g.id)) this.#activity.set(g.id, new ActivityMeter(now));
    this.#activity.get(g.id)!.observe(next.matchedVolume, now);
    return next;
  }

  /** A full v2 orderbook game: the game and every book, replacing what was known. */
  applySnapshot(g: OrderbookGame, now: number): GameState | null {
    const base = this.upsertGame(g, now);
    if (!base) return null;
    const sides = new Map<string, { taker: Selection; offers: ListedOffer[] }>();
    for (const arr of BOOK_COLLECTIONS) {
      for (const o of g[arr]) {
        const taker = takerSelectionOfLabel(base.participants, o.type ?? '', o);
        if (!taker) {
          this.stats.unreadableSides++;
          continue;
        }
        const k = `${bookKeyOf(taker)}#${sideIndexOf(taker)}`;
        let e = sides.get(k);
        if (!e) sides.set(k, (e = { taker, offers: [] }));
        e.offers.push(this.#offer(o));
      }
    }
    const books = new Map<string, MarketBook>();
    for (const { taker, offers } of sides.values()) {
      const key = bookKeyOf(taker);
      const book = books.get(key) ?? emptyBook(taker);
      books.set(key, withSide(book, sideIndexOf(taker), { taker, offers: sortBest(offers), epoch: 0 }));
    }
    const next = { ...base, books, updatedAt: now };
    this.#games.set(g.id, next);
    return next;
  }

  /**
   * One side of one line changed (feeds §2): `sideOrders` is its full current list. An
   * update older than the side's last (by `epoch`) is dropped.
   */
  applyOrderUpdate(u: OrderUpdate, now: number): GameState | null {
    this.stats.orderUpdates++;
    const game = this.#games.get(u.gameID);
    if (!game) {
      this.stats.unknownGames++;
      return null;
    }
    const taker = takerSelectionOfLabel(game.participants, u.type, u);
    if (!taker) {
      this.stats.unreadableSides++;
      return null;
    }
    const key = bookKeyOf(taker);
    const idx = sideIndexOf(taker);
    const book = game.books.get(key) ?? emptyBook(taker);
    if (u.epoch < book.sides[idx].epoch) {
      this.stats.staleUpdates++;
      return null;
    }
    const side: BookSide = { taker, offers: sortBest(u.sideOrders.map((o) => this.#offer(o))), epoch: u.epoch };
    const books = new Map(game.books);
    books.set(key, withSide(book, idx, side));
    const next: GameState = {
      ...game,
      books,
      live: u.live ?? game.live,
      mainHomeSpread: u.mainHomeSpread !== undefined ? u.mainHomeSpread : game.mainHomeSpread,
      mainTotal: u.mainTotal !== undefined ? u.mainTotal : game.mainTotal,
      updatedAt: now,
    };
    this.#games.set(game.id, next);
    return next;
  }

  applyMatchedVolume(u: MatchedVolumeUpdate, now: number): GameState | null {
    const game = this.#games.get(u.gameID);
    if (!game) return null;
    this.#activity.get(game.id)?.observe(u.matchedVolume, now);
    const next = { ...game, matchedVolume: u.matchedVolume, updatedAt: now };
    this.#games.set(game.id, next);
    return next;
  }

  /** An order of ours got its id after its listing arrived: flag it in the sides that hold it. */
  remarkMine(gameID: string, orderID: string, now: number): GameState | null {
    const game = this.#games.get(gameID);
    if (!game) return null;
    let books: Map<string, MarketBook> | null = null;
    for (const [key, book] of game.books) {
      for (const idx of [0, 1] as const) {
        const side = book.sides[idx];
        if (!side.offers.some((o) => o.id === orderID && !o.mine)) continue;
        books ??= new Map(game.books);
        const cur = books.get(key)!;
        books.set(key, withSide(cur, idx, { ...side, offers: side.offers.map((o) => (o.id === orderID ? { ...o, mine: true } : o)) }));
      }
    }
    if (!books) return null;
    const next = { ...game, books, updatedAt: now };
    this.#games.set(gameID, next);
    return next;
  }

  /** The game left the board (ended, or closed by a gameUpdate). */
  markEnded(gameID: string, now: number): GameState | null {
    const game = this.#games.get(gameID);
    if (!game || game.ended) return null;
    const next = { ...game, ended: true, updatedAt: now };
    this.#games.set(gameID, next);
    return next;
  }

  /** Drop a game and its activity meter: it no longer exists for the model (a later update may list it again). */
  forget(gameID: string): boolean {
    this.#activity.delete(gameID);
    return this.#games.delete(gameID);
  }

  #offer(o: BookOrder): ListedOffer {
    return { id: o.id, odds: o.odds, sumUntaken: o.sumUntaken, bet: o.bet, isPostArb: o.isPostArb === true, mine: this.#isMine(o.id) };
  }
}

function withSide(book: MarketBook, idx: 0 | 1, side: BookSide): MarketBook {
  return { ...book, sides: idx === 0 ? [side, book.sides[1]] : [book.sides[0], side] };
}

/** Best price for the taker first; the feed's order (time priority) kept among equals. */
function sortBest(offers: ListedOffer[]): ListedOffer[] {
  // The feed lists a side best-first already; sorting is for when it does not.
  let sorted = true;
  for (let i = 1; i < offers.length && sorted; i++) sorted = oddsRank(offers[i - 1]!.odds) >= oddsRank(offers[i]!.odds);
  if (sorted) return offers;
  return offers.map((o, i) => ({ o, i })).sort((a, b) => oddsRank(b.o.odds) - oddsRank(a.o.odds) || a.i - b.i).map((x) => x.o);
}
