import type { GameState } from '../../market-model/types.ts';
import type { BookOrder } from '../../exchange/schemas/book-order.ts';
import type { OrderbookGame } from '../../exchange/schemas/exchange.ts';
import type { Selection } from '../../markets/types.ts';
import type { SideLabel } from '../../sim/render/book.ts';
import { bookArrayOf, emptyBookArrays } from '../../sim/rest/orderbook.ts';

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
export function currentOrderbook(
  snapshot: OrderbookGame,
  state: GameState | undefined,
  sides: Iterable<ListedSide>,
  listing: (s: ListedSide) => { readonly label: SideLabel; readonly orders: readonly BookOrder[] } | null,
): OrderbookGame {
  const arrays = emptyBookArrays<BookOrder>();
  for (const s of sides) {
    const l = listing(s);
    if (!l) continue;
    const into = arrays[bookArrayOf(s.taker)];
    for (const o of l.orders) into.push({ ...o, type: s.taker.type, gameID: snapshot.id, ...l.label });
  }
  if (!state) return { ...snapshot, ...arrays };
  return {
    ...snapshot,
    ...arrays,
    live: state.live,
    ended: state.ended,
    mainHomeSpread: state.mainHomeSpread,
    mainTotal: state.mainTotal,
    matchedVolume: state.matchedVolume,
  };
}
