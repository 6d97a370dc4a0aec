import { roundMoney } from '../../money/rounding.ts';
import type { SimUser } from '../accounts.ts';
import { signCookieValue } from '../auth/cookie.ts';
import type { SimContext } from '../context.ts';
import { heartbeatFor } from '../heartbeat.ts';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import type { RegisterDeps } from '../register.ts';
import { renderUnmatchedOrder } from '../render/orders.ts';
import { iso } from '../render/time.ts';
import { heartbeatBody, loginBody, parseBody } from './schemas.ts';

export const BAD_LOGIN = 'incorrect username or password';
export const CHALLENGE_BODY = { error: { message: 'CHALLENGE_REQUIRED', code: 428 } } as const;

function userOf(req: SimRequest): SimUser {
  if (!req.user) throw new Error(`route ${req.path} ran without an authenticated user`);
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
  router.add('POST', '/user/login', 'none', (req): SimResponse => {
    // Per-IP login throttle (exchange-api §8 names one without numbers): settings.loginRate.
    const admission = ctx.limits.login.admit(req.ip);
    if (!admission.ok) {
      return respond.error(429, 'Too many login attempts. Please try again later.', { 'retry-after': String(admission.retryAfterSeconds) });
    }
    const b = parseBody(loginBody, req.body);
    if (!b.ok) return b.response;
    if (ctx.faults.loginChallenge) {
      ctx.injected.loginChallenges++;
      return { status: 428, body: CHALLENGE_BODY };
    }
    const user = ctx.accounts.verify(b.value.username, b.value.password);
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
          email: user.email,
          displayBalance: roundMoney(m.balance),
          commissionCharged: m.commissionRate,
        },
      },
      { 'set-cookie': authCookie(ctx, token) },
    );
  });

  // exchange-api §4.2: only the token used for the call dies.
  router.add('POST', '/user/logout', 'bearer', (req) => {
    if (req.token) ctx.tokens.revoke(req.token);
    return respond.data({ success: true });
  });

  // feeds-and-semantics §7.
  router.add('GET', '/user/getMe', 'bearer', (req) => {
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
  });

  // feeds-and-semantics §6: REST twin of the orders-socket heartbeat.
  router.add('POST', '/user/ordersHeartbeat', 'bearer', (req) => {
    const b = parseBody(heartbeatBody, req.body);
    if (!b.ok) return b.response;
    heartbeatFor(ctx).arm(userOf(req).id, b.value.timeout);
    return respond.data({ type: 'heartbeatAck', serverTime: iso(ctx.time.clock.now()), timeoutSec: b.value.timeout });
  });

  // feeds-and-semantics §7: the caller's resting orders, oldest first.
  router.add('GET', '/user/getUnmatched', 'bearer', (req) => {
    const unmatched = ctx.engine.openOrders(userOf(req).id).map((o) => renderUnmatchedOrder(ctx.engine, o));
    return respond.data({ unmatched });
  });
}
