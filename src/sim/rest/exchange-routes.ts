import { z } from 'zod';
import type { EngineGame } from '../../engine/types.ts';
import type { SimContext } from '../context.ts';
import { respond } from '../http/types.ts';
import type { RegisterDeps } from '../register.ts';
import { renderGame } from '../render/game.ts';
import { renderOrderbookV1, renderOrderbookV2 } from './orderbook.ts';
import { gamesQuery, leaguesQuery, orderbookQuery, orderbookV1Body, participantsQuery } from './schemas.ts';

/** In-play leagues that do not make the `LIVE` alias appear (exchange-api §4.11). */
const LIVE_EXCLUDED = new Set(['NFL-LIVE', 'NBA-LIVE', 'NCAAF-LIVE', 'NCAAB-LIVE']);
/** Sports whose league list ends with the `all` alias. */
const ALL_SPORTS = new Set(['soccer', 'golf']);

const byStart = (a: EngineGame, b: EngineGame) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The league codes of the games still on the board (not ended), sorted, with the `all` and
 * `LIVE` aliases of exchange-api §4.11.
 */
export function availableLeagues(games: readonly EngineGame[], sport: string | undefined): string[] {
  const wanted = sport?.toLowerCase();
  const leagues = new Set<string>();
  for (const g of games) {
    if (g.ended) continue;
    if (wanted !== undefined && g.sport.toLowerCase() !== wanted) continue;
    leagues.add(g.league);
  }
  const out = [...leagues].sort();
  if (wanted !== undefined && ALL_SPORTS.has(wanted) && !leagues.has('all')) out.push('all');
  if (!leagues.has('LIVE') && out.some((l) => l.toUpperCase().includes('LIVE') && !LIVE_EXCLUDED.has(l.toUpperCase())))
    out.push('LIVE');
  return out;
}

/**
 * The games a league name selects, case-insensitively, among games not ended: the games of
 * that league if any exist; otherwise the aliases `upcoming` (every league, not started
 * yet), `LIVE` (every in-play game) and `all` (every game).
 */
export function gamesOfLeague(ctx: SimContext, league: string | undefined): EngineGame[] {
  const now = ctx.time.clock.now();
  const board = ctx.engine.games().filter((g) => !g.ended);
  if (league === undefined) return board.sort(byStart);
  const wanted = league.toLowerCase();
  const exact = board.filter((g) => g.league.toLowerCase() === wanted);
  if (exact.length > 0) return exact.sort(byStart);
  switch (wanted) {
    case 'upcoming':
      return board.filter((g) => !g.live && !g.started && g.start > now).sort(byStart);
    case 'live':
      return board.filter((g) => g.live).sort(byStart);
    case 'all':
      return board.sort(byStart);
    default:
      return [];
  }
}

export function registerExchangeRoutes({ ctx, router }: RegisterDeps): void {
  const usernameOf = (userId: string) => ctx.accounts.get(userId)?.username ?? userId;

  router.declare({
    method: 'GET',
    path: '/exchange/getLeagues',
    auth: 'bearer',
    summary: 'League codes of the games on the board, with the all and LIVE aliases',
    query: leaguesQuery,
    response: z.object({ data: z.object({ availableLeagues: z.array(z.string()) }) }),
    handler: (_req, { query }) => respond.data({ availableLeagues: availableLeagues(ctx.engine.games(), query.sport) }),
  });

  router.declare({
    method: 'GET',
    path: '/exchange/getParticipants',
    auth: 'bearer',
    summary: 'Participants of the games, deduplicated',
    query: participantsQuery,
    handler: (_req, { query }) => {
      const now = ctx.time.clock.now();
      const seen = new Set<string>();
      const participants: {
        participantID: string;
        longName: string;
        shortName: string;
        league: string;
        sport: string;
      }[] = [];
      for (const g of ctx.engine.games().sort(byStart)) {
        if (query.active && !(g.start > now && !g.ended)) continue;
        for (const p of g.participants) {
          if (seen.has(p.id)) continue;
          seen.add(p.id);
          participants.push({
            participantID: p.id,
            longName: p.longName,
            shortName: p.shortName,
            league: g.league,
            sport: g.sport,
          });
        }
      }
      return respond.data({ participants });
    },
  });

  router.declare({
    method: 'GET',
    path: '/exchange/v2/getGames',
    auth: 'bearer',
    summary: 'Games of a league or alias (upcoming, LIVE, all), without prices',
    query: gamesQuery,
    handler: (_req, { query }) => respond.data({ games: gamesOfLeague(ctx, query.league).map((g) => renderGame(g)) }),
  });

  router.declare({
    method: 'GET',
    path: '/exchange/v2/getOrderbook',
    auth: 'bearer',
    summary: 'Flat orderbook of one game or a league',
    query: orderbookQuery,
    handler: (req, { query }) => {
      const { gameID, league } = query;
      let games: EngineGame[];
      if (gameID !== undefined) {
        const g = ctx.engine.game(gameID);
        games = g ? [g] : [];
      } else {
        games = gamesOfLeague(ctx, league);
      }
      const viewerId = req.user?.id ?? null;
      return respond.data({
        games: games.map((g) => renderOrderbookV2(ctx.engine, g, { viewerId, usernameOf, omitNullParticipant: true })),
      });
    },
  });

  // Deprecated v1 (exchange-api §4.4): nested collections, `market` always null.
  router.declare({
    method: 'POST',
    path: '/exchange/getOrderbook',
    auth: 'bearer',
    summary: 'Nested orderbook of a league (deprecated)',
    deprecated: true,
    body: orderbookV1Body,
    handler: (req, { body }) => {
      const viewerId = req.user?.id ?? null;
      const games = gamesOfLeague(ctx, body.leagueRequested).map((g) =>
        renderOrderbookV1(ctx.engine, g, { viewerId, usernameOf, omitNullParticipant: true }),
      );
      return respond.data({ market: null, games });
    },
  });
}
