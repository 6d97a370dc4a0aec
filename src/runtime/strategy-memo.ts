import type { MarketModel } from '../market-model/market-model.ts';
import type { OwnBook } from '../orders/own-book.ts';
import type {
  GameActivity,
  GameState,
  MarketBook,
  OwnFill,
  OwnOrder,
  Refusal,
  TradingMode,
} from '../market-model/types.ts';
import type { QuoteIntent } from '../strategy/types.ts';
import { inPlay } from './live-policy.ts';
import { READ, type LazyStrategyView, type ViewInputs } from './strategy-view.ts';
import { fieldBit, type GameField, type TrackedGame } from './tracked-game.ts';

/**
 * What one evaluation of a strategy on a game read, with what it read, and the intents it
 * gave (after the live policy and the market filter). A strategy is a pure function of its
 * view (StrategyModule), so while everything it read is unchanged, asking it again would
 * give the same intents: the runtime reuses them instead. Its own echoes (a listing of its
 * order that changes no book it reads, an answer or user-feed message that leaves its
 * orders as they were) and throttle wake-ups with nothing new then cost a comparison, not
 * an evaluation.
 *
 * Compared: the fields of the game it read and the books it looked up (a book is replaced
 * whenever one of its sides changes, so by identity; when it walked the whole map, whether
 * the model changed any book since that map was built), its
 * live orders (by content: an order's `updatedAt` alone moving is no change), its fills,
 * the account's worst case on the game, its refusals, the fair values, the commission rate,
 * its activity and the mode, each only if read. The clock: a strategy that reads `now`
 * is asked again whenever the clock moved, unless it declares `reevaluateEvery` (then when
 * that long passed since it was asked).
 */
export interface EvaluationMemo {
  /** What the runtime made of the strategy's answer (live policy, market filter): set once, after. */
  intents: readonly QuoteIntent[];
  readonly at: number;
  readonly mode: TradingMode;
  readonly reads: number;
  readonly game: GameState;
  readonly fields: number;
  /** Books looked up and what each was (undefined: not listed); none when the whole map was read. */
  readonly bookKeys: readonly string[];
  readonly books: readonly (MarketBook | undefined)[];
  /** The whole map of books, when it was walked or sized (null: it was not). */
  readonly allBooks: ReadonlyMap<string, MarketBook> | null;
  readonly activity: GameActivity | null;
  readonly fair: ReadonlyMap<string, number> | null;
  readonly refusals: readonly Refusal[];
  readonly commissionRate: number;
  readonly orders: readonly OwnOrder[] | null;
  readonly fills: readonly OwnFill[] | null;
  readonly accountLiability: number | null;
}

/**
 * Where an evaluation's inputs are read again to compare: the models, and what the runtime
 * would hand the strategy now. One object for the runtime's life (no allocation per look).
 */
export interface MemoSources extends ViewInputs {
  readonly market: MarketModel;
  readonly own: OwnBook;
  commissionRate(): number;
}

/** The memo of one evaluation, from the view and game it read. */
export function memoOf(
  view: LazyStrategyView,
  game: TrackedGame,
  intents: readonly QuoteIntent[],
  own: OwnBook,
  strategyId: string,
): EvaluationMemo {
  const reads = view.reads;
  const booksRead = game.booksRead;
  const snapshot = game.snapshot;
  return {
    intents,
    at: view.now,
    mode: view.mode,
    reads,
    game: snapshot,
    fields: game.fields,
    bookKeys: booksRead === null || booksRead.all ? NONE : (booksRead.looked ?? NONE),
    books: booksRead === null || booksRead.all ? NONE : (booksRead.found ?? NONE),
    allBooks: booksRead !== null && booksRead.all ? snapshot.books : null,
    activity: view.activityRead,
    fair: view.fairRead,
    refusals: view.refusalsRead,
    commissionRate: view.commissionRate,
    orders: (reads & READ.orders) !== 0 ? view.ordersRead : null,
    fills: (reads & READ.fills) !== 0 ? (view.fillsRead ?? own.fills(snapshot.id, strategyId)) : null,
    accountLiability: (reads & READ.accountLiability) !== 0 ? view.accountLiabilityRead : null,
  };
}

const NONE: readonly never[] = [];

/**
 * Whether a memo can hold at a later instant: not when the strategy read its game's activity
 * (which decays with the clock), nor the clock itself without a declared `reevaluateEvery`.
 */
export function mayHoldLater(m: EvaluationMemo, reevaluateEvery: number | undefined): boolean {
  return readsMayHoldLater(m.reads, reevaluateEvery);
}

/** mayHoldLater from what the strategy read (bits of READ), before any memo is built. */
export function readsMayHoldLater(reads: number, reevaluateEvery: number | undefined): boolean {
  return (reads & READ.activity) === 0 && ((reads & READ.now) === 0 || reevaluateEvery !== undefined);
}

/**
 * Whether asking the strategy again now would see what `m`'s evaluation saw in everything it
 * read. `reevaluateEvery` is the strategy's (undefined: a read of the clock holds only at the same instant).
 */
