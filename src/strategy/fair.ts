import { fromProbability, impliedProbability, type AmericanOdds } from '../odds/american.ts';
import type { BookSide, MarketBook, StrategyView } from '../market-model/types.ts';
import { stepOut } from './ladder.ts';

/**
 * Fair prices. All probabilities here are of a side *winning*, and a price's implied
 * probability is the break-even 1 / decimal odds (no margin removed).
 *
 * Consensus method (no configured feed): on each side of the book, walk the offers that
 * are not ours best-first until `minDepth` of taker stake is reached; the price of the
 * offer where the walk reaches it is that side's depth-weighted best taker price t_k.
 * With q_k = impliedProbability(t_k), q_0 + q_1 − 1 is the book's overround, and the
 * fair probability of side 0 is the multiplicative normalisation q_0 / (q_0 + q_1).
 * Walking to a depth keeps a dust offer at an off-market price from moving the fair;
 * skipping our own offers keeps our quotes from feeding back into the price we quote
 * around.
 */

export interface FairOptions {
  /** Taker stake a side must offer (summed best-first) before its price counts. */
  readonly minDepth: number;
  /** Books with a larger overround give no consensus (too wide to mean anything). */
  readonly maxOverround: number;
}

export const DEFAULT_FAIR_OPTIONS: FairOptions = { minDepth: 20, maxOverround: 0.25 };

/** Probabilities we are willing to turn into odds: beyond them the odds are absurd (±9900). */
export const MIN_QUOTABLE_PROBABILITY = 0.01;
export const MAX_QUOTABLE_PROBABILITY = 0.99;

/**
 * The price a taker of this side gets for the first `minDepth` of stake, skipping our own
 * offers; null when the side does not hold that much. `minDepth` 0 means the best offer.
 */
export function depthPrice(side: BookSide | undefined, minDepth: number): AmericanOdds | null {
  if (side === undefined) return null;
  let depth = 0;
  for (const offer of side.offers) {
    if (offer.mine || !(offer.sumUntaken > 0)) continue;
    depth += offer.sumUntaken;
    if (depth >= minDepth) return offer.odds;
  }
  return null;
}

/** Consensus fair probability of side 0 from the book alone (see the method above). */
export function consensusFair(
  book: MarketBook | undefined,
  options: FairOptions = DEFAULT_FAIR_OPTIONS,
): number | null {
  if (book === undefined) return null;
  const t0 = depthPrice(book.sides[0], options.minDepth);
  const t1 = depthPrice(book.sides[1], options.minDepth);
  if (t0 === null || t1 === null) return null;
  const q0 = impliedProbability(t0);
  const q1 = impliedProbability(t1);
  if (q0 + q1 - 1 > options.maxOverround) return null;
  return q0 / (q0 + q1);
}

function isProbability(p: number | undefined): p is number {
  return p !== undefined && Number.isFinite(p) && p > 0 && p < 1;
}

/**
 * Fair probability that side 0 (home / over / yes) of `key` wins: the configured feed's
 * value when it has a valid one, else the book's consensus, else null.
 */
export function fairProbability(
  view: StrategyView,
  key: string,
  options: FairOptions = DEFAULT_FAIR_OPTIONS,
): number | null {
  return fairOfBook(view, key, view.game.books.get(key), options);
}

/** fairProbability for a caller that already holds `book` = view.game.books.get(key). */
export function fairOfBook(
  view: StrategyView,
  key: string,
  book: MarketBook | undefined,
  options: FairOptions,
): number | null {
  const configured = view.fair?.get(key);
  if (isProbability(configured)) return configured;
  return consensusFair(book, options);
}

/**
 * Our maker odds for backing a side whose fair win probability is `pBacked`, keeping at
 * least `margin` probability points of edge: impliedProbability(odds) ≤ pBacked − margin.
 * Rounds toward the higher payout for us, i.e. the lower payout for whoever takes the
 * other side, so rounding never gives away more than asked. Null when the target is
 * outside the quotable range.
 */
export function makerOdds(pBacked: number, margin: number): AmericanOdds | null {
  const target = pBacked - margin;
  if (!(target >= MIN_QUOTABLE_PROBABILITY && target <= MAX_QUOTABLE_PROBABILITY)) return null;
  let odds = fromProbability(target, 'higher-payout');
  // fromDecimal rounds to 12 significant digits first, and pBacked − margin itself rounds,
  // so a price on the target can land a hair short of the margin; the guarantee is exact.
  for (let i = 0; i < 8 && !(edgeOf(odds, pBacked) >= margin); i++) odds = stepOut(odds, 1);
  return edgeOf(odds, pBacked) >= margin ? odds : null;
}

/** Probability points a backer of `odds` gains over fair: pBacked − impliedProbability(odds). */
export function edgeOf(odds: AmericanOdds, pBacked: number): number {
  return pBacked - impliedProbability(odds);
}
