import type { GameState } from '../book/types.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../markets/types.ts';
import { oddsFromRank, oddsRank, withinPostArbBand } from '../odds/american.ts';
import type { IntentOrderType } from '../strategy/types.ts';

export type Pricing =
  | { readonly kind: 'as-is'; readonly orderType: IntentOrderType; readonly odds: number }
  | { readonly kind: 'post-arb'; readonly orderType: 'postArb'; readonly odds: number; readonly against: number }
  | { readonly kind: 'repriced'; readonly orderType: 'post'; readonly odds: number; readonly crossed: number };

/**
 * How to send a `post` intent given the book now. Backing `selection` at `odds`, our order
 * would meet the offers listed for takers of `selection` whose listed odds pay at least as
 * much. If it would cross:
 * - within the 1% postArb band of the best such offer, send it as `postArb`: it matches
 *   there without taker commission (exchange-api §4.5 rule 3);
 * - otherwise a `post` would be rejected, so re-price it one tick above the best offer's
 *   price, where it rests without crossing (rather than send, be rejected and loop).
 */
export function pricePost(game: GameState | undefined, selection: Selection, odds: number, usePostArb: boolean): Pricing {
  const book = game?.books.get(bookKeyOf(selection));
  const side = book?.sides[sideIndexOf(selection)];
  const best = side?.offers.find((o) => !o.mine) ?? side?.offers[0];
  if (!best || oddsRank(best.odds) < oddsRank(odds)) return { kind: 'as-is', orderType: 'post', odds };
  if (usePostArb && withinPostArbBand(odds, best.odds)) return { kind: 'post-arb', orderType: 'postArb', odds, against: best.odds };
  let top = oddsRank(best.odds);
  // Our own resting offers on that side count too: a post that met them would be rejected as well.
  for (const o of side?.offers ?? []) top = Math.max(top, oddsRank(o.odds));
  return { kind: 'repriced', orderType: 'post', odds: oddsFromRank(top + 1), crossed: best.odds };
}
