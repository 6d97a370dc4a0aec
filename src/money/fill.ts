import { payout, type AmericanOdds } from '../odds/american.ts';

/**
 * Money of one side of one fill (feeds-and-semantics §4). `commissionRate` is the
 * taker's per-account rate; a maker, or a postArb fill, passes 0.
 *
 *   winWithoutCommission = amount × payout(odds)
 *   win  = winWithoutCommission × (1 − c)            what a win pays, net
 *   risk = amount + c × min(amount, winWithoutCommission)   what a loss costs
 *
 * Values are unrounded, as the place response carries them.
 */
export interface FillMoney {
  readonly amount: number;
  readonly odds: AmericanOdds;
  readonly winWithoutCommission: number;
  readonly win: number;
  readonly risk: number;
  /** Commission charged if the bet wins. */
  readonly commissionOnWin: number;
  /** Commission charged if the bet loses (included in `risk`). */
  readonly commissionOnLoss: number;
}

export function fillMoney(amount: number, odds: AmericanOdds, commissionRate: number): FillMoney {
  const winWithoutCommission = amount * payout(odds);
  return {
    amount,
    odds,
    winWithoutCommission,
    win: fillWin(winWithoutCommission, commissionRate),
    risk: fillRisk(amount, winWithoutCommission, commissionRate),
    commissionOnWin: commissionRate * winWithoutCommission,
    commissionOnLoss: commissionRate * Math.min(amount, winWithoutCommission),
  };
}

/** What a fill wins, net of the commission on a win; `winWithoutCommission` is amount × payout(odds). */
export function fillWin(winWithoutCommission: number, commissionRate: number): number {
  return winWithoutCommission - commissionRate * winWithoutCommission;
}

/** What a fill risks, the commission on a loss included. */
export function fillRisk(amount: number, winWithoutCommission: number, commissionRate: number): number {
  return amount + commissionRate * Math.min(amount, winWithoutCommission);
}

/**
 * The most a taker can stake against a resting maker order: the maker's potential win
 * (`sumUntaken` on the book). A maker risking R at odds m is listed at invert(m) and can
 * absorb a taker stake of R × payout(m).
 */
export function takerCapacity(makerRemainingRisk: number, makerOdds: AmericanOdds): number {
  return makerRemainingRisk * payout(makerOdds);
}
