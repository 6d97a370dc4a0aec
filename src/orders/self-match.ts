import type { OwnOrder } from '../book/types.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../markets/types.ts';
import { invertOdds, oddsRank } from '../odds/american.ts';

/**
 * Whether an order that can match (anything but a plain `post`) backing `selection` at
 * `odds` could meet one of our own live orders: ours on the same book backing the other
 * side, listed for takers at `odds` or better. The exchange would match the two (one
 * txID, both sides ours): commission for nothing, and a position that cancels itself out.
 * Read from our own book, not the price feed, whose copy of an order may not be flagged
 * ours yet (its place answer still on the way). Orders about to be cancelled count: the
 * cancel may lose the race. The offending order, or null.
 */
export function ownOrderMet(live: readonly OwnOrder[], selection: Selection, odds: number): OwnOrder | null {
  const key = bookKeyOf(selection);
  const side = sideIndexOf(selection);
  const reach = oddsRank(odds);
  for (const o of live) {
    if (bookKeyOf(o.selection) !== key || sideIndexOf(o.selection) === side || !(o.remaining > 0)) continue;
    if (oddsRank(invertOdds(o.odds)) >= reach) return o;
  }
  return null;
}
