import { oddsRank, type AmericanOdds } from '../odds/american.ts';
import type { BookSide, StrategyView } from '../market-model/types.ts';

/**
 * Price arithmetic on the American scale with −100 and +100 joined (oddsRank), which is
 * the scale the exchange measures "cents" and the postArb band on. One cent up is one more
 * unit of payout for the backer: −110 → −109, +100 → +101, −101 → +100.
 */

/** Inverse of oddsRank for integer ranks. */
export function fromRank(rank: number): AmericanOdds {
  return rank >= 0 ? rank + 100 : rank - 100;
}

/** `cents` further out for whoever backs at `odds` (a higher payout; negative: lower). */
export function stepOut(odds: AmericanOdds, cents: number): AmericanOdds {
  return fromRank(oddsRank(odds) + cents);
}

/** Exchange order ids of this strategy's own live orders: those quotes get replaced, not met. */
export function ownOrderIDs(view: StrategyView): ReadonlySet<string> {
  const orders = view.orders;
  if (orders.length === 0) return NO_IDS;
  const ids = new Set<string>();
  for (let i = 0; i < orders.length; i++) {
    const id = orders[i]!.orderID;
    if (id !== null) ids.add(id);
  }
  return ids;
}

/** Shared answer for a strategy with no live orders on the game: nothing to write, nothing to allocate. */
const NO_IDS: ReadonlySet<string> = new Set();

/**
 * Rank of the best offer on `side` that is not in `ignore`; null when there is none. A side
 * lists its offers best price first (BookSide), so the first one that counts is the best:
 * the walk stops there instead of ranking the whole ladder.
 */
export function bestRank(side: BookSide | undefined, ignore: ReadonlySet<string>): number | null {
  if (side === undefined) return null;
  const offers = side.offers;
  for (let i = 0; i < offers.length; i++) {
    const offer = offers[i]!;
    if (offer.sumUntaken > 0 && !ignore.has(offer.id)) return oddsRank(offer.odds);
  }
  return null;
}

/**
 * Odds at which a `post` backing the selection that takers of `takeSide` back rests
 * without matching. The engine matches when the best listed price there is at least as
 * good as ours (rank ≥ ours), so we need a strictly higher rank. Moving out only raises
 * our payout, so the edge can only grow.
 */
export function clearOfBook(
  odds: AmericanOdds,
  takeSide: BookSide | undefined,
  ignore: ReadonlySet<string>,
): AmericanOdds {
  const best = bestRank(takeSide, ignore);
  return best !== null && best >= oddsRank(odds) ? fromRank(best + 1) : odds;
}
