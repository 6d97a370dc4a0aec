import { z } from 'zod';
import { SENDABLE_TOKEN } from '../auth/token-source.ts';
import { Id } from './common.ts';

/** exchange-api §2.8; `auth` is the token and never leaves the session object. */
export const LoginResponse = z.object({
  user: z.looseObject({
    id: Id,
    username: z.string(),
    auth: z.string().regex(SENDABLE_TOKEN, { error: 'not a token that can be sent in a header' }),
  }),
});

/** feeds-and-semantics §7: getMe; only the money fields linesmith reads are required. */
export const MeResponse = z.object({
  user: z.object({
    id: Id,
    username: z.string(),
    email: z.string().nullish(),
    displayBalance: z.number(),
    creditLimit: z.number().nullish(),
    liability: z.number().nullish(),
    commissionCharged: z.number().nullish(),
    maxLiability: z.number().nullish(),
  }),
});
export type Me = z.output<typeof MeResponse>['user'];

export const HeartbeatAck = z.object({
  type: z.string().optional(),
  serverTime: z.string().optional(),
  timeoutSec: z.number().optional(),
});
export type HeartbeatAck = z.output<typeof HeartbeatAck>;

export const LogoutResponse = z.unknown();
