import type { BetView, EngineGame, GradeVersion } from '../../engine/types.ts';
import { z } from 'zod';
import { roundMoney, toCents } from '../../money/rounding.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import type { RegisterDeps } from '../register.ts';
import { renderGradedRow, renderMatchedBet, type WireGradedRow } from '../render/bets.ts';
import { iso } from '../render/time.ts';
import {
  affiliateQuery,
  gameLiabilityQuery,
  gradedSinceBody,
  gradedSinceQuery,
  gradedWindowBody,
  gradedWindowQuery,
} from './schemas.ts';
import { orderMemory } from './order-memory.ts';
import { decodeCursor, encodeCursor, pageOf, parseIsoInstant, positionAfter } from './graded-cursor.ts';
import { UnauthenticatedRouteError } from '../errors.ts';

/** Widest explicit window of the date-window graded endpoints (exchange-api §8). */
export const MAX_GRADED_WINDOW_MS = 35 * 86_400_000;
/** Default `fromDate` of getAffiliateCommission. */
export const AFFILIATE_DEFAULT_FROM = '08-02-2021';

/**
 * Bet reads: open bets, game liability, graded rows by date window and by cursor, and
 * affiliate commission (exchange-api §4.8, §4.12-4.16).
 */
export function registerBetRoutes({ ctx, router }: RegisterDeps): void {
  const { stakes, takenRatios } = orderMemory(ctx);
  router.declare({
    method: 'GET',
    path: '/user/getMatchedBets',
    auth: 'bearer',
    summary: 'Open (matched, ungraded) bets by game start',
    handler: (req) => matchedBets(ctx, stakes, user(req)),
  });
  router.declare({
    method: 'GET',
    path: '/user/getGameLiability',
    auth: 'bearer',
    summary: 'Worst-case loss over every bet of the caller on one game (0 or less)',
    query: gameLiabilityQuery,
    response: z.object({ data: z.object({ liability: z.number().max(0) }) }),
    handler: (req, { query }) => gameLiability(ctx, user(req), query.gameID),
  });
  for (const path of ['/user/v2/getGraded', '/user/getGradedWagers']) {
    router.declare({
      method: ['GET', 'POST'],
      path,
      auth: 'raw',
      limiter: 'graded',
      summary: 'Graded rows of the games starting in [startDate, endDate), with a summary',
      deprecated: path === '/user/getGradedWagers',
      query: gradedWindowQuery,
      body: gradedWindowBody,
      handler: (req, { query, body }) => gradedWindow(ctx, takenRatios, user(req), { ...query, ...defined(body) }),
    });
  }
  router.declare({
    method: ['GET', 'POST'],
    path: '/user/v2/getGradedSince',
    auth: 'raw',
    limiter: 'gradedSince',
    summary: 'The grade log walked in settlement order, 100 rows a page',
    query: gradedSinceQuery,
    body: gradedSinceBody,
    handler: (req, { query, body }) => gradedSince(ctx, takenRatios, user(req), { ...query, ...defined(body) }),
  });
  router.declare({
    method: 'GET',
    path: '/affiliate/getAffiliateCommission',
    auth: 'bearer',
    summary: 'Commission paid by each referred player over [fromDate, toDate]',
    query: affiliateQuery,
    handler: (req, { query }) => affiliateCommission(ctx, user(req), query),
  });
}

