import { MarketModel } from '../../market-model/market-model.ts';
import type { ResolvedSide } from '../../market-model/side-labels.ts';
import type { BookSide, GameState, ListedOffer, MarketBook, Participants } from '../../market-model/types.ts';
import type { OrderbookGame } from '../../exchange/schemas/exchange.ts';
import type { Game } from '../../exchange/schemas/game.ts';
import type { GameUpdate, MatchedVolumeUpdate, OrderUpdate } from '../../exchange/schemas/price-feed.ts';
import { oddsRank, payout } from '../../odds/american.ts';
import type { LevelFlow } from './queue-model.ts';
import { VanishedOrders, type Vanished } from './vanished-orders.ts';

const EPS = 1e-9;
const NO_FLOWS: readonly SideFlows[] = [];
/** A side not listed before: no offers, one shared list rather than one per update. */
const NO_OFFERS: readonly ListedOffer[] = [];
/** Up to this many offers, a side is searched by a scan rather than through a map. */
const SCAN_MAX = 16;
/** Up to this many items, a sort by insertion (nothing allocated) beats `Array.prototype.sort`. */
const INSERTION_SORT_MAX = 32;

/** The last offer with the id, as a map built from the list would hold it. */
function lastWithId(offers: readonly ListedOffer[], id: string): ListedOffer | undefined {
  for (let i = offers.length - 1; i >= 0; i--) if (offers[i]!.id === id) return offers[i];
  return undefined;
}

/** A recorded change of one listed side, as flows per price level. */
export interface SideFlows {
  readonly gameID: string;
  readonly bookKey: string;
  readonly side: 0 | 1;
  readonly flows: readonly LevelFlow[];
}

interface PendingGame {
  readonly gameID: string;
  /** Which game this was to appear here: games settle in that order, whatever order their orders vanished in. */
  readonly order: number;
  t: number;
  /** Volume of this instant's trades already seen as partial fills of orders still listed. */
  explained: number;
  readonly vanished: VanishedOrders;
}

export interface RecordedMarketOptions {
  /**
   * Whether anyone reads the flows of a game now (default: every game). The flows of a side
   * are for our orders resting there; a game without any of ours gets no flows built, while
   * its vanished orders and traded volume are still accounted for exactly as with them.
   */
  readonly flowsWanted?: (gameID: string) => boolean;
}

const EVERY_GAME = () => true;

/**
 * The recorded market as it was, without us: the book from snapshots and the price feed (in
 * the same MarketModel the runtime uses), the liquidity our own orders took out of it, and
 * what traded. A listed order that shrinks traded; one that disappears traded only if the
 * game's matched volume rose by as much at the same instant (the exchange sends the
 * `matchedVolumeUpdate` right after the sides a fill touched), otherwise it was cancelled.
 */
export class RecordedMarket {
  readonly model = new MarketModel(null);
  readonly #consumed = new Map<string, number>();
  /** The games of the recorded orders in #consumed: a side of any other game lists none we took from. */
  readonly #consumedGames = new Set<string>();
  readonly #pending = new Map<string, PendingGame>();
  /** Games given a pending record so far: each record's `order` (records of forgotten games leave #pending). */
  #pendingSeq = 0;
  #lastPending: PendingGame | null = null;
  readonly #volume = new Map<string, number>();
  /** Vanished orders waiting in any game: most events find none, and skip the walk over games. */
  #vanishedWaiting = 0;
  /** The games with vanished orders waiting, in the order the first of them vanished (their records: no lookup per event). */
  readonly #waitingGames: PendingGame[] = [];
  /** How many of #waitingGames wait: the list keeps its room when games leave it (records live in #pending anyway). */
  #waitingCount = 0;
  readonly #flowsWanted: (gameID: string) => boolean;

  constructor(options: RecordedMarketOptions = {}) {
    this.#flowsWanted = options.flowsWanted ?? EVERY_GAME;
  }

  game(id: string): GameState | undefined {
    return this.model.game(id);
  }

  has(gameID: string): boolean {
    return this.model.has(gameID);
  }

  participants(gameID: string): Participants | undefined {
    return this.model.participants(gameID);
  }

  book(gameID: string, bookKey: string): MarketBook | undefined {
    return this.model.book(gameID, bookKey);
  }

  side(gameID: string, bookKey: string, side: 0 | 1): BookSide | undefined {
    return this.model.side(gameID, bookKey, side);
  }

  /** What a taker can still stake against a recorded order, after what we took from it. */
  available(o: ListedOffer): number {
    // Most replays take from no recorded order: then nothing to look up (an id's first lookup hashes it).
    const consumed = this.#consumed;
    return Math.max(0, o.sumUntaken - (consumed.size === 0 ? 0 : (consumed.get(o.id) ?? 0)));
  }

