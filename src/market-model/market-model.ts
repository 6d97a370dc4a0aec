import { BOOK_COLLECTIONS, type BookOrder } from '../exchange/schemas/book-order.ts';
import type { OrderbookGame } from '../exchange/schemas/exchange.ts';
import type { Game } from '../exchange/schemas/game.ts';
import type { GameUpdate, MatchedVolumeUpdate, OrderUpdate } from '../exchange/schemas/price-feed.ts';
import { bookKeyOf, oppositeSelection, sideIndexOf, type Selection } from '../markets/types.ts';
import { oddsRank } from '../odds/american.ts';
import { ActivityMeter } from './activity.ts';
import { BookMap, type BookSlot } from './book-map.ts';
import { SideLabels, type ResolvedSide } from './side-labels.ts';
import type { BookSide, GameActivity, GameState, ListedOffer, MarketBook, OwnOrderIDs, Participants } from './types.ts';

/** The test for one game's orders: null when none of them can be ours. */
type IsMine = ((orderID: string) => boolean) | null;

export interface MarketModelStats {
  orderUpdates: number;
  staleUpdates: number;
  unknownGames: number;
  unreadableSides: number;
}

export function participantsOf(g: Game): Participants | null {
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
  return {
    key: bookKeyOf(taker),
    type: taker.type,
    sides: [
      { taker: s0, offers: [], epoch: null },
      { taker: s1, offers: [], epoch: null },
    ],
  };
}

/** One side replaced by an orderUpdate: what it listed before and what it lists now. */
export interface SideChange {
  readonly gameID: string;
  readonly bookKey: string;
  readonly side: 0 | 1;
  /** Undefined when the book was not listed before. */
  readonly prev: BookSide | undefined;
  readonly next: BookSide;
}

/** Who a game is, which never changes with its prices (what interest filters read). */
export interface GameIdentity {
  readonly id: string;
  readonly league: string;
  readonly sport: string;
  readonly parentGameID: string | null;
}

/** A game as the model keeps it: the fields of its latest state, its books, and the snapshot last handed out. */
interface Entry {
  /** Changed in place: only snapshotOf reads it, and copies it. */
  readonly head: { -readonly [K in Exclude<keyof GameState, 'books'>]: GameState[K] };
  readonly identity: GameIdentity;
  /** Each book in a slot the book's changes replace it in (see BookSlot). */
  readonly books: Map<string, BookSlot>;
  readonly labels: SideLabels;
  /** The GameState of the current content, built when first asked for; null after a change. */
  snapshot: GameState | null;
  /**
   * The copy of `books` the latest snapshot holds, while no book changed since (null after a
   * book changed): a snapshot after a change of the game's other fields alone shares it, and
   * holding it is proof that no book changed (see booksUnchangedSince).
   */
  sharedBooks: BookMap | null;
  /**
   * The books of the latest snapshot, kept after a change of a book while the game lists
   * the same keys in the same order (dropped when a key comes or goes): the next snapshot
   * shares its index of keys without comparing them.
   */
  lastBooks: BookMap | undefined;
  /** Taken as ended for missing from a read of the board (markEnded's `inferred`), not on the exchange's word. */
  endedByInference: boolean;
}

/**
 * The market half of the book model: games and their books, from the v2 orderbook snapshot
 * and then the price feed. A GameState handed out never changes under its reader: a change
 * replaces the touched book and side objects, and `game()` builds a new GameState (with its
 * own map of books) when the game changed since the last one. Building it on read rather
 * than on every update matters because a busy feed updates a game many times between two
 * evaluations of it. Only the runtime's event loop calls the mutating methods.
 */
export class MarketModel {
  readonly #games = new Map<string, Entry>();
  /**
   * The game last looked up and its entry: the feed sends a game's sides in bursts, and one
   * update is looked up more than once (its label, then the update), so most lookups hit it.
   * Cleared whenever the map changes.
   */
  #lastID: string | null = null;
  #lastEntry: Entry | undefined = undefined;
  readonly #activity = new Map<string, ActivityMeter>();
  /**
   * Which orders are ours, game by game; null for a model that never holds an order of ours
   * (the backtest's recorded market): nothing to ask per order.
   */
  readonly #mine: OwnOrderIDs | null;
  /** Whether the side list #listing gave last holds an order of ours. */
  #sawMine = false;
  /** The side the update this model applied last replaced, before and after it (see lastSideBefore). */
  #lastPrev: BookSide | undefined = undefined;
  #lastNext: BookSide | null = null;
  /** What the side list #listing gave last was built from, index for index (null: it was put in order). */
  #listedFrom: readonly BookOrder[] | null = null;
  readonly stats: MarketModelStats = { orderUpdates: 0, staleUpdates: 0, unknownGames: 0, unreadableSides: 0 };

