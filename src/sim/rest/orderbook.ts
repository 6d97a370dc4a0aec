import type { MatchingEngine } from '../../engine/engine.ts';
import type { EngineGame, ListedOrder } from '../../engine/types.ts';
import type { Selection } from '../../markets/types.ts';
import { oddsRank } from '../../odds/american.ts';
import { chooseMainLines, type MainLines } from '../render/main-lines.ts';
import { listedSides, renderBookOrder, type RenderBookOptions, type WireBookOrder } from '../render/book.ts';
import { renderGame, type WireGame } from '../render/game.ts';
import { iso } from '../render/time.ts';
import { BOOK_COLLECTIONS, type BookCollection } from '../../exchange/schemas/book-order.ts';

/**
 * Which collection a listed side belongs to: the selection a taker on it backs. A maker on
 * home is listed for takers of away, so it shows under `awayMoneylines` (feeds §3). Both the
 * yes and the no side of a 1x2 outcome go to that outcome's collection.
 */
export function bookArrayOf(taker: Selection): BookCollection {
  switch (taker.type) {
    case 'moneyline':
      return taker.team === 'home' ? 'homeMoneylines' : 'awayMoneylines';
    case 'spread':
      return taker.team === 'home' ? 'homeSpreads' : 'awaySpreads';
    case 'total':
      return taker.ou === 'over' ? 'over' : 'under';
    case 'moneyline1x2':
      return taker.outcome === 'home'
        ? 'homeMoneylines1x2'
        : taker.outcome === 'away'
          ? 'awayMoneylines1x2'
          : 'draw1x2';
  }
}

/** One empty list per collection. */
export function emptyBookArrays<T>(): Record<BookCollection, T[]> {
  return Object.fromEntries(BOOK_COLLECTIONS.map((k) => [k, [] as T[]])) as Record<BookCollection, T[]>;
}

/** Main spread and total of a game from a full scan of its books (see chooseMainLines). */
export function mainLines(engine: MatchingEngine, game: EngineGame): MainLines {
  const byLine = new Map<string, { kind: 'spread' | 'total'; line: number; liquidity: number }>();
  for (const side of listedSides(engine, game)) {
    const s = side.selection;
    if (side.orders.length === 0 || (s.type !== 'spread' && s.type !== 'total')) continue;
    const line = s.type === 'spread' ? (s.team === 'home' ? s.line : -s.line) || 0 : s.line;
    const key = `${s.type}:${line}`;
    const entry = byLine.get(key) ?? { kind: s.type, line, liquidity: 0 };
    for (const o of side.orders) entry.liquidity += o.sumUntaken;
    byLine.set(key, entry);
  }
  return chooseMainLines(byLine.values());
}

/** Open interest (feeds §8): Σ `bet` (the original stake) of the orders resting on the game. */
export function openInterest(sides: readonly { orders: readonly ListedOrder[] }[]): number {
  let sum = 0;
  for (const side of sides) for (const listed of side.orders) sum += listed.order.bet;
  return sum;
}

export type WireOrderbookGame = WireGame &
  Record<BookCollection, WireBookOrder[]> &
  MainLines & { openInterest: number; matchedVolume: number };

/**
 * `GET /exchange/v2/getOrderbook` game: the game plus flat collections of book orders,
 * each sorted best price for the taker first, then oldest.
 */
export function renderOrderbookV2(
  engine: MatchingEngine,
  game: EngineGame,
  options: RenderBookOptions = {},
): WireOrderbookGame {
  const arrays = emptyBookArrays<WireBookOrder>();
  const ranked: { key: BookCollection; rank: number; createdAt: number; entry: WireBookOrder }[] = [];
  const sides = listedSides(engine, game);
  for (const side of sides) {
    const key = bookArrayOf(side.selection);
    for (const listed of side.orders) {
      ranked.push({
        key,
        rank: oddsRank(listed.listedOdds),
        createdAt: listed.order.createdAt,
        entry: renderBookOrder(game, side.label, listed, options),
      });
    }
  }
  // Stable: ties keep the engine's time priority within a side.
  ranked.sort((a, b) => b.rank - a.rank || a.createdAt - b.createdAt);
  for (const r of ranked) arrays[r.key].push(r.entry);
  return {
    ...renderGame(game),
    ...arrays,
    ...mainLines(engine, game),
    openInterest: openInterest(sides),
    matchedVolume: engine.matchedVolume(game.id),
  };
}

type Keyed = Record<string, WireBookOrder[]>;

