import { z } from 'zod';
import { Id, IsoString, MoneyString, Odds, opt } from './common.ts';
import { Game, GameLoadError } from './game.ts';

/** exchange-api §2.6: an open (matched, ungraded) bet. Money fields are the exchange's 2-decimal reads. */
export const MatchedBet = z.object({
  id: Id,
  txID: Id,
  type: z.string(),
  bet: z.number(),
  odds: Odds,
  spread: opt(z.number()),
  total: opt(z.number()),
  OU: opt(z.string()),
  participantID: opt(z.string()),
  market: opt(z.string()),
  side: opt(z.string()),
  userReference: opt(z.string()),
  createdAt: opt(IsoString),
  matchedTime: opt(IsoString),
  origin: z.enum(['offer', 'wager']),
  risk: MoneyString,
  win: MoneyString,
  graded: opt(z.boolean()),
  closed: opt(z.boolean()),
  adminRefund: opt(z.boolean()),
  game: Game.nullish(),
});
export type MatchedBet = z.output<typeof MatchedBet>;

export const GradeOutcome = z.enum(['winner', 'loser', 'half-win', 'half-loss', 'refunded']);

/** A graded row's `origin`; `unknown` when the row leaves it out. */
export type GradedOrigin = 'offer' | 'wager' | 'unknown';

const falseWhenAbsent = z
  .boolean()
  .nullish()
  .transform((v) => v ?? false);

/**
 * exchange-api §2.7: one settlement version of one fill, from the caller's side. `txID` is its
 * identity. The service's schema requires `closed`, `cancelled` and `origin`, but rows in the
 * exchange's hand-written examples leave them out (feeds §8): a row without them is read
 * (false, false, origin `unknown`) rather than costing the whole page.
 */
export const GradedRow = z.object({
  game: z.union([Game, GameLoadError]),
  id: Id,
  type: z.string(),
  bet: z.number(),
  txID: Id,
  closed: falseWhenAbsent,
  ticketNumber: z.string(),
  odds: Odds,
  fee: MoneyString,
  risk: MoneyString,
  win: MoneyString,
  origin: z
    .enum(['offer', 'wager'])
    .nullish()
    .transform((v): GradedOrigin => v ?? 'unknown'),
  cancelled: falseWhenAbsent,
  // Unknown future outcomes stay readable: the row is kept, the outcome string carried.
  outcome: opt(z.string()),
  graded: opt(z.boolean()),
  createdAt: opt(IsoString),
  matchedTime: opt(IsoString),
  settledAt: opt(IsoString),
  adminRefund: opt(z.boolean()),
  wagerRequestID: opt(z.string()),
  userReference: opt(z.string()),
  isPostArb: opt(z.boolean()),
  platform: opt(z.string()),
  result: opt(MoneyString),
  participantID: opt(z.string()),
  spread: opt(z.number()),
  total: opt(z.number()),
  OU: opt(z.string()),
  side: opt(z.string()),
  market: opt(z.string()),
});
export type GradedRow = z.output<typeof GradedRow>;

export const MatchedBetsResponse = z.object({ matchedBets: z.array(MatchedBet) });

export const GradedWindowResponse = z.object({
  graded: z.array(GradedRow),
  summary: z.object({ pnl: z.number(), volume: z.number() }),
});
export type GradedWindowResponse = z.output<typeof GradedWindowResponse>;

export const GradedSinceResponse = z.object({
  graded: z.array(GradedRow),
  hasMore: z.boolean(),
  cursor: z.string(),
  settledThrough: IsoString,
});
export type GradedSinceResponse = z.output<typeof GradedSinceResponse>;

export const LiabilityResponse = z.object({ liability: z.number() });

/** Top level, no `data` wrapper (exchange-api §1.2): one single-key object per referred player. */
export const AffiliateCommissionResponse = z.object({ commissionPaid: z.array(z.record(z.string(), z.number())) });
export type AffiliateCommissionResponse = z.output<typeof AffiliateCommissionResponse>;
