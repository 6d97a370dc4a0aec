import type { Selection, Team } from '../markets/types.ts';
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

/**
 * Whether an order backing `own` is listed for takers of `selection`: same book, the other
 * side (`bookKeyOf` equal, `sideIndexOf` not). Compared field by field rather than through the
 * book keys: asked for every order of ours on the game for every order checked.
 */
export function backsOtherSide(own: Selection, selection: Selection): boolean {
  switch (own.type) {
    case 'moneyline':
      return selection.type === 'moneyline' && own.team !== selection.team;
    case 'spread':
      return (
        selection.type === 'spread' && own.team !== selection.team && sameKeyLine(homeLine(own), homeLine(selection))
      );
    case 'total':
      return selection.type === 'total' && own.ou !== selection.ou && sameKeyLine(own.line, selection.line);
    case 'moneyline1x2':
      return selection.type === 'moneyline1x2' && own.outcome === selection.outcome && own.yes !== selection.yes;
  }
}

/** A spread's line as its book key reads it: the home team's. */
function homeLine(s: { readonly team: Team; readonly line: number }): number {
  return s.team === 'home' ? s.line : -s.line || 0;
}

/** Whether two lines print alike in a book key: equal numbers (0 and -0 alike), or both NaN. */
function sameKeyLine(a: number, b: number): boolean {
  return a === b || (a !== a && b !== b);
}
