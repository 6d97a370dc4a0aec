import type { GameState } from '../../book/types.ts';
import type { BookOrder } from '../../exchange/schemas/book-order.ts';
import type { OrderbookGame } from '../../exchange/schemas/exchange.ts';
import type { OrderUpdate } from '../../exchange/schemas/price-feed.ts';
import type { Selection } from '../../markets/types.ts';
import { BOOK_ARRAYS, bookArrayOf, type BookArray } from '../../sim/rest/orderbook.ts';

/** One listed side of a game: its book, its index there, and the selection a taker on it backs. */
export interface ListedSide {
  readonly bookKey: string;
  readonly side: 0 | 1;
  readonly taker: Selection;
}

/**
 * A game as getOrderbook would answer for it now in a backtest. The recording's snapshots
 * are hours old by the time a bot reads the books again (after its price feed reconnected),
 * so the answer is built from the replay's present instead: the game as last snapshotted,
 * its live flag and lines as the recorded feed has them now, and every side as the bot's
 * feed would list it now (`listing`: the recorded orders less what we took, plus ours).
 * Each order carries its side's label, as the v2 orderbook's orders do.
 */
export function currentOrderbook(snapshot: OrderbookGame, state: GameState | undefined, sides: Iterable<ListedSide>, listing: (s: ListedSide) => OrderUpdate | null): OrderbookGame {
  const arrays = Object.fromEntries(BOOK_ARRAYS.map((k) => [k, [] as BookOrder[]])) as Record<BookArray, BookOrder[]>;
  for (const s of sides) {
    const u = listing(s);
    if (!u) continue;
    const label = { type: u.type, gameID: u.gameID, participantID: u.participantID, market: u.market, side: u.side, OU: u.OU, total: u.total, spread: u.spread };
    for (const o of u.sideOrders) arrays[bookArrayOf(s.taker)].push({ ...o, ...definedOnly(label) });
  }
  if (!state) return { ...snapshot, ...arrays };
  return { ...snapshot, ...arrays, live: state.live, ended: state.ended, mainHomeSpread: state.mainHomeSpread, mainTotal: state.mainTotal, matchedVolume: state.matchedVolume };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