  /** `mine`: one test for every game's orders, or the tests game by game (see OwnOrderIDs). */
  constructor(mine: ((orderID: string) => boolean) | OwnOrderIDs | null) {
    this.#mine = typeof mine === 'function' ? { ofGame: () => mine } : mine;
  }

  /** The test for the game's orders: null when none of them can be ours. */
  #isMineOn(gameID: string): IsMine {
    const mine = this.#mine;
    return mine === null ? null : mine.ofGame(gameID);
  }

  /** The game's entry, through the one-game memo. */
  #entry(id: string): Entry | undefined {
    if (id === this.#lastID) return this.#lastEntry;
    const e = this.#games.get(id);
    this.#lastID = id;
    this.#lastEntry = e;
    return e;
  }

  game(id: string): GameState | undefined {
    const e = this.#entry(id);
    return e ? snapshotOf(e) : undefined;
  }

  has(id: string): boolean {
    return this.#entry(id) !== undefined;
  }

  /** How many games the model holds. */
  get size(): number {
    return this.#games.size;
  }

  /** Ids of the games that ended and last changed at or before `before`, without building their snapshots. */
  *endedBefore(before: number): IterableIterator<string> {
    for (const [id, e] of this.#games) if (e.head.ended && e.head.updatedAt <= before) yield id;
  }

  identity(id: string): GameIdentity | undefined {
    return this.#entry(id)?.identity;
  }

  *identities(): IterableIterator<GameIdentity> {
    for (const e of this.#games.values()) yield e.identity;
  }

  /** The game's participants, without building its snapshot. */
  participants(gameID: string): Participants | undefined {
    return this.#entry(gameID)?.head.participants;
  }

  /** One book as listed now, without building the game's snapshot. */
  book(gameID: string, bookKey: string): MarketBook | undefined {
    return this.#entry(gameID)?.books.get(bookKey)?.book;
  }

  /** One side of one book as listed now, without building the game's snapshot. */
  side(gameID: string, bookKey: string, idx: 0 | 1): BookSide | undefined {
    return this.#entry(gameID)?.books.get(bookKey)?.book.sides[idx];
  }

  /**
   * The game's fields other than its books as they stand now, without building its snapshot:
   * the live record, changed in place by the next update, so read it at once and do not keep it.
   */
  head(gameID: string): Readonly<Omit<GameState, 'books'>> | undefined {
    return this.#entry(gameID)?.head;
  }

  /**
   * Whether the game lists exactly the books of `books` now, `books` being the map of a
   * snapshot of it: true only while no book of the game changed since that snapshot was
   * built (each change replaces a book object, so this is the same answer as comparing
   * every book by identity, without the walk).
   */
  booksUnchangedSince(gameID: string, books: ReadonlyMap<string, MarketBook>): boolean {
    return this.#entry(gameID)?.sharedBooks === books;
  }

  /** How many books the game lists now (0 for a game the model does not know). */
  bookCount(gameID: string): number {
    return this.#entry(gameID)?.books.size ?? 0;
  }

  matchedVolume(gameID: string): number | undefined {
    return this.#entry(gameID)?.head.matchedVolume;
  }

  activity(id: string, now: number): GameActivity {
    return this.#activity.get(id)?.read(now) ?? { takerArrivalsPerMinute: 0, volumePerMinute: 0 };
  }

  /** A game without prices (getGames, gameUpdate): keeps the books it has. */
  upsertGame(g: Game | GameUpdate, now: number, flags: { ended?: boolean } = {}): GameState | null {
    const e = this.#upsert(g, now, flags);
    return e ? snapshotOf(e) : null;
  }

  #upsert(g: Game | GameUpdate, now: number, flags: { ended?: boolean }): Entry | null {
    const participants = participantsOf(g);
    if (!participants) return null;
    const prev = this.#entry(g.id);
    const was = prev?.head;
    const head: Entry['head'] = {
      id: g.id,
      league: g.league,
      sport: g.sport,
      parentGameID: g.parentGameID ?? null,
      start: g.start ? Date.parse(g.start) : NaN,
      live: g.live ?? was?.live ?? false,
      ended: flags.ended ?? g.ended ?? was?.ended ?? false,
      participants,
      mainHomeSpread:
        'mainHomeSpread' in g && g.mainHomeSpread !== undefined ? g.mainHomeSpread : (was?.mainHomeSpread ?? null),
      mainTotal: 'mainTotal' in g && g.mainTotal !== undefined ? g.mainTotal : (was?.mainTotal ?? null),
      matchedVolume:
        'matchedVolume' in g && typeof g.matchedVolume === 'number' ? g.matchedVolume : (was?.matchedVolume ?? 0),
      updatedAt: now,
    };
    const identity =
      prev && sameIdentity(prev.identity, head)
        ? prev.identity
        : { id: head.id, league: head.league, sport: head.sport, parentGameID: head.parentGameID };
    const labels =
      prev && sameParticipants(prev.head.participants, participants) ? prev.labels : new SideLabels(participants);
    const entry: Entry = {
      head,
      identity,
      books: prev?.books ?? new Map(),
      labels,
      snapshot: null,
      sharedBooks: prev?.sharedBooks ?? null,
      lastBooks: undefined,
      // Still inferred only while nothing said otherwise; a game the exchange says ended stays so.
      endedByInference:
        prev !== undefined && prev.endedByInference && head.ended && flags.ended === undefined && g.ended == null,
    };
    this.#games.set(g.id, entry);
    this.#lastID = null;
    this.#lastEntry = undefined;
    if (!this.#activity.has(g.id)) this.#activity.set(g.id, new ActivityMeter(now));
    this.#activity.get(g.id)!.observe(head.matchedVolume, now);
    return entry;
  }

  /** A full v2 orderbook game: the game and every book, replacing what was known. */
  applySnapshot(g: OrderbookGame, now: number): GameState | null {
    const entry = this.#upsert(g, now, {});
    if (!entry) return null;
    const sides = new Map<string, { r: ResolvedSide; offers: ListedOffer[] }>();
    const isMine = this.#isMineOn(g.id);
    for (const arr of BOOK_COLLECTIONS) {
      for (const o of g[arr]) {
        const r = entry.labels.resolve(o.type ?? '', o);
        if (!r) {
          this.stats.unreadableSides++;
          continue;
        }
        const k = `${r.key}#${r.idx}`;
        let e = sides.get(k);
        if (!e) sides.set(k, (e = { r, offers: [] }));
        e.offers.push(offerOf(o, isMine !== null && isMine(o.id)));
      }
    }
    // A game that lists no book before and after keeps the same (empty) books.
    if (entry.books.size > 0 || sides.size > 0) entry.sharedBooks = null;
    entry.books.clear();
    entry.lastBooks = undefined;
    for (const { r, offers } of sides.values()) {
      const side: BookSide = { taker: r.taker, offers: sortBest(offers), epoch: null };
      const slot = entry.books.get(r.key);
      if (slot !== undefined) slot.book = withSide(slot.book, r.idx, side);
      else entry.books.set(r.key, { book: withSide(emptyBook(r.taker), r.idx, side), from: [null, null] });
    }
    return snapshotOf(entry);
  }

  /**
   * One side of one line changed (feeds §2): `sideOrders` is its full current list. The only
   * use of `epoch` (feeds §8): an update whose epoch is strictly lower than the last one
   * applied on this same side is dropped as stale. A missing or equal epoch never drops it;
   * one without an epoch leaves the side's last epoch as it was. `side` is what `resolveSide(u)`
   * gave, for a caller that needs it whether or not the update applies (the backtest's bot
   * feed): passing it saves reading the label twice.
   */
  applyOrderUpdate(u: OrderUpdate, now: number, side?: ResolvedSide | null): SideChange | null {
    if (!this.appliesOrderUpdate(u, now, side)) return null;
    const la = lastApplied;
    const prev = this.#lastPrev;
    const made = la.change;
    // The model that built the side and one that shared it with the same side before hand out one change.
    if (made !== null && made.prev === prev) return made;
    const r = la.r!;
    const change: SideChange = { gameID: u.gameID, bookKey: r.key, side: r.idx, prev, next: this.#lastNext! };
    if (made === null) la.change = change;
    return change;
  }

  /**
   * As applyOrderUpdate, without the change object, for a caller that reads no more than
   * whether the update applied, or reads the side before and after it at once
   * (`lastSideBefore`, `lastSideAfter`, valid until this model's next update): a replay
   * applies every recorded update to two models, and neither keeps the change.
   */
  appliesOrderUpdate(u: OrderUpdate, now: number, side?: ResolvedSide | null): boolean {
    this.stats.orderUpdates++;
    const e = this.#entry(u.gameID);
    if (!e) {
      this.stats.unknownGames++;
      return false;
    }
    const isMine = this.#isMineOn(u.gameID);
    if (this.#sharedApply(u, e, side, now, isMine)) return true;
    const r = side !== undefined ? side : e.labels.resolve(u.type, u);
    if (!r) {
      this.stats.unreadableSides++;
      return false;
    }
    const slot = e.books.get(r.key);
    const book = slot?.book;
    const prev = book?.sides[r.idx];
    const last = prev?.epoch ?? null;
    const epoch = u.epoch ?? null;
    if (epoch !== null && last !== null && epoch < last) {
      this.stats.staleUpdates++;
      return false;
    }
    const next: BookSide = {
      taker: r.taker,
      offers: this.#listing(u.sideOrders, prev?.offers, slot === undefined ? null : slot.from[r.idx], isMine),
      epoch: epoch ?? last,
    };
    const after = withSide(book ?? emptyBook(r.taker), r.idx, next);
    const from = this.#listedFrom;
    this.#setBook(e, u, slot, r.key, after, now, r.idx, from);
    this.#lastPrev = prev;
    this.#lastNext = next;
    // Another model fed this very update next may take what this one built (#sharedApply).
    lastApplied.u = u;
    lastApplied.participants = e.head.participants;
    lastApplied.r = r;
    lastApplied.before = book;
    lastApplied.prev = prev;
    lastApplied.next = next;
    lastApplied.after = after;
    lastApplied.change = null;
    lastApplied.mine = this.#sawMine;
    lastApplied.from = from;
    return true;
  }

  /** The side the update this model applied last replaced, as it was before (undefined: its book was not listed). */
  get lastSideBefore(): BookSide | undefined {
    return this.#lastPrev;
  }

  /** The side the update this model applied last listed after it. */
  get lastSideAfter(): BookSide {
    return this.#lastNext!;
  }

  /**
   * Applies the update as the model that applied it last applied it, when this model would
   * build exactly the same: the very same update object (in a backtest, the bot's feed
   * passing a recorded update through unchanged), the same participants (so its label names
   * the same side), the same side object before it (so the same epoch check and the same
   * list) or an update with an epoch that is not stale here (the side after it is then the
   * same whatever it was before), and no order of it seen as its own by either model. The
   * side, and the book too when its other side is also the same object, are then taken as
   * they are (immutable, so safe to share): the two models hold the same objects, and the
   * next such update finds them the same again. Whether it did.
   */
  #sharedApply(u: OrderUpdate, e: Entry, side: ResolvedSide | null | undefined, now: number, isMine: IsMine): boolean {
    const la = lastApplied;
    if (la.u !== u || la.mine || (side !== undefined && side !== la.r)) return false;
    const p = la.participants!;
    const q = e.head.participants;
    if (p !== q && (p.awayId !== q.awayId || p.homeId !== q.homeId)) return false;
    const r = la.r!;
    const slot = e.books.get(r.key);
    const book = slot?.book;
    const prev = book?.sides[r.idx];
    if (prev !== la.prev) {
      // Another side before it (read apart, from a snapshot): the same side after it all
      // the same when the update carries its epoch and is not stale here.
      const epoch = u.epoch ?? null;
      if (epoch === null || (prev !== undefined && prev.epoch !== null && epoch < prev.epoch)) return false;
    }
    if (!noneMine(u.sideOrders, isMine)) return false;
    const other = r.idx === 0 ? 1 : 0;
    const after =
      book === la.before || (book !== undefined && book.sides[other] === la.after!.sides[other])
        ? la.after!
        : withSide(book ?? emptyBook(r.taker), r.idx, la.next!);
    this.#setBook(e, u, slot, r.key, after, now, r.idx, la.from);
    this.#lastPrev = prev;
    this.#lastNext = la.next;
    return true;
  }

  /**
   * The side's book replaced after an update (in its slot, when it had one), and the game's
   * fields the update carries; `from`: what side `idx`'s offers were built from (see BookSlot).
   */
  #setBook(
    e: Entry,
    u: OrderUpdate,
    slot: BookSlot | undefined,
    key: string,
    book: MarketBook,
    now: number,
    idx: 0 | 1,
    from: readonly BookOrder[] | null,
  ): void {
    if (slot !== undefined) {
      slot.book = book;
      slot.from[idx] = from;
    } else {
      e.books.set(key, { book, from: idx === 0 ? [from, null] : [null, from] });
      e.lastBooks = undefined;
    }
    e.sharedBooks = null;
    const h = e.head;
    // Orders resting on a side: the exchange takes them on a live game only (a game's end
    // expires them all), so one taken as ended for missing from a read of the board is on it.
    if (e.endedByInference && u.sideOrders.length > 0) {
      h.ended = false;
      e.endedByInference = false;
    }
    if (u.live !== undefined && u.live !== null) h.live = u.live;
    if (u.mainHomeSpread !== undefined) h.mainHomeSpread = u.mainHomeSpread;
    if (u.mainTotal !== undefined) h.mainTotal = u.mainTotal;
    h.updatedAt = now;
    e.snapshot = null;
  }

  /** The game's matched volume moved; false for a game the model does not know. */
  applyMatchedVolume(u: MatchedVolumeUpdate, now: number): boolean {
    const e = this.#entry(u.gameID);
    if (!e) return false;
    this.#activity.get(u.gameID)?.observe(u.matchedVolume, now);
    e.head.matchedVolume = u.matchedVolume;
    e.head.updatedAt = now;
    e.snapshot = null;
    return true;
  }

  /**
   * An order of ours got its id after its listing arrived: flag it in the sides that hold it.
   * Whether any did. `bookKey`, when the caller knows the order's book: the only book that
   * can list it (an order rests on the book of its selection), so no other is looked at.
   */
  remarkMine(gameID: string, orderID: string, now: number, bookKey?: string): boolean {
    const e = this.#entry(gameID);
    if (!e) return false;
    let changed = false;
    // Usually no side lists it yet (the listing comes after the answer that gave its id): a
    // plain walk of every offer, with nothing allocated until one is found.
    if (bookKey !== undefined) {
      const slot = e.books.get(bookKey);
      changed = slot !== undefined && remarkedIn(slot, orderID);
    } else for (const slot of e.books.values()) if (remarkedIn(slot, orderID)) changed = true;
    if (!changed) return false;
    e.head.updatedAt = now;
    e.snapshot = null;
    e.sharedBooks = null;
    return true;
  }

  /** The book and side an update's label names on its game, without applying it (null: unknown game or label). */
  resolveSide(u: OrderUpdate): ResolvedSide | null {
    return this.#entry(u.gameID)?.labels.resolve(u.type, u) ?? null;
  }

  /** The game left the board (ended, or closed by a gameUpdate); false if unknown or already ended. */
  markEnded(gameID: string, now: number, options: { inferred?: boolean } = {}): boolean {
    const e = this.#entry(gameID);
    if (!e || e.head.ended) return false;
    e.head.ended = true;
    // Inferred (missing from a read of the board): the next update of one of its sides undoes it.
    if (options.inferred) e.endedByInference = true;
    e.head.updatedAt = now;
    e.snapshot = null;
    return true;
  }

  /** Drop a game and its activity meter: it no longer exists for the model (a later update may list it again). */
  forget(gameID: string): boolean {
    this.#activity.delete(gameID);
    this.#lastID = null;
    this.#lastEntry = undefined;
    return this.#games.delete(gameID);
  }

  /**
   * What a side lists for `orders`, best first. Two models fed the same update (in a backtest,
   * the recorded market's and the bot's, when the bot's feed passes a recorded update through
   * unchanged) get the same list unless one of them sees one of its orders as its own: the
   * second then takes the first's (immutable) list after checking that, instead of building
   * and ordering it again. Kept for the latest list only, which is the one the second model
   * asks for right after the first.
   */
  #listing(
    orders: readonly BookOrder[],
    prev: readonly ListedOffer[] | undefined,
    prevFrom: readonly BookOrder[] | null,
    isMine: IsMine,
  ): readonly ListedOffer[] {
    if (lastListing.orders === orders && noneMine(orders, isMine)) {
      this.#sawMine = false;
      this.#listedFrom = lastListing.from;
      return lastListing.offers;
    }
    const offers = offersOf(orders, prev, prevFrom, isMine);
    const sorted = offersSorted ? offers : sortedBest(offers);
    const from = offersSorted ? orders : null;
    this.#sawMine = offersMine;
    this.#listedFrom = from;
    if (!offersMine) {
      lastListing.orders = orders;
      lastListing.offers = sorted;
      lastListing.from = from;
    }
    return sorted;
  }
}

