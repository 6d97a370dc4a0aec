import type { EngineError } from '../../engine/types.ts';
import { settleEventLoop, type ManualTimeSource } from '../../shared/time.ts';
import type { SimContext } from '../context.ts';
import { respond, type Handler, type SimRequest, type SimResponse } from '../http/types.ts';
import { createGame, createUser } from '../ops/admin-ops.ts';
import type { RegisterDeps } from '../register.ts';
import { renderGame } from '../render/game.ts';
import { iso } from '../render/time.ts';
import { parseBody } from '../rest/schemas.ts';
import {
  ClockBody,
  CreateGameBody,
  CreateUserBody,
  ExpireTokensBody,
  FaultsBody,
  GameResultBody,
  UpdateGameBody,
  UserStatusBody,
} from './schemas.ts';

/** Every method an admin path answers, so that a wrong method is a 405 only for an admitted admin client. */
const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/**
 * The admin API: users, games and results, the manual clock and fault injection. Mounted
 * with auth mode `admin`, which the server answers only when the simulator runs with
 * `admin` and the client is on loopback; everyone else gets the same 404 as for an
 * unknown path. Bodies are JSON and validated; bad input is 400 `{error}`.
 */
export function registerAdminRoutes({ ctx, router }: RegisterDeps): void {
  const mount = (path: string, handlers: Partial<Record<(typeof ALL_METHODS)[number], Handler>>) => {
    router.add(ALL_METHODS, path, 'admin', (req) => {
      const handler = handlers[req.method as (typeof ALL_METHODS)[number]];
      return handler ? handler(req) : respond.error(405, `method ${req.method} not allowed on ${req.path}`);
    });
  };

  mount('/admin/users', { POST: (req) => postUser(ctx, req) });
  mount('/admin/users/:id/status', { POST: (req) => postUserStatus(ctx, req) });
  mount('/admin/games', { POST: (req) => postGame(ctx, req) });
  mount('/admin/games/:id', { GET: (req) => getGame(ctx, req), POST: (req) => postGameUpdate(ctx, req) });
  mount('/admin/games/:id/result', { POST: (req) => postGameResult(ctx, req) });
  mount('/admin/games/:id/refund', { POST: (req) => postGameRefund(ctx, req) });
  mount('/admin/clock', {
    GET: () => respond.data({ now: iso(ctx.time.clock.now()) }),
    POST: (req) => postClock(ctx, req),
  });
  mount('/admin/faults', {
    GET: () => respond.data({ faults: { ...ctx.faults }, injected: { ...ctx.injected } }),
    POST: (req) => postFaults(ctx, req),
  });
  mount('/admin/tokens/expire', { POST: (req) => postExpireTokens(ctx, req) });
}

function engineError(e: EngineError): SimResponse {
  const status =
    e.code === 'game_not_found' || e.code === 'user_not_found'
      ? 404
      : e.code === 'game_ended' || e.code.startsWith('duplicate')
        ? 409
        : 400;
  return respond.error(status, e.message);
}

// ---------------------------------------------------------------- users

function postUser(ctx: SimContext, req: SimRequest): SimResponse {
  const body = parseBody(CreateUserBody, req.body);
  if (!body.ok) return body.response;
  const { username, password, email, balance, creditLimit, commission, referrer, status } = body.value;
  const made = createUser(ctx, {
    username,
    password,
    ...(email !== undefined ? { email } : {}),
    ...(balance !== undefined ? { balance } : {}),
    ...(creditLimit !== undefined ? { creditLimit } : {}),
    ...(commission !== undefined ? { commission } : {}),
    ...(referrer !== undefined ? { referrer } : {}),
  });
  if (!made.ok) return respond.error(made.status, made.error);
  if (status !== undefined && status !== 'active') ctx.accounts.setStatus(made.value.id, status);
  return respond.data({ user: { id: made.value.id, username: made.value.username } });
}

/** Set an account's status. Banning or closing revokes every token of the account. */
function postUserStatus(ctx: SimContext, req: SimRequest): SimResponse {
  const body = parseBody(UserStatusBody, req.body);
  if (!body.ok) return body.response;
  const id = req.params.id ?? '';
  const updated = ctx.accounts.setStatus(id, body.value.status);
  if (!updated) return respond.error(404, `user ${id} not found`);
  if (updated.status === 'banned' || updated.status === 'closed') ctx.tokens.revokeUser(updated.id);
  return respond.data({ user: { id: updated.id, username: updated.username, status: updated.status } });
}

// ---------------------------------------------------------------- games

