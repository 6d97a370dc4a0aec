import { bookKeyOf, sideIndexOf, type Selection } from '../markets/types.ts';
import { invertOdds, oddsRank } from '../odds/american.ts';

/**
 * Whether an order that can match (anything but a plain `post`) backing `selection` at
 * `odds` could meet `own`, an order of ours still open: ours on the same book backing the
 * other side, listed for takers at `odds` or better. The exchange would match the two (one
 * txID, both sides ours): commission for nothing, and a position that cancels itself out.
 */
export function wouldMeet(
  own: { readonly selection: Selection; readonly odds: number },
  selection: Selection,
  odds: number,
): boolean {
  return backsOtherSide(own.selection, selection) && oddsRank(invertOdds(own.odds)) >= oddsRank(odds);
}

/** Whether an order backing `own` is listed for takers of `selection`: same book, the other side. */
export function backsOtherSide(own: Selection, selection: Selection): boolean {
  return bookKeyOf(own) === bookKeyOf(selection) && sideIndexOf(own) !== sideIndexOf(selection);
}