/**
 * The latest side list built that no model saw any order of as its own, and the update's
 * `sideOrders` it was built from (see MarketModel's #listing). Module-wide, so two models
 * share it; only ever read for the very same `sideOrders` array, which nothing changes.
 */
const lastListing: {
  orders: readonly BookOrder[] | null;
  offers: readonly ListedOffer[];
  from: readonly BookOrder[] | null;
} = {
  orders: null,
  offers: [],
  from: null,
};

/**
 * The side's new list, in the feed's order. An update usually changes one offer of a few:
 * the others are the previous side's objects (immutable, so safe to share), found by
 * walking both lists in step, which saves most of the allocation of a busy feed. The same
 * walk tells whether the list is best first already and whether it holds an order of ours
 * (`offersSorted`, `offersMine`), so neither takes a second pass.
 */
function offersOf(
  orders: readonly BookOrder[],
  prev: readonly ListedOffer[] | undefined,
  prevFrom: readonly BookOrder[] | null,
  isMine: IsMine,
): ListedOffer[] {
  const n = orders.length;
  const out: ListedOffer[] = new Array(n);
  const m = prev === undefined ? 0 : prev.length;
  let sorted = true;
  let anyMine = false;
  let lastRank = 0;
  let j = 0;
  for (let i = 0; i < n; i++) {
    const o = orders[i]!;
    const mine = isMine !== null && isMine(o.id);
    if (mine) anyMine = true;
    let l: ListedOffer;
    if (j < m && keeps(prev![j]!, prevFrom, j, o, mine)) l = prev![j++]!;
    // One offer gone from before this one.
    else if (j + 1 < m && keeps(prev![j + 1]!, prevFrom, j + 1, o, mine)) {
      l = prev![j + 1]!;
      j += 2;
    } else l = offerOf(o, mine);
    out[i] = l;
    // The listed offer's odds are the order's: read from the one shape every offer has.
    const rank = oddsRank(l.odds);
    // Best first: each rank at most the one before (a NaN rank is out of order, as sortBest has it).
    if (i > 0 && !(lastRank >= rank)) sorted = false;
    lastRank = rank;
  }
  offersSorted = sorted;
  offersMine = anyMine;
  return out;
}

