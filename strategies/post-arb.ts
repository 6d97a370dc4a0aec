import {
  applyMode,
  BOOK_SIDES,
  edgeOf,
  expirationParam,
  fairDepthParam,
  fairOfBook,
  fitUnderLimit,
  floorCents,
  impliedProbability,
  marketsParam,
  maxOverroundParam,
  minSizeParam,
  oddsRank,
  selectedBookKeys,
  sideKey,
  withinPostArbBand,
  z,
  type AmericanOdds,
  type BookSide,
  type MarketBook,
  type QuoteIntent,
  type StrategyModule,
  type StrategyView,
} from '../src/strategy/index.ts';

/**
 * Takes mispriced resting offers with `postArb` orders, which pay no taker commission.
 *
 * Perspective: side k of a book lists, for takers backing S = side k's selection, offers
 * made by makers backing the opposite of S, at the taker odds t = invert(maker odds). We
 * meet them by backing S ourselves. The engine (and exchange-api §4.5 rule 3) lets a
 * postArb order with our odds o cross only when o is within the band of the best listed
 * price (|rank(o) − rank(t)| ≤ 1% × |t|), then walks price levels best-first while
 * rank(t) ≥ rank(o) and o is within the band of that level's t, filling at each level's
 * listed t (price improvement goes to us). So we pick o = the listed price of the worst
 * level we want: it crosses, every better level we want is checked against the band, and
 * nothing worse is reachable.
 *
 * A level is wanted while, walking from the best: its edge for us, p_S − impliedProbability(t),
 * is ≥ minEdge (edge only falls further down); o at its price stays within the band of every
 * level above it; and it holds no offer of ours (the exchange has no self-trade prevention,
 * and a stale view could let us walk into our own order). Size = the wanted offers'
 * sumUntaken (the most a taker may stake against them), capped by maxSize, then by the
 * per-game budget with the intent counted as resting at full size (a postArb that finds
 * the offer gone rests as a maker at o, still at ≥ minEdge).
 */
export const postArbParams = z.strictObject({
  markets: marketsParam(['all']),
  minEdge: z
    .number()
    .min(0)
    .max(1)
    .default(0.02)
    .describe(
      'Least edge, probability points: fair probability of the side we back minus the implied probability of the fill price',
    ),
  maxSize: z.number().positive().default(200).describe('Largest stake (currency) of one postArb order'),
  maxLiability: z
    .number()
    .positive()
    .default(300)
    .describe(
      "Per-game budget (currency): worst-case loss of this strategy's positions plus its postArb orders at full size",
    ),
  bandTolerance: z
    .number()
    .positive()
    .max(0.05)
    .default(0.01)
    .describe("postArb band as a fraction of the resting order's American odds; must match the exchange (1%)"),
  minSize: minSizeParam(1),
  expirationMinutes: expirationParam(1),
  minDepth: fairDepthParam(),
  maxOverround: maxOverroundParam(),
});

export type PostArbParams = z.output<typeof postArbParams>;

export interface Sweep {
  /** Our odds: the listed price of the worst level taken. */
  readonly odds: AmericanOdds;
  /** Taker stake the wanted offers absorb. */
  readonly size: number;
  /** Edge at `odds`, the least of the levels taken. */
  readonly edge: number;
}

/** The levels of `side` worth taking for a backer whose fair win probability is `pBacked`. */
export function planSweep(side: BookSide, pBacked: number, minEdge: number, bandTolerance: number): Sweep | null {
  let taken: Sweep | null = null;
  let total = 0;
  // Most sides stop at their best level, so the list of levels taken is made only past it.
  let levelPrices: AmericanOdds[] | null = null;
  let i = 0;
  const offers = side.offers;
  while (i < offers.length) {
    const t = offers[i]!.odds;
    const rank = oddsRank(t);
    let j = i;
    let size = 0;
    let ours = false;
    while (j < offers.length && oddsRank(offers[j]!.odds) === rank) {
      const o = offers[j]!;
      if (o.mine) ours = true;
      else if (o.sumUntaken > 0) size += o.sumUntaken;
      j++;
    }
    // Out of order would mean the view is not the book the engine walks: trust nothing past it.
    if (levelPrices !== null && rank > oddsRank(levelPrices[levelPrices.length - 1]!)) break;
    if (ours) break;
    const edge = edgeOf(t, pBacked);
    if (!(edge >= minEdge)) break;
    if (levelPrices !== null && !allWithinBand(t, levelPrices, bandTolerance)) break;
    (levelPrices ??= []).push(t);
    total += size;
    if (size > 0) taken = { odds: t, size: total, edge };
    i = j;
  }
  return taken;
}

/** Whether our odds `t` stay within the postArb band of every listed price in `levels`. */
function allWithinBand(t: AmericanOdds, levels: readonly AmericanOdds[], bandTolerance: number): boolean {
  for (const u of levels) if (!withinPostArbBand(t, u, bandTolerance)) return false;
  return true;
}

interface Found {
  readonly intent: QuoteIntent;
  readonly edge: number;
}

function quote(view: StrategyView, params: PostArbParams): readonly QuoteIntent[] {
  if (view.mode === 'halted' || view.game.ended) return [];
  const game = view.game;
  let found: Found[] | null = null;
  const markets = params.markets;
  if (markets.length === 1 && markets[0] === 'all') {
    // Every book in the game's order, which is what selectedBookKeys gives for `all`, without
    // building the list of keys and looking each one up again (a book's key is its key in the map).
    for (const book of game.books.values()) found = quoteBook(view, params, book.key, book, found);
  } else {
    for (const key of selectedBookKeys(game, markets)) {
      const book = game.books.get(key);
      if (book !== undefined) found = quoteBook(view, params, key, book, found);
    }
  }
  // Most evaluations find nothing worth taking.
  if (found === null) return [];
  // The budget goes to the best edge first; sort is stable, so ties keep book order.
  const ordered = found.sort(byEdge).map(intentOf);
  return fitUnderLimit(view.positions, applyMode(view, ordered), params.maxLiability, params.minSize);
}