export function memoHolds(
  m: EvaluationMemo,
  x: MemoSources,
  strategyId: string,
  gameID: string,
  now: number,
  mode: TradingMode,
  reevaluateEvery: number | undefined,
): boolean {
  if (m.mode !== mode) return false;
  const market = x.market;
  // Books first: what most often moves.
  for (let i = 0; i < m.bookKeys.length; i++) if (market.book(gameID, m.bookKeys[i]!) !== m.books[i]) return false;
  const reads = m.reads;
  if ((reads & READ.now) !== 0 && m.at !== now && !(reevaluateEvery !== undefined && now - m.at < reevaluateEvery))
    return false;
  const head = market.head(gameID);
  if (head === undefined) return false;
  // The live policy reads these of every game: whether it ended, and whether it is in play.
  if (head.ended !== m.game.ended || inPlay(head, now) !== inPlay(m.game, m.at)) return false;
  if (m.fields !== 0 && !sameFields(m.fields, head, m.game)) return false;
  if (m.allBooks !== null && !market.booksUnchangedSince(gameID, m.allBooks)) return false;
  if ((reads & (READ.commissionRate | READ.fills)) !== 0 && m.commissionRate !== x.commissionRate()) return false;
  const own = x.own;
  if (m.fills !== null && !sameList(m.fills, own.fills(gameID, strategyId))) return false;
  if (m.orders !== null && !sameOrders(m.orders, own.liveOrders(gameID, strategyId))) return false;
  if (m.accountLiability !== null && !Object.is(m.accountLiability, own.projectedLiability(gameID))) return false;
  if ((reads & READ.fair) !== 0 && x.fair(gameID) !== m.fair) return false;
  if ((reads & READ.refusals) !== 0 && !sameList(m.refusals, x.refusals(strategyId, gameID, now))) return false;
  if (m.activity !== null) {
    const a = market.activity(gameID, now);
    if (
      a.takerArrivalsPerMinute !== m.activity.takerArrivalsPerMinute ||
      a.volumePerMinute !== m.activity.volumePerMinute
    )
      return false;
  }
  return true;
}

/** Each field's bit; a Record, so a field added to GAME_FIELDS must be added here (and to sameFields). */
const B: Readonly<Record<GameField, number>> = {
  id: fieldBit('id'),
  league: fieldBit('league'),
  sport: fieldBit('sport'),
  parentGameID: fieldBit('parentGameID'),
  start: fieldBit('start'),
  live: fieldBit('live'),
  ended: fieldBit('ended'),
  participants: fieldBit('participants'),
  mainHomeSpread: fieldBit('mainHomeSpread'),
  mainTotal: fieldBit('mainTotal'),
  matchedVolume: fieldBit('matchedVolume'),
  updatedAt: fieldBit('updatedAt'),
};

/**
 * Whether each game field read (bits of `fields`) is the same now (`head`) as in the game
 * read. Each field by its name rather than through a list of names: a read by a computed
 * name is a keyed lookup, and this runs on every look at a memo that read a field.
 */
function sameFields(fields: number, head: Readonly<Omit<GameState, 'books'>>, g: GameState): boolean {
  return (
    ((fields & B.id) === 0 || Object.is(head.id, g.id)) &&
    ((fields & B.league) === 0 || Object.is(head.league, g.league)) &&
    ((fields & B.sport) === 0 || Object.is(head.sport, g.sport)) &&
    ((fields & B.parentGameID) === 0 || Object.is(head.parentGameID, g.parentGameID)) &&
    ((fields & B.start) === 0 || Object.is(head.start, g.start)) &&
    ((fields & B.live) === 0 || Object.is(head.live, g.live)) &&
    ((fields & B.ended) === 0 || Object.is(head.ended, g.ended)) &&
    ((fields & B.participants) === 0 || Object.is(head.participants, g.participants)) &&
    ((fields & B.mainHomeSpread) === 0 || Object.is(head.mainHomeSpread, g.mainHomeSpread)) &&
    ((fields & B.mainTotal) === 0 || Object.is(head.mainTotal, g.mainTotal)) &&
    ((fields & B.matchedVolume) === 0 || Object.is(head.matchedVolume, g.matchedVolume)) &&
    ((fields & B.updatedAt) === 0 || Object.is(head.updatedAt, g.updatedAt))
  );
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Same orders in the same order, each the same in everything but `updatedAt`. */
function sameOrders(a: readonly OwnOrder[], b: readonly OwnOrder[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameOrder(a[i]!, b[i]!)) return false;
  return true;
}

function sameOrder(a: OwnOrder, b: OwnOrder): boolean {
  if (a === b) return true;
  let n = 0;
  for (const k in a) {
    n++;
    if (k !== 'updatedAt' && !Object.is(a[k as keyof OwnOrder], b[k as keyof OwnOrder])) return false;
  }
  // Every key of `a` is in `b` with the same value: the same order if `b` has no other.
  return n === Object.keys(b).length;
}