/** Whether no order of the list is ours. */
function noneMine(orders: readonly BookOrder[], isMine: IsMine): boolean {
  if (isMine === null) return true;
  for (let i = 0; i < orders.length; i++) if (isMine(orders[i]!.id)) return false;
  return true;
}

/** What MarketModel's last offersOf walk saw besides the list: whether it was best first, and whether it held an order of ours. */
let offersSorted = true;
let offersMine = false;

/**
 * The latest update any model applied and what it made of it (see MarketModel's
 * #sharedApply): the update, the game's participants its label was read against, the side
 * it named, the side and the book before and after, the change handed out if one was asked
 * for (null until then), and whether the model saw an order in it as its own. Module-wide,
 * so two models share it; only ever used for the very same update object, which nothing
 * changes.
 */
const lastApplied: {
  u: OrderUpdate | null;
  participants: Participants | null;
  r: ResolvedSide | null;
  before: MarketBook | undefined;
  prev: BookSide | undefined;
  next: BookSide | null;
  after: MarketBook | null;
  change: SideChange | null;
  mine: boolean;
  /** What the side after it was built from (see BookSlot). */
  from: readonly BookOrder[] | null;
} = {
  u: null,
  participants: null,
  r: null,
  before: undefined,
  prev: undefined,
  next: null,
  after: null,
  change: null,
  mine: true,
  from: null,
};

