import { z } from 'zod';
import { roundMoney } from '../../money/rounding.ts';
import type { SimUser } from '../accounts.ts';
import { signCookieValue } from '../auth/cookie.ts';
import type { SimContext } from '../context.ts';
import { heartbeatFor } from '../heartbeat.ts';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import type { RegisterDeps } from '../register.ts';
import { renderUnmatchedOrder } from '../render/orders.ts';
import { iso } from '../render/time.ts';
import { heartbeatBody, loginBody } from './schemas.ts';
import { UnauthenticatedRouteError } from '../errors.ts';

export const BAD_LOGIN = 'incorrect username or password';
export const CHALLENGE_BODY = { error: { message: 'CHALLENGE_REQUIRED', code: 428 } } as const;

function userOf(req: SimRequest): SimUser {
  if (!req.user) throw new UnauthenticatedRouteError(req.path);
  return req.user;
}

/** The `auth` cookie login sets: the signed token, URL-encoded. */
export function authCookie(ctx: SimContext, token: string): string {
  return `auth=${encodeURIComponent(signCookieValue(token, ctx.secret))}; Path=/; HttpOnly; SameSite=Lax`;
}

export function registerUserRoutes({ ctx, router }: RegisterDeps): void {
  const money = (userId: string) => {
    const a = ctx.engine.account(userId);
    return {
      balance: a?.balance ?? 0,
      creditLimit: a?.creditLimit ?? 0,
      commissionRate: a?.commissionRate ?? 0,
      exposure: a?.exposure ?? 0,
    };
  };

  // exchange-api §4.1, §7.2.
  router.declare({
    method: 'POST',
    path: '/user/login',
    auth: 'none',
    summary: 'Log in: the token is data.user.auth and the signed auth cookie',
    body: loginBody,
    // Per-IP login throttle (exchange-api §8 names one without numbers): settings.loginRate.
    // It counts every attempt, malformed ones included.
    before: (req) => {
      const admission = ctx.limits.login.admit(req.ip);
      return admission.ok
        ? undefined
        : respond.error(429, 'Too many login attempts. Please try again later.', {
            'retry-after': String(admission.retryAfterSeconds),
          });
    },
    handler: (_req, { body }): SimResponse => {
      if (ctx.faults.loginChallenge) {
        ctx.injected.loginChallenges++;
        return { status: 428, body: CHALLENGE_BODY };
      }
      const user = ctx.accounts.verify(body.username, body.password);
      if (!user) return respond.error(401, BAD_LOGIN);
      if (user.status !== 'active') return respond.error(403, `account ${user.status}`);
      const token = ctx.tokens.issue(user.id);
      const m = money(user.id);
      return respond.data(
        {
          user: {
            id: user.id,
            username: user.username,
            auth: token,
            // The published user object has email as a string: an account without one leaves it out.
            ...(user.email !== null ? { email: user.email } : {}),
            displayBalance: roundMoney(m.balance),
            commissionCharged: m.commissionRate,
          },
        },
        { 'set-cookie': authCookie(ctx, token) },
      );
    },
  });

  // exchange-api §4.2: only the token used for the call dies.
  router.declare({
    method: 'POST',
    path: '/user/logout',
    auth: 'bearer',
    summary: 'Invalidate the token used for the call',
    response: z.object({ data: z.object({ success: z.literal(true) }) }),
    handler: (req) => {
      if (req.token) ctx.tokens.revoke(req.token);
      return respond.data({ success: true });
    },
  });

  // feeds-and-semantics §7.
  router.declare({
    method: 'GET',
    path: '/user/getMe',
    auth: 'bearer',
    summary: "The caller's account",
    handler: (req) => {
      const user = userOf(req);
      const m = money(user.id);
      return respond.data({
        user: {
          id: user.id,
          username: user.username,
          email: user.email,
          displayBalance: roundMoney(m.balance),
          creditLimit: roundMoney(m.creditLimit),
          liability: roundMoney(m.exposure),
          commissionCharged: m.commissionRate,
          maxLiability: roundMoney(m.balance + m.creditLimit),
        },
      });
    },
  });

  // feeds-and-semantics §6: REST twin of the orders-socket heartbeat.
  router.declare({
    method: 'POST',
    path: '/user/ordersHeartbeat',
    auth: 'bearer',
    summary: "Dead man's switch: cancel every open order unless called again within timeout seconds",
    body: heartbeatBody,
    response: z.object({
      data: z.object({ type: z.literal('heartbeatAck'), serverTime: z.string(), timeoutSec: z.number().int() }),
    }),
    handler: (req, { body }) => {
      heartbeatFor(ctx).arm(userOf(req).id, body.timeout);
      return respond.data({ type: 'heartbeatAck', serverTime: iso(ctx.time.clock.now()), timeoutSec: body.timeout });
    },
  });

  // feeds-and-semantics §7: the caller's resting orders, oldest first.
  router.declare({
    method: 'GET',
    path: '/user/getUnmatched',
    auth: 'bearer',
    summary: "The caller's resting orders, oldest first",
    handler: (req) =>
      respond.data({
        unmatched: ctx.engine.openOrders(userOf(req).id).map((o) => renderUnmatchedOrder(ctx.engine, o)),
      }),
  });
}
