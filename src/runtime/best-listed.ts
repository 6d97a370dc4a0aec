import type { GameState } from '../market-model/types.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../markets/types.ts';
import { oddsRank } from '../odds/american.ts';

/** The best offer a side lists, and whether it is one of ours. */
export interface BestListed {
  readonly odds: number;
  readonly mine: boolean;
}

/**
 * The best offer the book model lists for takers backing `selection` (what an order backing
 * it would meet first), or null when the side lists none. Said with an exchange refusal of
 * a crossing order: against the order's own odds it tells a book that moved while the order
 * travelled (a better offer, someone else's) from an order of ours in the way (`mine`). The
 * best by rank over every offer, not the side's first: a log line must not trust an order.
 */
export function bestListed(game: GameState | undefined, selection: Selection): BestListed | null {
  const offers = game?.books.get(bookKeyOf(selection))?.sides[sideIndexOf(selection)].offers;
  if (offers === undefined) return null;
  let best: BestListed | null = null;
  let top = -Infinity;
  for (const o of offers) {
    const r = oddsRank(o.odds);
    if (r > top) {
      top = r;
      best = { odds: o.odds, mine: o.mine };
    }
  }
  return best;
}
