import type { GameState } from '../market-model/types.ts';
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
 * Our own offers count as the book's: a post meeting them is rejected like any other. But a
 * postArb that could meet one of them is never sent (the risk gate refuses it as a
 * self-match and cools the key down), so then the intent is re-priced instead. `ownListed`
 * are the odds our own open orders (and this cycle's approvals) on the other side are listed
 * at for takers of `selection`, from our own book: the feed may not list a new order of ours
 * yet, or not flag it ours.
 */
export function pricePost(
  game: GameState | undefined,
  selection: Selection,
  odds: number,
  usePostArb: boolean,
  ownListed: readonly number[] = [],
): Pricing {
  const offers = game?.books.get(bookKeyOf(selection))?.sides[sideIndexOf(selection)].offers ?? [];
  const ours = oddsRank(odds);
  let best: number | undefined;
  let top = -Infinity;
  let meetsOwn = false;
  // The best listed price, and whether one of ours is listed at our price or better: the
  // book's offers first, then our own (one loop each, no function made per call).
  for (const o of offers) {
    const r = oddsRank(o.odds);
    if (r > top) {
      top = r;
      best = o.odds;
    }
    if (o.mine && r >= ours) meetsOwn = true;
  }
  for (const l of ownListed) {
    const r = oddsRank(l);
    if (r > top) {
      top = r;
      best = l;
    }
    if (r >= ours) meetsOwn = true;
  }
  if (best === undefined || top < ours) return { kind: 'as-is', orderType: 'post', odds };
  // Not meeting our own means the best offer is someone else's.
  if (usePostArb && !meetsOwn && withinPostArbBand(odds, best))
    return { kind: 'post-arb', orderType: 'postArb', odds, against: best };
  return { kind: 'repriced', orderType: 'post', odds: oddsFromRank(top + 1), crossed: best };
}