/** The fields of a POST body that were given (they override the query string's). */
function defined<T extends object>(body: T | undefined): Partial<T> {
  if (body === undefined) return {};
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function user(req: SimRequest): SimUser {
  if (!req.user) throw new UnauthenticatedRouteError(req.path);
  return req.user;
}

// ---------------------------------------------------------------- open bets

function matchedBets(ctx: SimContext, stakes: ReadonlyMap<string, number>, u: SimUser): SimResponse {
  const open: { bet: BetView; game: EngineGame; i: number }[] = [];
  ctx.engine.bets(u.id).forEach((bet, i) => {
    if (bet.grade !== null) return;
    const game = ctx.engine.game(bet.gameID);
    if (game) open.push({ bet, game, i });
  });
  open.sort((a, b) => a.game.start - b.game.start || a.i - b.i);
  const matchedBets = open.map(({ bet, game }) =>
    renderMatchedBet(game, bet, stakes.get(bet.orderID) ?? ctx.engine.order(bet.orderID)?.bet),
  );
  return respond.data({ matchedBets });
}

function gameLiability(ctx: SimContext, u: SimUser, gameID: string): SimResponse {
  const liability = ctx.engine.gameLiability(u.id, gameID);
  return respond.data({ liability: liability === 0 ? 0 : Math.min(0, liability) });
}

// ---------------------------------------------------------------- parameters

type Instant =
  { readonly ok: true; readonly ms: number | undefined } | { readonly ok: false; readonly response: SimResponse };

function isoParam(value: string | undefined, name: string): Instant {
  if (value === undefined) return { ok: true, ms: undefined };
  const ms = parseIsoInstant(value);
  return ms === null
    ? { ok: false, response: respond.error(400, `${name} must be an ISO 8601 date or date-time`) }
    : { ok: true, ms };
}

// ---------------------------------------------------------------- graded by window

/**
 * getGraded / getGradedWagers: the latest version of each of the caller's graded bets on
 * games that START in [startDate, endDate). `endDate` is this simulator's name for the
 * contract's unnamed end parameter; it defaults to now. Without `startDate` the window is
 * the whole history up to the end; with it, a window wider than 35 days is a 400.
 */
function gradedWindow(
  ctx: SimContext,
  takenRatios: ReadonlyMap<string, number>,
  u: SimUser,
  params: { startDate?: string | undefined; endDate?: string | undefined },
): SimResponse {
  const start = isoParam(params.startDate, 'startDate');
  if (!start.ok) return start.response;
  const end = isoParam(params.endDate, 'endDate');
  if (!end.ok) return end.response;
  const to = end.ms ?? ctx.time.clock.now();
  const from = start.ms ?? -Infinity;
  if (start.ms !== undefined) {
    if (from > to) return respond.error(400, 'startDate must not be after endDate');
    if (to - from > MAX_GRADED_WINDOW_MS) return respond.error(400, 'date window is wider than 35 days');
  }

  const rows: { row: WireGradedRow; grade: GradeVersion }[] = [];
  // pnl adds the rows' rounded results, so it equals the sum of their `result` strings.
  let pnlCents = 0;
  let volume = 0;
  for (const bet of ctx.engine.bets(u.id)) {
    if (bet.grade === null) continue;
    const game = ctx.engine.game(bet.gameID);
    if (!game || game.start < from || game.start >= to) continue;
    rows.push({ row: renderGradedRow(game, bet, bet.grade, takenRatios.get(bet.orderID)), grade: bet.grade });
    pnlCents += toCents(bet.grade.result);
    volume += bet.money.amount;
  }
  rows.sort((a, b) => a.grade.seq - b.grade.seq);
  return respond.data({
    graded: rows.map((r) => r.row),
    summary: { pnl: pnlCents / 100 + 0, volume: roundMoney(volume) },
  });
}

// ---------------------------------------------------------------- graded by cursor

/**
 * getGradedSince (exchange-api §4.15): the caller's grade log walked in settlement order,
 * 100 rows a page. A regrade or refund appends newer versions of the same txID, so they
 * reappear later in the walk. Without `since` and `cursor` the walk starts at the
 * beginning of the log. The log holds what the settled-game retention keeps.
 */
function gradedSince(
  ctx: SimContext,
  takenRatios: ReadonlyMap<string, number>,
  u: SimUser,
  params: { since?: string | undefined; cursor?: string | undefined },
): SimResponse {
  const sinceText = params.since;
  const cursorText = params.cursor;
  if (sinceText !== undefined && cursorText !== undefined)
    return respond.error(400, 'since and cursor are mutually exclusive');
  // The log within the settled-game retention; cursor positions count the dropped front too.
  const log = ctx.engine.grades(u.id);
  const dropped = ctx.engine.gradesDropped(u.id);
  const now = ctx.time.clock.now();

  let start: number;
  let floor: number;
  if (cursorText !== undefined) {
    const check = decodeCursor(ctx.secret, cursorText, u.id);
    if (!check.ok) return respond.error(400, check.error);
    if (check.state.position > dropped + log.length) return respond.error(400, 'invalid cursor');
    // A cursor into rows the retention dropped resumes at the oldest row kept.
    start = Math.max(0, check.state.position - dropped);
    floor = check.state.settledThrough;
  } else {
    const since = isoParam(sinceText, 'since');
    if (!since.ok) return since.response;
    floor = since.ms ?? 0;
    start = since.ms === undefined ? 0 : positionAfter(log, since.ms);
  }

  const page = pageOf(log, start, floor, now);
  const cursor =
    page.rows.length === 0 && cursorText !== undefined
      ? cursorText
      : encodeCursor(ctx.secret, { userId: u.id, position: dropped + page.end, settledThrough: page.settledThrough });
  const graded = renderGrades(ctx, takenRatios, page.rows);
  return respond.data({ graded, hasMore: page.hasMore, cursor, settledThrough: iso(page.settledThrough) });
}

/** Rows for grade versions, loading each game's bets once. */
function renderGrades(
  ctx: SimContext,
  takenRatios: ReadonlyMap<string, number>,
  grades: readonly GradeVersion[],
): WireGradedRow[] {
  const betsByGame = new Map<string, Map<string, BetView>>();
  const out: WireGradedRow[] = [];
  for (const grade of grades) {
    let bets = betsByGame.get(grade.gameID);
    if (!bets) {
      bets = new Map(ctx.engine.betsOfGame(grade.gameID).map((b) => [b.id, b]));
      betsByGame.set(grade.gameID, bets);
    }
    const bet = bets.get(grade.betId);
    if (!bet) {
      ctx.log.error({ betId: grade.betId }, 'graded bet not found');
      continue;
    }
    out.push(renderGradedRow(ctx.engine.game(grade.gameID), bet, grade, takenRatios.get(bet.orderID)));
  }
  return out;
}

// ---------------------------------------------------------------- affiliate

/** `MM-DD-YYYY` → midnight UTC of that day, or null. */
export function parseUsDate(text: string): number | null {
  const m = /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const year = Number(m[3]);
  const ms = Date.UTC(year, month - 1, day);
  const d = new Date(ms);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? ms : null;
}

/**
 * Commission (fees) paid by each player the caller referred, over bets whose latest
 * settlement falls on a day in [fromDate, toDate] (UTC days, both inclusive). Every
 * referred player is listed, with 0 when nothing was paid. Top-level body, no `data`.
 */
function affiliateCommission(
  ctx: SimContext,
  u: SimUser,
  query: { fromDate?: string | undefined; toDate?: string | undefined },
): SimResponse {
  const fromText = query.fromDate ?? AFFILIATE_DEFAULT_FROM;
  const from = parseUsDate(fromText);
  if (from === null) return respond.error(400, `fromDate must be MM-DD-YYYY: ${fromText.slice(0, 40)}`);
  const toText = query.toDate;
  const toDay = toText ? parseUsDate(toText) : Math.floor(ctx.time.clock.now() / 86_400_000) * 86_400_000;
  if (toDay === null) return respond.error(400, `toDate must be MM-DD-YYYY: ${(toText ?? '').slice(0, 40)}`);
  const to = toDay + 86_400_000;
  const me = u.username.toLowerCase();
  const commissionPaid: Record<string, number>[] = [];
  for (const player of ctx.accounts.all()) {
    if (player.referrer === null || player.referrer.toLowerCase() !== me) continue;
    commissionPaid.push({ [player.username]: roundMoney(ctx.engine.feesSettled(player.id, from, to)) });
  }
  return respond.top({ commissionPaid });
}