  /** How much of a recorded order we took (0 if none). */
  consumedOf(orderID: string): number {
    return this.#consumed.get(orderID) ?? 0;
  }

  /** Whether we took from any recorded order yet: most replays of a passive strategy never do. */
  hasConsumed(): boolean {
    return this.#consumed.size > 0;
  }

  /** Whether we took from any recorded order of the game: only then can a side of it list one. */
  hasConsumedIn(gameID: string): boolean {
    const games = this.#consumedGames;
    return games.size > 0 && games.has(gameID);
  }

  /** The book and side an update names (null: unknown game or label). */
  resolveSide(u: OrderUpdate): ResolvedSide | null {
    return this.model.resolveSide(u);
  }

  /** We took `stake` of a recorded order of the game: for us it is gone, whatever the recording says next. */
  consume(orderID: string, stake: number, gameID: string): void {
    this.#consumed.set(orderID, (this.#consumed.get(orderID) ?? 0) + stake);
    this.#consumedGames.add(gameID);
  }

  /** Recorded size at one price of a side (what is ahead of an order joining there). */
  levelSize(gameID: string, bookKey: string, side: 0 | 1, rank: number): number {
    const s = this.side(gameID, bookKey, side);
    if (!s) return 0;
    let size = 0;
    for (const o of s.offers) if (oddsRank(o.odds) === rank) size += this.available(o);
    return size;
  }

