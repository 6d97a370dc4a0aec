import { z } from 'zod';
import { MARKET_TYPES } from '../../markets/types.ts';
import { parseIsoInstant } from '../rest/graded-cursor.ts';

/** Request bodies of the admin API (loopback only, enabled with `admin`). */

const isoInstant = z.string().transform((s, ctx) => {
  const ms = parseIsoInstant(s);
  if (ms === null) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date-time' });
    return z.NEVER;
  }
  return ms;
});

const money = z.number().finite();
const name = z.string().trim().min(1).max(128);

export const AccountStatusSchema = z.enum(['active', 'banned', 'closed', 'frozen']);

export const CreateUserBody = z.strictObject({
  username: name,
  password: z.string().min(1).max(256),
  email: z.string().trim().min(3).max(256).nullish(),
  balance: money.optional(),
  creditLimit: money.nonnegative().optional(),
  commission: z.number().min(0).lt(1).optional(),
  referrer: name.nullish(),
  status: AccountStatusSchema.optional(),
});

export const UserStatusBody = z.strictObject({ status: AccountStatusSchema });

const participant = z.strictObject({ longName: name, shortName: name });

export const CreateGameBody = z.strictObject({
  league: name,
  sport: name,
  participants: z.tuple([participant, participant]),
  start: isoInstant.optional(),
  live: z.boolean().optional(),
  eventName: z.string().max(256).optional(),
  tournamentName: z.string().max(256).nullish(),
  parentGameID: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .nullish(),
  markets: z.array(z.enum(MARKET_TYPES)).min(1).optional(),
});

export const UpdateGameBody = z
  .strictObject({ live: z.boolean().optional(), start: isoInstant.optional() })
  .refine((b) => b.live !== undefined || b.start !== undefined, { message: 'live or start is required' });

const score = z.number().int().nonnegative().max(100_000);
export const GameResultBody = z.strictObject({ awayScore: score, homeScore: score });

export const ClockBody = z
  .strictObject({
    advanceMs: z
      .number()
      .int()
      .nonnegative()
      .max(10 * 365 * 86_400_000)
      .optional(),
    to: isoInstant.optional(),
  })
  .refine((b) => (b.advanceMs === undefined) !== (b.to === undefined), {
    message: 'exactly one of advanceMs or to is required',
  });

const rate = z.number().min(0).max(1);
const nonNegativeMs = z.number().int().nonnegative().max(86_400_000);

export const FaultsBody = z.strictObject({
  dropSocketsEveryMs: nonNegativeMs.optional(),
  restErrorRate: rate.optional(),
  restHangRate: rate.optional(),
  restLatencyMs: z.number().int().nonnegative().max(60_000).optional(),
  malformedFeedRate: rate.optional(),
  rateLimitBurst: z.number().int().nonnegative().max(1_000_000).optional(),
  loginChallenge: z.boolean().optional(),
});

export const ExpireTokensBody = z.strictObject({
  userId: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .optional(),
});