function snapshotOf(e: Entry): GameState {
  if (e.snapshot === null) {
    const h = e.head;
    e.snapshot = {
      id: h.id,
      league: h.league,
      sport: h.sport,
      parentGameID: h.parentGameID,
      start: h.start,
      live: h.live,
      ended: h.ended,
      participants: h.participants,
      mainHomeSpread: h.mainHomeSpread,
      mainTotal: h.mainTotal,
      matchedVolume: h.matchedVolume,
      books:
        (e.sharedBooks ??= e.lastBooks =
          e.lastBooks === undefined ? BookMap.ofSlots(e.books, null) : BookMap.ofSlotsWithKeysOf(e.books, e.lastBooks)),
      updatedAt: h.updatedAt,
    };
  }
  return e.snapshot;
}

function sameIdentity(a: GameIdentity, b: GameIdentity): boolean {
  return a.id === b.id && a.league === b.league && a.sport === b.sport && a.parentGameID === b.parentGameID;
}

function sameParticipants(a: Participants, b: Participants): boolean {
  return a.awayId === b.awayId && a.homeId === b.homeId;
}

function withSide(book: MarketBook, idx: 0 | 1, side: BookSide): MarketBook {
  return { key: book.key, type: book.type, sides: idx === 0 ? [side, book.sides[1]] : [book.sides[0], side] };
}