  /**
   * The engine forgot the game, long after it was settled: its book, its volume and its
   * record of vanished orders go. What we took of its orders stays counted, as does that we
   * took from it.
   */
  forgetGame(gameID: string): void {
    this.model.forget(gameID);
    this.#volume.delete(gameID);
    const p = this.#pending.get(gameID);
    if (p === undefined) return;
    this.#pending.delete(gameID);
    if (this.#lastPending === p) this.#lastPending = null;
    if (p.vanished.count > 0) {
      this.#vanishedWaiting -= p.vanished.count;
      this.#dropWaiting(p);
      p.vanished.clear();
    }
  }

  applySnapshot(g: OrderbookGame, t: number): GameState | null {
    const state = this.model.applySnapshot(g, t);
    // The snapshot's volume is the new baseline: only volume traded after it explains an
    // order vanishing later. (The volume from before the snapshot, 0 for a new game, would
    // count the game's whole history as trading at its first update.)
    if (state) this.#volume.set(g.id, state.matchedVolume);
    return state;
  }

  upsertGame(g: Game | GameUpdate, t: number, ended: boolean): GameState | null {
    return this.model.upsertGame(g, t, ended ? { ended: true } : {});
  }

  /**
   * Apply one side's update, `side` being what `resolveSide(u)` gave; returns the flows it
   * shows now (shrunk orders traded). Orders that disappeared wait for `matchedVolume` or
   * `settle` to say whether they traded.
   */
  applyOrderUpdate(u: OrderUpdate, t: number, side: ResolvedSide | null): SideFlows | null {
    const model = this.model;
    if (!model.appliesOrderUpdate(u, t, side)) return null;
    // Applied with `side` given: the side it replaced is that one (a null side applies nothing).
    const r = side!;
    return this.#diff(u.gameID, r.key, r.idx, model.lastSideBefore?.offers ?? NO_OFFERS, model.lastSideAfter.offers, t);
  }

  #diff(
    gameID: string,
    bookKey: string,
    side: 0 | 1,
    prev: readonly ListedOffer[],
    next: readonly ListedOffer[],
    t: number,
  ): SideFlows | null {
    const wanted = this.#flowsWanted(gameID);
    // A side lists a few offers: finding one by a scan beats building a map, up to a size.
    let now: Map<string, ListedOffer> | null = null;
    if (next.length > SCAN_MAX) {
      now = new Map();
      for (const o of next) now.set(o.id, o);
    }
    // By price level; most updates have neither (offers only came or vanished), so made when needed.
    let traded: LevelSums | null = null;
    let cancelled: LevelSums | null = null;
    const pending = this.#pendingOf(gameID, t);
    for (const p of prev) {
      const n = now !== null ? now.get(p.id) : lastWithId(next, p.id);
      if (n && n.odds === p.odds) {
        const d = p.sumUntaken - n.sumUntaken;
        if (d > EPS) {
          if (wanted) (traded ??= new LevelSums()).add(oddsRank(p.odds), d);
          pending.explained += d * (1 + payout(p.odds));
        }
      } else if (n) {
        // Same id at another price: the old price level lost it without a trade.
        if (wanted) (cancelled ??= new LevelSums()).add(oddsRank(p.odds), this.available(p));
      } else {
        this.#vanishedWaiting++;
        if (pending.vanished.count === 0) this.#waitingGames[this.#waitingCount++] = pending;
        pending.vanished.add(bookKey, side, oddsRank(p.odds), this.available(p), p.sumUntaken * (1 + payout(p.odds)));
      }
    }
    // Nothing flowed: no flows to apply (the caller's answer for an update it could not apply alike).
    if (traded === null && cancelled === null) return null;
    return { gameID, bookKey, side, flows: this.#flows(gameID, bookKey, side, traded, cancelled) };
  }

  /**
   * The game's matched volume moved: orders that disappeared at this instant are taken as
   * traded, best price first, as far as the volume not explained by partial fills allows.
   */
  applyMatchedVolume(u: MatchedVolumeUpdate, t: number): readonly SideFlows[] {
    const prevVolume = this.#volume.get(u.gameID) ?? this.model.matchedVolume(u.gameID) ?? u.matchedVolume;
    this.#volume.set(u.gameID, u.matchedVolume);
    this.model.applyMatchedVolume(u, t);
    const p = this.#pending.get(u.gameID);
    if (!p || p.t !== t) return NO_FLOWS;
    let budget = Math.max(0, u.matchedVolume - prevVolume - p.explained);
    p.explained += budget;
    this.#vanishedWaiting -= p.vanished.count;
    this.#dropWaiting(p);
    if (!this.#flowsWanted(u.gameID)) {
      p.vanished.clear();
      return NO_FLOWS;
    }
    const vanished = byRankBestFirst(p.vanished.take());
    return this.#vanishedFlows(u.gameID, vanished, (v) => {
      // A little slack: the feed's volume and sizes are floats of different sums.
      const share = v.volume <= budget + 1e-6 * Math.max(1, v.volume) ? 1 : budget / v.volume;
      budget = Math.max(0, budget - v.volume * share);
      return share;
    });
  }

  /** Time moved on: whatever disappeared and was not explained by volume was cancelled. */
  settle(t: number): readonly SideFlows[] {
    if (this.#vanishedWaiting === 0) return NO_FLOWS;
    // Only the games with orders waiting, not every game seen.
    const waiting = this.#waitingGames;
    // The first game due, and the others when more than one is: most calls find none (orders
    // vanished at this very instant) or one (a cancel seen at the instant before), and
    // neither makes a list.
    let first: PendingGame | null = null;
    let more: PendingGame[] | null = null;
    let kept = 0;
    const n = this.#waitingCount;
    for (let i = 0; i < n; i++) {
      const p = waiting[i]!;
      if (p.t >= t || p.vanished.count === 0) {
        if (p.vanished.count > 0) waiting[kept++] = p;
        continue;
      }
      if (first === null) first = p;
      else (more ??= [first]).push(p);
    }
    this.#waitingCount = kept;
    if (first === null) return NO_FLOWS;
    if (more === null) return this.#settleGame(first) ?? NO_FLOWS;
    // In the order the games first appeared (each game's `order` is its own: any sort gives this one).
    if (more.length > INSERTION_SORT_MAX) more.sort((a, b) => a.order - b.order);
    else
      for (let i = 1; i < more.length; i++) {
        const p = more[i]!;
        let j = i - 1;
        for (; j >= 0 && more[j]!.order > p.order; j--) more[j + 1] = more[j]!;
        more[j + 1] = p;
      }
    let out: SideFlows[] | null = null;
    for (const p of more) {
      const flows = this.#settleGame(p);
      if (flows !== null) (out ??= []).push(...flows);
    }
    return out ?? NO_FLOWS;
  }

  /** A game due: its vanished orders were cancels, as flows (null when no one reads the game's flows). */
  #settleGame(p: PendingGame): SideFlows[] | null {
    this.#vanishedWaiting -= p.vanished.count;
    const gameID = p.gameID;
    if (this.#flowsWanted(gameID)) return this.#vanishedFlows(gameID, p.vanished.take(), () => 0);
    p.vanished.clear();
    return null;
  }

  #dropWaiting(p: PendingGame): void {
    const waiting = this.#waitingGames;
    const n = this.#waitingCount;
    let i = 0;
    while (i < n && waiting[i] !== p) i++;
    if (i === n) return;
    waiting.copyWithin(i, i + 1, n);
    this.#waitingCount = n - 1;
  }

  /**
   * Vanished orders as flows, per side in the order the sides first appear: `tradedShare`
   * (asked once per order, in list order) of each order's stake traded, the rest cancelled.
   */
  #vanishedFlows(gameID: string, vanished: readonly Vanished[], tradedShare: (v: Vanished) => number): SideFlows[] {
    // Per side, in the order the sides first appear; a game lists a few sides, so a scan finds one.
    // The sums are made when a first order adds to them: a cancel (the usual vanishing) trades nothing.
    const bySide: { v: Vanished; traded: LevelSums | null; cancelled: LevelSums | null }[] = [];
    for (const v of vanished) {
      let e = bySide.find((x) => x.v.side === v.side && x.v.bookKey === v.bookKey);
      if (!e) bySide.push((e = { v, traded: null, cancelled: null }));
      const share = tradedShare(v);
      if (share > 0) (e.traded ??= new LevelSums()).add(v.rank, v.stake * share);
      if (share < 1) (e.cancelled ??= new LevelSums()).add(v.rank, v.stake * (1 - share));
    }
    return bySide.map(({ v, traded, cancelled }) => ({
      gameID,
      bookKey: v.bookKey,
      side: v.side,
      flows: this.#flows(gameID, v.bookKey, v.side, traded, cancelled),
    }));
  }

  #pendingOf(gameID: string, t: number): PendingGame {
    // The feed sends a game's sides in bursts: most updates are of the game before (records are never replaced).
    const last = this.#lastPending;
    let p = last !== null && last.gameID === gameID ? last : this.#pending.get(gameID);
    if (p === undefined) {
      p = { gameID, order: this.#pendingSeq++, t, explained: 0, vanished: new VanishedOrders() };
      this.#pending.set(gameID, p);
    } else if (p.t !== t) {
      // Left over from an earlier instant: the game's record starts this instant, in place
      // (settle() runs before any later event, so no vanished order waits in it).
      p.t = t;
      p.explained = 0;
    }
    this.#lastPending = p;
    return p;
  }

  #flows(
    gameID: string,
    bookKey: string,
    side: 0 | 1,
    traded: LevelSums | null,
    cancelled: LevelSums | null,
  ): LevelFlow[] {
    // The ranks traded, in the order first seen, then those only cancelled.
    const out: LevelFlow[] = [];
    if (traded !== null)
      for (const r of traded.ranks) out.push(this.#flow(gameID, bookKey, side, r, traded, cancelled));
    if (cancelled !== null)
      for (const r of cancelled.ranks)
        if (traded === null || !traded.has(r)) out.push(this.#flow(gameID, bookKey, side, r, traded, cancelled));
    return out;
  }

  #flow(
    gameID: string,
    bookKey: string,
    side: 0 | 1,
    rank: number,
    traded: LevelSums | null,
    cancelled: LevelSums | null,
  ): LevelFlow {
    return {
      rank,
      traded: traded?.get(rank) ?? 0,
      cancelled: cancelled?.get(rank) ?? 0,
      sizeAfter: this.levelSize(gameID, bookKey, side, rank),
    };
  }
}

