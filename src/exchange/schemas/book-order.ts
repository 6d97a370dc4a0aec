import { z } from 'zod';
import { Id, IsoString, Odds, opt } from './common.ts';

/**
 * An order as a book lists it (exchange-api §2.3, feeds §2 `sideOrders`, v2 orderbook):
 * taker's odds, maker's `bet`, what a taker can still stake. The same entity on REST and on
 * the price feed. No transforms: the price feed's fast parser hands the parsed JSON on as is.
 */
export const BookOrder = z.object({
  id: Id,
  type: opt(z.string()),
  sumUntaken: z.number(),
  odds: Odds,
  bet: z.number(),
  gameID: opt(z.string()),
  takenRatio: opt(z.number()),
  participantID: opt(z.string()),
  market: opt(z.string()),
  side: opt(z.string()),
  OU: opt(z.string()),
  total: opt(z.number()),
  spread: opt(z.number()),
  gameStartExpiry: opt(z.boolean()),
  expiry: opt(IsoString),
  createdAt: opt(IsoString),
  isPostArb: opt(z.boolean()),
  createdBy: opt(z.string()),
  mockOrder: opt(z.boolean()),
});
export type BookOrder = z.output<typeof BookOrder>;
