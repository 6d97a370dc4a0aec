import {
  applyMode,
  BOOK_SIDES,
  clearOfBook,
  defineStrategy,
  fairOfBook,
  fitUnderLimit,
  makerOdds,
  marketsParam,
  ownOrderIDs,
  postIntent,
  selectedBookKeys,
  sideSelection,
  z,
  type QuoteIntent,
} from 'linesmith/strategy';

/**
 * A sample to start from: both sides of each selected book at `margin` probability points
 * inside the fair price (a configured fair feed, else the book's de-margined consensus),
 * never crossing the book, cut to a worst-case loss per game.
 */
export default defineStrategy({
  name: 'fair-quoter',
  description:
    'Quotes both sides of the selected books at a margin around the fair price, under a per-game liability cap.',
  params: z.strictObject({
    markets: marketsParam(['moneyline', 'mainSpread', 'mainTotal']),
    margin: z.number().min(0).max(0.5).default(0.03).describe('Edge per side, probability points'),
    size: z.number().positive().default(25).describe('Stake (currency) of each quote'),
    maxLiability: z
      .number()
      .positive()
      .default(300)
      .describe('Per-game cap on the worst-case loss (currency), quotes counted at full size'),
    toleranceCents: z
      .number()
      .nonnegative()
      .default(3)
      .describe('Keep a resting quote within this many cents of the new price'),
  }),
  quote(view, params) {
    if (view.mode === 'halted' || view.game.ended) return [];
    const own = ownOrderIDs(view);
    const intents: QuoteIntent[] = [];
    for (const key of selectedBookKeys(view.game, params.markets)) {
      const book = view.game.books.get(key);
      const p0 = fairOfBook(view, key, book, { minDepth: 20, maxOverround: 0.25 });
      if (p0 === null) continue;
      for (const side of BOOK_SIDES) {
        const odds = makerOdds(side === 0 ? p0 : 1 - p0, params.margin);
        const selection = sideSelection(book, key, side);
        if (odds === null || selection === null) continue;
        const terms = { toleranceCents: params.toleranceCents, sizeTolerance: 0.2, expirationMinutes: null };
        intents.push(
          postIntent(`${key}:${side}`, selection, clearOfBook(odds, book?.sides[side], own), params.size, terms),
        );
      }
    }
    return fitUnderLimit(view.positions, applyMode(view, intents), params.maxLiability, 1);
  },
});
