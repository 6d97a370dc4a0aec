import type { AmericanOdds } from '../odds/american.ts';
import type { Selection } from '../markets/types.ts';

/**
 * One exposure on a game, for liability and grading: a matched bet, or a resting order
 * that may still be filled (`contingent`). `amount` is the stake in the position's own
 * view (a maker's risk), `odds` its own American odds, `commissionRate` what it pays as a
 * taker (0 for makers and postArb fills).
 */
export interface Position {
  readonly selection: Selection;
  readonly amount: number;
  readonly odds: AmericanOdds;
  readonly commissionRate: number;
  /** A resting order: any part of it may or may not fill, so the worst case counts it only where it loses. */
  readonly contingent?: boolean;
}