/**
 * Vanished orders best price first, those of one price in the order they vanished (what a
 * stable sort gives), sorted in place: an instant's trades vanish a few orders, and a sort
 * by insertion makes nothing where `Array.prototype.sort` copies them first.
 */
function byRankBestFirst(vanished: Vanished[]): Vanished[] {
  // A game closing vanishes its whole book at once: past a few, a merge sort beats n² moves.
  if (vanished.length > INSERTION_SORT_MAX) return vanished.sort((a, b) => b.rank - a.rank);
  for (let i = 1; i < vanished.length; i++) {
    const v = vanished[i]!;
    let j = i - 1;
    for (; j >= 0 && vanished[j]!.rank < v.rank; j--) vanished[j + 1] = vanished[j]!;
    vanished[j + 1] = v;
  }
  return vanished;
}

/**
 * Sums per price level, levels in the order first added: what a map of rank to sum would
 * hold, for the few levels one side update or one instant's vanished orders touch.
 */
class LevelSums {
  readonly ranks: number[] = [];
  readonly #sums: number[] = [];

  add(rank: number, x: number): void {
    const i = this.ranks.indexOf(rank);
    if (i < 0) {
      this.ranks.push(rank);
      // As `(map.get(rank) ?? 0) + x` would: the same float sums, in the same order.
      this.#sums.push(0 + x);
    } else this.#sums[i] = this.#sums[i]! + x;
  }

  has(rank: number): boolean {
    return this.ranks.includes(rank);
  }

  get(rank: number): number | undefined {
    const i = this.ranks.indexOf(rank);
    return i < 0 ? undefined : this.#sums[i];
  }
}
