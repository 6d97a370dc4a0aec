import { z } from 'zod';
import { Id, IsoString, MarketTypeWire, MoneyString, Odds, opt } from './common.ts';
import { Game } from './game.ts';

/** One fill of a place result (exchange-api §2.4), full precision. */
export const PlacedFill = z.object({
  amount: z.number(),
  odds: Odds,
  number: opt(z.number()),
  type: z.string(),
  side: z.string(),
  market: opt(z.string()),
  orderID: Id,
  txID: Id,
  wagerRequestID: Id,
  userReference: opt(z.string()),
  risk: z.number(),
  win: z.number(),
  winWithoutCommission: z.number(),
});
export type PlacedFill = z.output<typeof PlacedFill>;

/** The resting remainder of a place result. */
export const RestingOrder = z.object({
  orderID: Id,
  wagerRequestID: Id,
  offered: z.number(),
  odds: Odds,
  type: z.string(),
  side: z.string(),
  market: opt(z.string()),
  number: opt(z.number()),
  userReference: opt(z.string()),
});
export type RestingOrder = z.output<typeof RestingOrder>;

/**
 * One entry of `createdSessions`: success `{matched, unmatched}` (unmatched `{}` when nothing
 * rests) or failure `{error, errorType}` (the orders socket spells it `error_type`).
 */
export const WirePlaceEntry = z.union([
  z.object({ matched: z.array(PlacedFill), unmatched: z.union([RestingOrder, z.object({}).strict()]).nullish() }),
  z.object({ error: z.string(), errorType: z.string().optional(), error_type: z.string().optional() }),
]);
export type WirePlaceEntry = z.output<typeof WirePlaceEntry>;

export const PlaceResponse = z.object({ createdSessions: z.array(WirePlaceEntry) });

/** exchange-api §2.5 / feeds §6: a successful cancel, amounts at the moment of cancellation. */
export const WireCancelResult = z.object({
  success: z.boolean(),
  reason: opt(z.string()),
  sessionID: opt(z.string()),
  orderID: opt(z.string()),
  description: opt(z.string()),
  odds: opt(z.number()),
  filled: opt(z.number()),
  offered: opt(z.number()),
  remaining: opt(z.number()),
  gameID: opt(z.string()),
  userReference: opt(z.string()),
  side: opt(z.string()),
  number: opt(z.number()),
});
export type WireCancelResult = z.output<typeof WireCancelResult>;

/** exchange-api §2.3: an order read through lookupOrder (maker view). */
export const LookupOrder = z.object({
  id: Id,
  cancelled: z.boolean(),
  isTheBestOffer: z.boolean(),
  odds: Odds,
  type: MarketTypeWire.or(z.string()),
  OU: opt(z.string()),
  participant: opt(z.string()),
  participantLongName: opt(z.string()),
  spread: opt(z.number()),
  total: opt(z.number()),
  matchedRisk: MoneyString,
  unmatchedRisk: MoneyString,
  market: opt(z.string()),
  side: opt(z.string()),
  game: Game.nullish(),
});
export type LookupOrder = z.output<typeof LookupOrder>;

/** feeds-and-semantics §7: one of the caller's resting orders from getUnmatched. */
export const UnmatchedOrder = z.object({
  id: Id,
  type: z.string(),
  bet: z.number(),
  odds: Odds,
  spread: opt(z.number()),
  total: opt(z.number()),
  participantID: opt(z.string()),
  otherParticipantID: opt(z.string()),
  market: opt(z.string()),
  side: opt(z.string()),
  OU: opt(z.string()),
  expiry: opt(IsoString),
  filled: z.number(),
  offered: z.number(),
  remaining: z.number(),
  takenRatio: opt(z.number()),
  createdAt: opt(IsoString),
  userReference: opt(z.string()),
  wagerRequestID: opt(z.string()),
  game: Game.nullish(),
});
export type UnmatchedOrder = z.output<typeof UnmatchedOrder>;