/** The collections of lined markets: the v1 orderbook and the price feed's gameUpdate key them by the line. */
export const LINED_BOOK_ARRAYS = ['homeSpreads', 'awaySpreads', 'over', 'under'] as const;
type LinedBookArray = (typeof LINED_BOOK_ARRAYS)[number];

/** A flat collection of a lined market keyed by each order's line (its `spread` or `total`), order kept; `{}` when empty. */
export function keyByLine(orders: readonly WireBookOrder[]): Keyed {
  const out: Keyed = {};
  for (const o of orders) (out[String(o.spread ?? o.total)] ??= []).push(o);
  return out;
}

/** The price feed's gameUpdate game: the v2 game with its spread and total collections keyed by the line. */
export type WireGameUpdateGame = Omit<WireOrderbookGame, LinedBookArray> & Record<LinedBookArray, Keyed>;

/**
 * The game a `gameUpdate` carries (feeds §8): as the v2 orderbook renders it, but the spread
 * and total collections are objects keyed by the line, as the v1 orderbook keys them, each
 * line's orders best for the taker first; moneylines and 1x2 stay lists.
 */
export function renderGameUpdateGame(engine: MatchingEngine, game: EngineGame): WireGameUpdateGame {
  const flat = renderOrderbookV2(engine, game);
  const out: WireGameUpdateGame = { ...flat, homeSpreads: {}, awaySpreads: {}, over: {}, under: {} };
  for (const k of LINED_BOOK_ARRAYS) out[k] = keyByLine(flat[k]);
  return out;
}

export interface WireOrderbookV1Game {
  id: string;
  parentGameID: string | null;
  cheapDataUID: string;
  league: string;
  sport: string;
  start: string;
  ended: boolean;
  live: boolean;
  featured: boolean;
  eventName?: string;
  tournamentName: string | null;
  periodName: string;
  isSpecials: boolean;
  participants: WireGame['participants'];
  homeMoneylines: WireBookOrder[];
  awayMoneylines: WireBookOrder[];
  homeSpreads: Keyed;
  awaySpreads: Keyed;
  over: Keyed;
  under: Keyed;
  homeMoneylines1x2: Keyed;
  awayMoneylines1x2: Keyed;
  draw1x2: Keyed;
  mainHomeSpread: number | null;
  mainAwaySpread: number | null;
  mainTotal: number | null;
  openInterest: number;
  matchedVolume: number;
}

/**
 * The deprecated `POST /exchange/getOrderbook` game (exchange-api §2.9). Moneylines are
 * arrays; spreads and totals are objects keyed by the number from the listed side's view
 * (`"-3.5"`, `"209.5"`); the 1x2 collections are keyed by the taker's side, `"yes"` or
 * `"no"`. Every entry carries `isPostArb` as a boolean.
 */
export function renderOrderbookV1(
  engine: MatchingEngine,
  game: EngineGame,
  options: RenderBookOptions = {},
): WireOrderbookV1Game {
  const opts: RenderBookOptions = { ...options, postArbAlways: true };
  const g = renderGame(game);
  const sides = listedSides(engine, game);
  const out: WireOrderbookV1Game = {
    id: game.id,
    parentGameID: game.parentGameID,
    cheapDataUID: game.id,
    league: game.league,
    sport: game.sport,
    start: iso(game.start),
    ended: game.ended,
    live: game.live,
    featured: false,
    ...(game.eventName !== undefined ? { eventName: game.eventName } : {}),
    tournamentName: game.tournamentName,
    periodName: game.periodName,
    isSpecials: game.isSpecials,
    participants: g.participants,
    homeMoneylines: [],
    awayMoneylines: [],
    homeSpreads: {},
    awaySpreads: {},
    over: {},
    under: {},
    homeMoneylines1x2: {},
    awayMoneylines1x2: {},
    draw1x2: {},
    ...mainLines(engine, game),
    openInterest: openInterest(sides),
    matchedVolume: engine.matchedVolume(game.id),
  };
  for (const side of sides) {
    if (side.orders.length === 0) continue;
    const key = bookArrayOf(side.selection);
    const entries = side.orders.map((o) => renderBookOrder(game, side.label, o, opts));
    if (key === 'homeMoneylines' || key === 'awayMoneylines') {
      out[key].push(...entries);
      continue;
    }
    const s = side.selection;
    const sub =
      s.type === 'spread' || s.type === 'total'
        ? String(s.line)
        : s.type === 'moneyline1x2'
          ? s.yes
            ? 'yes'
            : 'no'
          : 'moneyline';
    const bucket = out[key];
    (bucket[sub] ??= []).push(...entries);
  }
  return out;
}