function postGame(ctx: SimContext, req: SimRequest): SimResponse {
  const body = parseBody(CreateGameBody, req.body);
  if (!body.ok) return body.response;
  const b = body.value;
  const made = createGame(ctx, {
    league: b.league,
    sport: b.sport,
    participants: b.participants,
    ...(b.start !== undefined ? { start: b.start } : {}),
    ...(b.live !== undefined ? { live: b.live } : {}),
    ...(b.eventName !== undefined ? { eventName: b.eventName } : {}),
    ...(b.tournamentName !== undefined ? { tournamentName: b.tournamentName } : {}),
    ...(b.parentGameID !== undefined ? { parentGameID: b.parentGameID } : {}),
    ...(b.markets !== undefined ? { markets: b.markets } : {}),
  });
  if (!made.ok) return respond.error(made.status, made.error);
  return respond.data({ game: renderGame(made.value) });
}

function getGame(ctx: SimContext, req: SimRequest): SimResponse {
  const id = req.params.id ?? '';
  const game = ctx.engine.game(id);
  return game ? respond.data({ game: renderGame(game) }) : respond.error(404, `game ${id} not found`);
}

function postGameUpdate(ctx: SimContext, req: SimRequest): SimResponse {
  const id = req.params.id ?? '';
  if (!ctx.engine.game(id)) return respond.error(404, `game ${id} not found`);
  const body = parseBody(UpdateGameBody, req.body);
  if (!body.ok) return body.response;
  const { live, start } = body.value;
  const updated = ctx.engine.updateGame(id, {
    ...(live !== undefined ? { live } : {}),
    ...(start !== undefined ? { start } : {}),
  });
  ctx.pump.kick();
  return updated.ok ? respond.data({ game: renderGame(updated.value) }) : engineError(updated.error);
}

/** End the game with a final score and grade its bets; on an ended game this regrades. */
function postGameResult(ctx: SimContext, req: SimRequest): SimResponse {
  const id = req.params.id ?? '';
  if (!ctx.engine.game(id)) return respond.error(404, `game ${id} not found`);
  const body = parseBody(GameResultBody, req.body);
  if (!body.ok) return body.response;
  const settled = ctx.engine.settleGame(id, { away: body.value.awayScore, home: body.value.homeScore });
  ctx.pump.kick();
  return settled.ok ? respond.data({ graded: settled.value.length }) : engineError(settled.error);
}

function postGameRefund(ctx: SimContext, req: SimRequest): SimResponse {
  const id = req.params.id ?? '';
  if (!ctx.engine.game(id)) return respond.error(404, `game ${id} not found`);
  const refunded = ctx.engine.refundGame(id);
  ctx.pump.kick();
  return refunded.ok ? respond.data({ graded: refunded.value.length }) : engineError(refunded.error);
}

// ---------------------------------------------------------------- clock and faults

/**
 * Move a manual clock forward (`advanceMs`, or `to` an ISO instant), running everything
 * due on the way, then the clock hooks, the engine's due work, and re-arm the pump.
 */
async function postClock(ctx: SimContext, req: SimRequest): Promise<SimResponse> {
  if (ctx.time.kind !== 'manual') return respond.error(400, 'clock is not manual');
  const body = parseBody(ClockBody, req.body);
  if (!body.ok) return body.response;
  const time = ctx.time as ManualTimeSource;
  const now = time.clock.now();
  const target = body.value.to ?? now + (body.value.advanceMs ?? 0);
  if (target < now) return respond.error(400, `time cannot go backwards (now ${iso(now)})`);
  // Step through due instants, letting each one's work (delayed orders completing their
  // HTTP replies, feed frames) settle before the next, as real time would.
  await time.advanceToSettling(target, settleEventLoop);
  for (const hook of [...ctx.hooks.onClockAdvanced]) hook();
  ctx.engine.advance();
  ctx.pump.kick();
  return respond.data({ now: iso(time.clock.now()) });
}

/** Merge into the live faults object (everything holds a reference to it) and tell the listeners. */
function postFaults(ctx: SimContext, req: SimRequest): SimResponse {
  const body = parseBody(FaultsBody, req.body);
  if (!body.ok) return body.response;
  const patch = Object.fromEntries(Object.entries(body.value).filter(([, v]) => v !== undefined));
  Object.assign(ctx.faults, patch);
  for (const hook of [...ctx.hooks.onFaultsChanged]) hook(ctx.faults);
  return respond.data({ faults: { ...ctx.faults } });
}

/** Expire the live tokens of one user (or everyone) now: each rotates on its next use (X-Auth-Token). */
function postExpireTokens(ctx: SimContext, req: SimRequest): SimResponse {
  const body = parseBody(ExpireTokensBody, req.body ?? {});
  if (!body.ok) return body.response;
  const expired = ctx.tokens.expire(body.value.userId);
  ctx.injected.tokensExpired += expired;
  return respond.data({ expired });
}
