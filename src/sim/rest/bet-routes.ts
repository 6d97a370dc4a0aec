import type { BetView, EngineGame, GradeVersion } from '../../engine/types.ts';
import { isObjectId } from '../../engine/ids.ts';
import { roundMoney, toCents } from '../../money/rounding.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import type { RegisterDeps } from '../register.ts';
import { renderGradedRow, renderMatchedBet, type WireGradedRow } from '../render/bets.ts';
import { iso } from '../render/time.ts';
import { decodeCursor, encodeCursor, pageOf, parseIsoInstant, positionAfter } from './graded-cursor.ts';

/** Widest explicit window of the date-window graded endpoints (exchange-api §8). */
export const MAX_GRADED_WINDOW_MS = 35 * 86_400_000;
/** Default `fromDate` of getAffiliateCommission. */
export const AFFILIATE_DEFAULT_FROM = '08-02-2021';

/**
 * Bet reads: open bets, game liability, graded rows by date window and by cursor, and
 * affiliate commission (exchange-api §4.8, §4.12-4.16).
 */
export function registerBetRoutes({ ctx, router }: RegisterDeps): void {
  const stakes = trackOrderStakes(ctx);
  router.add('GET', '/user/getMatchedBets', 'bearer', (req) => matchedBets(ctx, stakes, user(req)));
  router.add('GET', '/user/getGameLiability', 'bearer', (req) => gameLiability(ctx, req));
  for (const path of ['/user/v2/getGraded', '/user/getGradedWagers']) {
    router.add(['GET', 'POST'], path, 'raw', (req) => gradedWindow(ctx, req), 'graded');
  }
  router.add(['GET', 'POST'], '/user/v2/getGradedSince', 'raw', (req) => gradedSince(ctx, req), 'gradedSince');
  router.add('GET', '/affiliate/getAffiliateCommission', 'bearer', (req) => affiliateCommission(ctx, req));
}

function user(req: SimRequest): SimUser {
  if (!req.user) throw new Error(`authenticated route ${req.path} without a user`);
  return req.user;
}

/**
 * Original stake of every order that has open bets, remembered at fill time: the engine
 * forgets closed orders after its retention period while their bets stay open until
 * settlement. Entries go once the order's bets are graded.
 */
function trackOrderStakes(ctx: SimContext): Map<string, number> {
  const stakes = new Map<string, number>();
  const unsubscribe = ctx.engine.onEvent((e) => {
    if (e.kind === 'fill') {
      stakes.set(e.fill.maker.orderId, e.fill.makerOrderAfter.bet);
      const taker = ctx.engine.order(e.fill.taker.orderId);
      if (taker) stakes.set(taker.id, taker.bet);
    } else if (e.kind === 'betGraded') {
      stakes.delete(e.bet.orderId);
    }
  });
  ctx.hooks.onClose.push(unsubscribe);
  return stakes;
}

// ---------------------------------------------------------------- open bets

function matchedBets(ctx: SimContext, stakes: ReadonlyMap<string, number>, u: SimUser): SimResponse {
  const open: { bet: BetView; game: EngineGame; i: number }[] = [];
  ctx.engine.bets(u.id).forEach((bet, i) => {
    if (bet.grade !== null) return;
    const game = ctx.engine.game(bet.gameId);
    if (game) open.push({ bet, game, i });
  });
  open.sort((a, b) => a.game.start - b.game.start || a.i - b.i);
  const matchedBets = open.map(({ bet, game }) => renderMatchedBet(game, bet, stakes.get(bet.orderId) ?? ctx.engine.order(bet.orderId)?.bet));
  return respond.data({ matchedBets });
}

function gameLiability(ctx: SimContext, req: SimRequest): SimResponse {
  const gameID = req.query.get('gameID');
  if (gameID === null || gameID === '') return respond.error(400, 'gameID is required');
  if (!isObjectId(gameID)) return respond.error(400, 'invalid gameID format: expected a 24-character hex id');
  const liability = ctx.engine.gameLiability(user(req).id, gameID);
  return respond.data({ liability: liability === 0 ? 0 : Math.min(0, liability) });
}

// ---------------------------------------------------------------- parameters

type Params = { readonly ok: true; readonly get: (name: string) => string | undefined } | { readonly ok: false; readonly response: SimResponse };

/**
 * Parameters from the query string, overridden by a JSON body on POST. Empty values count
 * as absent; a non-string body value is a 400.
 */
function paramsOf(req: SimRequest, names: readonly string[]): Params {
  const values = new Map<string, string>();
  for (const name of names) {
    const q = req.query.get(name);
    if (q !== null && q !== '') values.set(name, q);
  }
  if (req.method === 'POST' && req.body !== undefined) {
    if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
      return { ok: false, response: respond.error(400, 'body must be a JSON object') };
    }
    const body = req.body as Record<string, unknown>;
    for (const name of names) {
      const v = body[name];
      if (v === undefined || v === null || v === '') continue;
      if (typeof v !== 'string') return { ok: false, response: respond.error(400, `${name} must be a string`) };
      values.set(name, v);
    }
  }
  return { ok: true, get: (name) => values.get(name) };
}