/** `found` with the sweeps worth taking on `book`'s two sides added (created on the first). */
function quoteBook(
  view: StrategyView,
  params: PostArbParams,
  key: string,
  book: MarketBook,
  found: Found[] | null,
): Found[] | null {
  const pays0 = mayPay(book.sides[0], params.minEdge);
  const pays1 = mayPay(book.sides[1], params.minEdge);
  // What fairOfBook reads first: the read is noted whatever follows (what an evaluation read
  // is what decides when it is asked again).
  const fair = view.fair;
  // No fair price could make either side worth taking.
  if (!pays0 && !pays1) return found;
  const configured = fair?.get(key);
  const kept = sweptBooksOf(view.game.id);
  let swept = kept.get(key);
  if (swept === undefined) kept.set(key, (swept = { book: null, params, configured, found: NOTHING }));
  if (swept.book !== book || swept.params !== params || !Object.is(swept.configured, configured)) {
    swept.found = sweepsOf(view, params, key, book, pays0, pays1);
    swept.book = book;
    swept.params = params;
    swept.configured = configured;
  }
  const f = swept.found;
  if (f.length === 0) return found;
  found ??= [];
  for (let i = 0; i < f.length; i++) found.push(f[i]!);
  return found;
}

/**
 * What quoteBook found last on one book of a game, and the book object it was found on,
 * kept for the next evaluation: a book is immutable (a change of either side replaces it),
 * and a game's evaluations mostly follow a change of one of its books, so most books of the
 * game are the ones looked at last time. Valid for the same book object, params and
 * configured fair value of the key. One record per game and book key, changed in place when
 * the book changed: a record per book object, in a WeakMap keyed by the book, cost about a
 * microsecond per changed book to enter (a weak table's entry is dear to make and to sweep).
 */
interface SweptBook {
  book: MarketBook | null;
  params: PostArbParams;
  configured: number | undefined;
  found: readonly Found[];
}

/** The records by game id, then by book key. */
const sweptBooks = new Map<string, Map<string, SweptBook>>();
/** More games than a run watches at once: past it the records start afresh, so ended games are not kept for good. */
const MAX_SWEPT_GAMES = 1024;

function sweptBooksOf(gameID: string): Map<string, SweptBook> {
  let kept = sweptBooks.get(gameID);
  if (kept === undefined) {
    if (sweptBooks.size >= MAX_SWEPT_GAMES) sweptBooks.clear();
    sweptBooks.set(gameID, (kept = new Map()));
  }
  return kept;
}
const NOTHING: readonly Found[] = Object.freeze([]);

/** The sweeps worth taking on `book`'s sides (those `pays0` and `pays1` leave in play). */
function sweepsOf(
  view: StrategyView,
  params: PostArbParams,
  key: string,
  book: MarketBook,
  pays0: boolean,
  pays1: boolean,
): readonly Found[] {
  // The params hold the fair options (minDepth, maxOverround) under their own names.
  const p0 = fairOfBook(view, key, book, params);
  if (p0 === null) return NOTHING;
  let found: Found[] | null = null;
  for (const k of BOOK_SIDES) {
    // A side mayPay rules out has no sweep whatever the fair price (see mayPay).
    if (!(k === 0 ? pays0 : pays1)) continue;
    const side = book.sides[k];
    const sweep = planSweep(side, k === 0 ? p0 : 1 - p0, params.minEdge, params.bandTolerance);
    if (sweep === null) continue;
    // Whole cents, rounded down: a stake above what the offers absorb would rest the excess.
    const size = floorCents(Math.min(sweep.size, params.maxSize));
    const intent: QuoteIntent =
      params.expirationMinutes !== null
        ? {
            key: sideKey(key, k),
            selection: side.taker,
            odds: sweep.odds,
            size,
            orderType: 'postArb',
            expirationMinutes: params.expirationMinutes,
          }
        : { key: sideKey(key, k), selection: side.taker, odds: sweep.odds, size, orderType: 'postArb' };
    (found ??= []).push({ intent, edge: sweep.edge });
  }
  return found ?? NOTHING;
}

/**
 * Whether some fair price could give `side` a sweep: planSweep takes nothing unless its best
 * level's edge, pBacked − impliedProbability(t), reaches minEdge, and pBacked is at most 1
 * (and floating-point subtraction keeps that order), so 1 − impliedProbability(t) short of
 * minEdge rules the side out before the fair price is worked out.
 */
function mayPay(side: BookSide, minEdge: number): boolean {
  const best = side.offers[0];
  return best !== undefined && 1 - impliedProbability(best.odds) >= minEdge;
}

function byEdge(a: Found, b: Found): number {
  return b.edge - a.edge;
}

function intentOf(f: Found): QuoteIntent {
  return f.intent;
}

export const postArb: StrategyModule<PostArbParams> = {
  name: 'post-arb',
  description:
    'Meets resting offers priced better than fair by at least minEdge with commission-free ' +
    'postArb orders inside the 1% band, sized to the offers and a per-game liability budget.',
  params: postArbParams,
  quote,
};