/** The slot's book with the order flagged as ours in the sides that list it; whether any did. */
function remarkedIn(slot: BookSlot, orderID: string): boolean {
  const book = slot.book;
  const s0 = sideMarkedMine(book.sides[0], orderID);
  const s1 = sideMarkedMine(book.sides[1], orderID);
  if (s0 === null && s1 === null) return false;
  slot.book = { key: book.key, type: book.type, sides: [s0 ?? book.sides[0], s1 ?? book.sides[1]] };
  return true;
}

/** The side with the order flagged as ours, or null when it lists no offer of that id not flagged yet. */
function sideMarkedMine(side: BookSide, orderID: string): BookSide | null {
  const offers = side.offers;
  let at = -1;
  for (let i = 0; i < offers.length && at < 0; i++) if (offers[i]!.id === orderID && !offers[i]!.mine) at = i;
  if (at < 0) return null;
  const marked = offers.slice();
  for (let i = at; i < marked.length; i++) if (marked[i]!.id === orderID) marked[i] = { ...marked[i]!, mine: true };
  return { ...side, offers: marked };
}

function offerOf(o: BookOrder, mine: boolean): ListedOffer {
  return { id: o.id, odds: o.odds, sumUntaken: o.sumUntaken, bet: o.bet, isPostArb: o.isPostArb === true, mine };
}