type Instant = { readonly ok: true; readonly ms: number | undefined } | { readonly ok: false; readonly response: SimResponse };

function isoParam(value: string | undefined, name: string): Instant {
  if (value === undefined) return { ok: true, ms: undefined };
  const ms = parseIsoInstant(value);
  return ms === null ? { ok: false, response: respond.error(400, `${name} must be an ISO 8601 date or date-time`) } : { ok: true, ms };
}

// ---------------------------------------------------------------- graded by window

/**
 * getGraded / getGradedWagers: the latest version of each of the caller's graded bets on
 * games that START in [startDate, endDate). `endDate` is this simulator's name for the
 * contract's unnamed end parameter; it defaults to now. Without `startDate` the window is
 * the whole history up to the end; with it, a window wider than 35 days is a 400.
 */
function gradedWindow(ctx: SimContext, req: SimRequest): SimResponse {
  const params = paramsOf(req, ['startDate', 'endDate']);
  if (!params.ok) return params.response;
  const start = isoParam(params.get('startDate'), 'startDate');
  if (!start.ok) return start.response;
  const end = isoParam(params.get('endDate'), 'endDate');
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
  for (const bet of ctx.engine.bets(user(req).id)) {
    if (bet.grade === null) continue;
    const game = ctx.engine.game(bet.gameId);
    if (!game || game.start < from || game.start >= to) continue;
    rows.push({ row: renderGradedRow(game, bet, bet.grade), grade: bet.grade });
    pnlCents += toCents(bet.grade.result);
    volume += bet.money.amount;
  }
  rows.sort((a, b) => a.grade.seq - b.grade.seq);
  return respond.data({ graded: rows.map((r) => r.row), summary: { pnl: pnlCents / 100 + 0, volume: roundMoney(volume) } });
}

// ---------------------------------------------------------------- graded by cursor

/**
 * getGradedSince (exchange-api §4.15): the caller's grade log walked in settlement order,
 * 100 rows a page. A regrade or refund appends newer versions of the same txID, so they
 * reappear later in the walk. Without `since` and `cursor` the walk starts at the
 * beginning of the log. The log holds what the settled-game retention keeps.
 */
function gradedSince(ctx: SimContext, req: SimRequest): SimResponse {
  const params = paramsOf(req, ['since', 'cursor']);
  if (!params.ok) return params.response;
  const sinceText = params.get('since');
  const cursorText = params.get('cursor');
  if (sinceText !== undefined && cursorText !== undefined) return respond.error(400, 'since and cursor are mutually exclusive');
  const u = user(req);
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
  const graded = renderGrades(ctx, page.rows);
  return respond.data({ graded, hasMore: page.hasMore, cursor, settledThrough: iso(page.settledThrough) });
}

/** Rows for grade versions, loading each game's bets once. */
function renderGrades(ctx: SimContext, grades: readonly GradeVersion[]): WireGradedRow[] {
  const betsByGame = new Map<string, Map<string, BetView>>();
  const out: WireGradedRow[] = [];
  for (const grade of grades) {
    let bets = betsByGame.get(grade.gameId);
    if (!bets) {
      bets = new Map(ctx.engine.betsOfGame(grade.gameId).map((b) => [b.id, b]));
      betsByGame.set(grade.gameId, bets);
    }
    const bet = bets.get(grade.betId);
    if (!bet) {
      ctx.log.error({ betId: grade.betId }, 'graded bet not found');
      continue;
    }
    out.push(renderGradedRow(ctx.engine.game(grade.gameId), bet, grade));
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
function affiliateCommission(ctx: SimContext, req: SimRequest): SimResponse {
  const fromText = req.query.get('fromDate') || AFFILIATE_DEFAULT_FROM;
  const from = parseUsDate(fromText);
  if (from === null) return respond.error(400, `fromDate must be MM-DD-YYYY: ${fromText.slice(0, 40)}`);
  const toText = req.query.get('toDate');
  const toDay = toText ? parseUsDate(toText) : Math.floor(ctx.time.clock.now() / 86_400_000) * 86_400_000;
  if (toDay === null) return respond.error(400, `toDate must be MM-DD-YYYY: ${(toText ?? '').slice(0, 40)}`);
  const to = toDay + 86_400_000;
  const me = user(req).username.toLowerCase();
  const commissionPaid: Record<string, number>[] = [];
  for (const player of ctx.accounts.all()) {
    if (player.referrer === null || player.referrer.toLowerCase() !== me) continue;
    commissionPaid.push({ [player.username]: roundMoney(ctx.engine.feesSettled(player.id, from, to)) });
  }
  return respond.top({ commissionPaid });
}
