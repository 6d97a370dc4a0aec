/**
 * Everything a strategy needs, from one module: `import { ... } from 'linesmith/strategy'`.
 * The built-in strategies import only this; what is not here is the framework's own and
 * may change between versions.
 */

// zod, the same instance the loader validates params with, so a strategy needs no copy of its own.
export { z } from 'zod';

// The strategy module and what it returns.
export { defineStrategy, type StrategyDefinition } from './define.ts';
export {
  INTENT_ORDER_TYPES,
  type IntentOrderType,
  type Interest,
  type LivePolicy,
  type QuoteIntent,
  type StrategyModule,
} from './types.ts';
export { postIntent, type PostTerms } from './post-intent.ts';
export { levelKey, sideKey } from './intent-key.ts';

// What a strategy sees.
export type {
  BookSide,
  GameActivity,
  GameState,
  ListedOffer,
  MarketBook,
  OwnFill,
  OwnOrder,
  OwnOrderStatus,
  Participants,
  Refusal,
  RiskRule,
  StrategyView,
  TradingMode,
} from '../market-model/types.ts';
export { viewWith } from './view-with.ts';
export type { Position } from '../money/position.ts';
export {
  bookKeyOf,
  MARKET_TYPES,
  oppositeSelection,
  sideIndexOf,
  type MarketType,
  type OverUnder,
  type Outcome1x2,
  type Selection,
  type Team,
} from '../markets/types.ts';

// Odds.
export {
  americanDistance,
  compareForTaker,
  EVEN_ODDS,
  fromDecimal,
  fromProbability,
  impliedProbability,
  invertOdds,
  isValidAmericanOdds,
  oddsFromRank,
  oddsRank,
  payout,
  toDecimal,
  withinPostArbBand,
  type AmericanOdds,
} from '../odds/american.ts';

// Fair price.
export {
  consensusFair,
  DEFAULT_FAIR_OPTIONS,
  depthPrice,
  edgeOf,
  fairOfBook,
  fairProbability,
  makerOdds,
  MAX_QUOTABLE_PROBABILITY,
  MIN_QUOTABLE_PROBABILITY,
  type FairOptions,
} from './fair.ts';

// Books, sides and the price ladder.
export { BOOK_SIDES, marketsParam, selectedBookKeys, selectionsOfKey, sideSelection } from './markets.ts';
export { bestRank, clearOfBook, fromRank, ownOrderIDs, stepOut } from './ladder.ts';

// Inventory and risk.
export { bookExposure, bookExposures, NO_EXPOSURE, type BookExposure } from './exposure.ts';
export { applyMode, fitUnderLimit, floorCents, intentPosition, largestFit, reducingOnly } from './liability-fit.ts';
export { worstCaseLiability } from '../money/liability.ts';

// Parameter builders shared by the built-in strategies (each a zod schema with its description).
export {
  expirationParam,
  fairDepthParam,
  maxOverroundParam,
  minSizeParam,
  sizeToleranceParam,
  toleranceCentsParam,
} from './params.ts';
