import {
  applyMode,
  BOOK_SIDES,
  bookExposures,
  clearOfBook,
  expirationParam,
  fairDepthParam,
  fairOfBook,
  fitUnderLimit,
  levelKey,
  makerOdds,
  marketsParam,
  maxOverroundParam,
  minSizeParam,
  NO_EXPOSURE,
  ownOrderIDs,
  postIntent,
  selectedBookKeys,
  sideSelection,
  sizeToleranceParam,
  stepOut,
  toleranceCentsParam,
  z,
  type QuoteIntent,
  type StrategyModule,
  type StrategyView,
} from '../src/strategy/index.ts';

/**
 * Two-sided quotes at a fixed margin around the fair price, skewed against inventory.
 *
 * In probability of side 0: r = p_fair − clamp(skewPerUnit × net, ±maxSkew), where net is
 * the book's inventory (bookExposure: currency of unit-payoff contracts long side 0). We
 * back side 0 at implied probability ≤ r − margin and side 1 at ≤ (1 − r) − margin, so a
 * taker sees side 0 bid at r − margin and offered at r + margin: the quotes bracket fair,
 * and being long side 0 lowers both, which makes our side-0 quote less and our side-1
 * quote more attractive, so fills rebalance. Level i is i × levelStepCents further out.
 */
export const fixedSpreadParams = z.strictObject({
  markets: marketsParam(['moneyline', 'mainSpread', 'mainTotal']),
  margin: z
    .number()
    .min(0)
    .max(0.5)
    .default(0.02)
    .describe(
      'Edge per side in probability points: we back a side only at implied probability ≤ its (skewed) fair probability − margin',
    ),
  levels: z.number().int().min(1).max(20).default(1).describe('Price levels per side'),
  levelStepCents: z
    .number()
    .int()
    .min(1)
    .default(5)
    .describe('Each further level is this many cents (American, ±100 joined) further out, i.e. a higher payout for us'),
  sizePerLevel: z.number().positive().default(50).describe('Stake (our risk, currency) of each level'),
  toleranceCents: toleranceCentsParam(3),
  sizeTolerance: sizeToleranceParam(0.2),
  skewPerUnit: z
    .number()
    .nonnegative()
    .default(0.0001)
    .describe(
      'Probability points both quotes shift per currency unit of net inventory on the book (exposure of side 0 minus side 1)',
    ),
  maxSkew: z.number().min(0).max(0.5).default(0.05).describe('Cap on the inventory shift, probability points'),
  maxLiability: z
    .number()
    .positive()
    .nullable()
    .default(null)
    .describe(
      "Optional per-game cap on this strategy's worst-case loss (currency), positions plus all " +
        "quotes resting at full size; null: left to the runtime's risk checks",
    ),
  minSize: minSizeParam(1),
  expirationMinutes: expirationParam(null),
  minDepth: fairDepthParam(),
  maxOverround: maxOverroundParam(),
});

export type FixedSpreadParams = z.output<typeof fixedSpreadParams>;

function quote(view: StrategyView, params: FixedSpreadParams): readonly QuoteIntent[] {
  if (view.mode === 'halted' || view.game.ended) return [];
  const game = view.game;
  const own = ownOrderIDs(view);
  // Level-major order, so a liability cap keeps the inner levels of every book first. One
  // level (the default) needs no list per level.
  const levels = params.levels;
  const inner: QuoteIntent[] = [];
  const outer: QuoteIntent[][] | null = levels === 1 ? null : [];
  for (let level = 1; level < levels; level++) outer!.push([]);
  const exposures = bookExposures(view.positions);
  for (const key of selectedBookKeys(game, params.markets)) {
    const book = game.books.get(key);
    const p0 = fairOfBook(view, key, book, params);
    if (p0 === null) continue;
    const skew = Math.max(
      -params.maxSkew,
      Math.min(params.maxSkew, params.skewPerUnit * (exposures.get(key) ?? NO_EXPOSURE).net),
    );
    const r = p0 - skew;
    for (const k of BOOK_SIDES) {
      const odds = makerOdds(k === 0 ? r : 1 - r, params.margin);
      if (odds === null) continue;
      const selection = sideSelection(book, key, k);
      if (selection === null) continue;
      const side = book?.sides[k];
      const first = clearOfBook(odds, side, own);
      inner.push(postIntent(levelKey(key, k, 0), selection, stepOut(first, 0), params.sizePerLevel, params));
      for (let level = 1; level < levels; level++) {
        outer![level - 1]!.push(
          postIntent(
            levelKey(key, k, level),
            selection,
            stepOut(first, level * params.levelStepCents),
            params.sizePerLevel,
            params,
          ),
        );
      }
    }
  }
  const all = outer === null ? inner : inner.concat(...outer);
  const intents = applyMode(view, all);
  return params.maxLiability === null
    ? intents
    : fitUnderLimit(view.positions, intents, params.maxLiability, params.minSize);
}

export const fixedSpread: StrategyModule<FixedSpreadParams> = {
  name: 'fixed-spread',
  description:
    'Quotes both sides of the selected books at a fixed margin around the fair price ' +
    '(configured feed, else the de-margined book consensus), in levels, skewed against ' +
    'inventory; posts never cross the book.',
  params: fixedSpreadParams,
  quote,
};
