import {
  applyMode,
  BOOK_SIDES,
  bookExposures,
  clearOfBook,
  expirationParam,
  fairDepthParam,
  fairOfBook,
  fitUnderLimit,
  makerOdds,
  marketsParam,
  maxOverroundParam,
  minSizeParam,
  NO_EXPOSURE,
  ownOrderIDs,
  postIntent,
  selectedBookKeys,
  sideKey,
  sideSelection,
  sizeToleranceParam,
  toleranceCentsParam,
  z,
  type QuoteIntent,
  type StrategyModule,
  type StrategyView,
} from '../src/strategy/index.ts';

/**
 * Avellaneda–Stoikov, adapted to a binary outcome. All prices are probabilities of side 0
 * (home / over / yes) winning, in [0, 1].
 *
 *   σ² = p(1 − p)                       variance of a unit-payoff contract's settlement value;
 *                                        it replaces σ²(T − t): a game resolves all of its
 *                                        uncertainty by settlement, so the horizon is "to the end"
 *   q  = net / inventoryUnit            net = bookExposure(...).net, currency of unit-payoff
 *                                        contracts long side 0 (exposure of side 0 minus side 1);
 *                                        q is dimensionless
 *   r  = p − clamp(q γ σ², ±maxSkew)    reservation probability (γ: risk aversion, dimensionless);
 *                                        the clamp is ours: A–S skews linearly without bound, but a
 *                                        probability cannot, and a huge inventory should not make us
 *                                        give the whole book away on the rebalancing side
 *   k  = kBase + kPerArrival × a        a = takers per minute on the game (activity feed)
 *   δ  = max(minSpread, γσ² + (2/γ) ln(1 + γ/k))     total spread, probability points
 *
 * k is A–S's fill-intensity decay per probability point of distance from r
 * (λ(d) = A e^(−k d)). The book does not reveal it; we proxy it by taker flow: a game with
 * more takers per minute has more makers competing for them, so fills fall off faster as
 * a quote moves away from fair — larger k, tighter spread. With γ ≪ k the second term is
 * ≈ 2/k, e.g. k = 50 → 4 points. δ rises with γ when σ² > 1/k² (true unless p is within
 * ~1/k² of 0 or 1) and always falls with k.
 *
 * Quotes: back side 0 at implied probability ≤ r − δ/2, side 1 at ≤ (1 − r) − δ/2, rounded
 * to the higher payout for us. A hard per-game limit then sizes them (fitUnderLimit).
 */
export const inventorySkewParams = z.strictObject({
  markets: marketsParam(['moneyline']),
  gamma: z
    .number()
    .positive()
    .default(0.1)
    .describe('Risk aversion γ (dimensionless): larger skews harder against inventory and widens the spread'),
  inventoryUnit: z
    .number()
    .positive()
    .default(100)
    .describe(
      'Currency of net exposure that counts as one unit of inventory q (net = exposure of side 0 − exposure of side 1)',
    ),
  kBase: z
    .number()
    .positive()
    .default(50)
    .describe('Fill-intensity decay k per probability point on a game with no taker flow'),
  kPerArrival: z
    .number()
    .nonnegative()
    .default(25)
    .describe('Added to k per taker arrival per minute (view.activity.takerArrivalsPerMinute)'),
  maxSkew: z
    .number()
    .min(0)
    .max(0.5)
    .default(0.1)
    .describe('Cap on |r − p|, the inventory shift of the reservation probability, probability points'),
  minSpread: z.number().min(0).max(1).default(0.02).describe('Floor on the total spread δ, probability points'),
  size: z.number().positive().default(50).describe('Stake (our risk, currency) quoted on each side'),
  maxLiability: z
    .number()
    .positive()
    .default(500)
    .describe(
      "Hard per-game cap on this strategy's worst-case loss (currency): positions plus every quote resting at full size",
    ),
  minSize: minSizeParam(1),
  toleranceCents: toleranceCentsParam(2),
  sizeTolerance: sizeToleranceParam(0.2),
  expirationMinutes: expirationParam(null),
  minDepth: fairDepthParam(),
  maxOverround: maxOverroundParam(),
});

export type InventorySkewParams = z.output<typeof inventorySkewParams>;

export function binaryVariance(p: number): number {
  return p * (1 - p);
}

export function reservationProbability(p: number, q: number, gamma: number, maxSkew = Infinity): number {
  const shift = q * gamma * binaryVariance(p);
  return p - Math.max(-maxSkew, Math.min(maxSkew, shift));
}

export function intensityDecay(takerArrivalsPerMinute: number, kBase: number, kPerArrival: number): number {
  const a = Number.isFinite(takerArrivalsPerMinute) && takerArrivalsPerMinute > 0 ? takerArrivalsPerMinute : 0;
  return kBase + kPerArrival * a;
}

export function optimalSpread(p: number, gamma: number, k: number): number {
  return gamma * binaryVariance(p) + (2 / gamma) * Math.log1p(gamma / k);
}

function quote(view: StrategyView, params: InventorySkewParams): readonly QuoteIntent[] {
  if (view.mode === 'halted' || view.game.ended) return [];
  const game = view.game;
  const own = ownOrderIDs(view);
  const k = intensityDecay(view.activity.takerArrivalsPerMinute, params.kBase, params.kPerArrival);
  const intents: QuoteIntent[] = [];
  const exposures = bookExposures(view.positions);
  for (const key of selectedBookKeys(game, params.markets)) {
    const book = game.books.get(key);
    const p = fairOfBook(view, key, book, params);
    if (p === null) continue;
    const q = (exposures.get(key) ?? NO_EXPOSURE).net / params.inventoryUnit;
    const r = reservationProbability(p, q, params.gamma, params.maxSkew);
    const half = Math.max(params.minSpread, optimalSpread(p, params.gamma, k)) / 2;
    for (const side of BOOK_SIDES) {
      const odds = makerOdds(side === 0 ? r : 1 - r, half);
      if (odds === null) continue;
      const selection = sideSelection(book, key, side);
      if (selection === null) continue;
      const listed = book?.sides[side];
      intents.push(postIntent(sideKey(key, side), selection, clearOfBook(odds, listed, own), params.size, params));
    }
  }
  return fitUnderLimit(view.positions, applyMode(view, intents), params.maxLiability, params.minSize);
}

export const inventorySkew: StrategyModule<InventorySkewParams> = {
  name: 'inventory-skew',
  description:
    'Avellaneda–Stoikov market making on binary outcomes: quotes around a reservation ' +
    'probability shifted against inventory, with a spread from risk aversion and taker flow, ' +
    'under a hard per-game worst-case liability limit.',
  params: inventorySkewParams,
  quote,
};
