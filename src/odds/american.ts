/**
 * American odds. Profit per unit staked is `payout`: +X pays X/100, -X pays 100/X.
 * +100 and -100 are the same price; we keep +100 as the canonical spelling.
 */
export type AmericanOdds = number;

export const EVEN_ODDS = 100;

export function isValidAmericanOdds(odds: unknown): odds is AmericanOdds {
  return typeof odds === 'number' && Number.isInteger(odds) && Math.abs(odds) >= 100;
}

/** -100 and +100 denote the same price; return the canonical +100. */
export function normalizeOdds(odds: AmericanOdds): AmericanOdds {
  return odds === -100 ? 100 : odds;
}

/**
 * Maker view ↔ taker view. A maker backing a side at `odds` is offered to takers of
 * the other side at the sign-flipped odds (feeds-and-semantics §3).
 */
export function invertOdds(odds: AmericanOdds): AmericanOdds {
  return odds === 100 || odds === -100 ? 100 : -odds;
}

/** Profit per unit stake. */
export function payout(odds: AmericanOdds): number {
  return odds > 0 ? odds / 100 : 100 / -odds;
}

export function toDecimal(odds: AmericanOdds): number {
  return 1 + payout(odds);
}

/** Break-even probability of the price, with no margin removed. */
export function impliedProbability(odds: AmericanOdds): number {
  return 1 / toDecimal(odds);
}

/**
 * Decimal odds to American, rounded to the nearest integer away from the even line so
 * the result is valid (|odds| ≥ 100). `rounding` 'taker-worse' rounds toward a lower
 * payout, which is what a maker quoting a price wants.
 */
export function fromDecimal(
  decimal: number,
  rounding: 'nearest' | 'lower-payout' | 'higher-payout' = 'nearest',
): AmericanOdds {
  if (!(decimal > 1) || !Number.isFinite(decimal)) throw new RangeError(`decimal odds must be > 1, got ${decimal}`);
  const raw = twelveDigitsForRounding(decimal >= 2 ? (decimal - 1) * 100 : -100 / (decimal - 1));
  // Math.floor on a negative American price lowers the payout too (-110.4 → -111), so one
  // rounding function serves both signs.
  const rounded =
    rounding === 'nearest' ? Math.round(raw) : rounding === 'lower-payout' ? Math.floor(raw) : Math.ceil(raw);
  if (rounded > -100 && rounded < 100) return 100;
  return normalizeOdds(rounded);
}

/**
 * `raw` rounded to 12 significant digits, as far as the roundings of fromDecimal can tell:
 * that rounding moves a number by at most 5e-12 of its size, so it can only change which
 * side of a multiple of ½ the number lies on (all that floor, ceil and round read) when
 * the number is that close to one. Everywhere else `raw` itself gives the same integer,
 * and skips a number → string → number round trip that is most of the cost of a quote.
 */
function twelveDigitsForRounding(raw: number): number {
  if (Math.abs(raw) < 1e9 && Math.abs(raw - Math.round(raw * 2) / 2) > 1e-11 * Math.abs(raw)) return raw;
  return Number(raw.toPrecision(12));
}

export function fromProbability(
  p: number,
  rounding: 'nearest' | 'lower-payout' | 'higher-payout' = 'nearest',
): AmericanOdds {
  if (!(p > 0 && p < 1)) throw new RangeError(`probability must be in (0, 1), got ${p}`);
  return fromDecimal(1 / p, rounding);
}

/**
 * Orders prices by what a taker receives: positive when `a` pays more than `b`.
 * Uses the sign/magnitude structure instead of floating payouts so equal prices compare
 * exactly equal.
 */
export function compareForTaker(a: AmericanOdds, b: AmericanOdds): number {
  return oddsRank(a) - oddsRank(b);
}

/**
 * A monotone integer rank of the payout: ... -200 → -100, -101 → -1, ±100 → 0,
 * +101 → 1, +200 → 100 ... Equal prices share a rank, so it is also a book-level key.
 */
export function oddsRank(odds: AmericanOdds): number {
  return odds >= 100 ? odds - 100 : odds <= -100 ? odds + 100 : Number.NaN;
}

/** The odds of a rank (inverse of oddsRank; rank 0 is +100). */
export function oddsFromRank(rank: number): AmericanOdds {
  return rank >= 0 ? rank + 100 : rank - 100;
}

export function isAtLeastAsGoodForTaker(offered: AmericanOdds, limit: AmericanOdds): boolean {
  return oddsRank(offered) >= oddsRank(limit);
}

/**
 * Distance between two prices along the American scale with -100 and +100 joined,
 * e.g. d(-101, +101) = 2. This is the scale on which the postArb band is measured.
 */
export function americanDistance(a: AmericanOdds, b: AmericanOdds): number {
  return Math.abs(oddsRank(a) - oddsRank(b));
}

/**
 * postArb band: the order's own odds lie within `tolerance` (1% on the exchange) of the
 * resting order's odds as the order would receive them (the book's listed price).
 */
export function withinPostArbBand(orderOdds: AmericanOdds, listedOdds: AmericanOdds, tolerance = 0.01): boolean {
  return americanDistance(orderOdds, listedOdds) <= tolerance * Math.abs(listedOdds) + 1e-9;
}