/**
 * Whether `l`, the previous list's offer at `at`, already says everything the order says:
 * at once when it was built from that very order object (`from`, index for index with the
 * previous list), else field by field.
 */
function keeps(l: ListedOffer, from: readonly BookOrder[] | null, at: number, o: BookOrder, mine: boolean): boolean {
  return (from !== null && from[at] === o && l.mine === mine) || sameOffer(l, o, mine);
}

/** Whether a listed offer already says everything the order says. */
function sameOffer(l: ListedOffer, o: BookOrder, mine: boolean): boolean {
  return (
    l.id === o.id &&
    l.odds === o.odds &&
    l.sumUntaken === o.sumUntaken &&
    l.bet === o.bet &&
    l.isPostArb === (o.isPostArb === true) &&
    l.mine === mine
  );
}

/** Best price for the taker first; the feed's order (time priority) kept among equals. */
function sortBest(offers: ListedOffer[]): ListedOffer[] {
  // The feed lists a side best-first already; sorting is for when it does not.
  let sorted = true;
  for (let i = 1; i < offers.length && sorted; i++) sorted = oddsRank(offers[i - 1]!.odds) >= oddsRank(offers[i]!.odds);
  return sorted ? offers : sortedBest(offers);
}

/** `offers` best price for the taker first, a new list; the feed's order (time priority) kept among equals. */
function sortedBest(offers: ListedOffer[]): ListedOffer[] {
  return offers
    .map((o, i) => ({ o, i }))
    .sort((a, b) => oddsRank(b.o.odds) - oddsRank(a.o.odds) || a.i - b.i)
    .map((x) => x.o);
}
