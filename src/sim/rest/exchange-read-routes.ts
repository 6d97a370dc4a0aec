import { z } from 'zod';
import { isObjectId } from '../../engine/ids.ts';
import { roundMoney } from '../../money/rounding.ts';
import { respond } from '../http/types.ts';
import type { RegisterDeps } from '../register.ts';
import { renderUnmatchedOrder } from '../render/orders.ts';
import { renderAveragePriceGame } from './average-price.ts';
import { gamesOfLeague } from './exchange-routes.ts';
import { etDay, isCalendarDay, MatchedVolumeByDay } from './matched-volume.ts';
import { renderOrderbookV1 } from './orderbook.ts';
import { requiredString } from './schemas.ts';
import { userOf } from './user-of.ts';

/** A US-Eastern calendar day, `YYYY-MM-DD`, that exists. */
function calendarDay(field: string) {
  return requiredString(field)
    .refine(isCalendarDay, { error: `${field} must be a date, YYYY-MM-DD` })
    .meta({ format: 'date' });
}

/**
 * Market reads of the published API (feeds-and-semantics §9; shapes from the exchange's
 * OpenAPI description): one game's nested orderbook, best and average prices of a league,
 * and sitewide matched volume by US-Eastern day.
 */
export function registerExchangeReadRoutes({ ctx, router }: RegisterDeps): void {
  const usernameOf = (userId: string) => ctx.accounts.get(userId)?.username ?? userId;
  const volume = MatchedVolumeByDay.track(ctx);

  // The game as the v1 orderbook nests it, its child games (specials as props), and the
  // caller's own resting orders in the game's league.
  router.declare({
    method: 'GET',
    path: '/exchange/getSingleOrderbook',
    auth: 'bearer',
    summary: "One game as the v1 orderbook nests it, its child and prop games, and the caller's orders in its league",
    query: z.object({ gameID: requiredString('gameID') }),
    handler: (req, { query }) => {
      const gameID = query.gameID;
      const game = isObjectId(gameID) ? ctx.engine.game(gameID) : undefined;
      if (!game) return respond.error(400, 'invalid gameID: no such game');
      const viewerId = userOf(req).id;
      // As the other REST orderbooks: the published orderbook order has participantID as a
      // string, so it is left out where no participant is backed (a renderer without the
      // option ignores it).
      const options = { viewerId, usernameOf, omitNullParticipant: true };
      const render = (g: typeof game) => renderOrderbookV1(ctx.engine, g, options);
      const children = ctx.engine.games().filter((g) => g.parentGameID === game.id && !g.ended);
      const orderSummary = ctx.engine
        .openOrders(viewerId)
        .filter((o) => ctx.engine.game(o.gameID)?.league === game.league)
        .map((o) => renderUnmatchedOrder(ctx.engine, o));
      return respond.data({
        game: render(game),
        orderSummary,
        childGames: children.filter((g) => !g.isSpecials).map(render),
        propGames: children.filter((g) => g.isSpecials).map(render),
      });
    },
  });

  // Top level, no data wrapper (exchange-api §1.2).
  router.declare({
    method: 'GET',
    path: '/exchange/getOddsForAveragePrice',
    auth: 'bearer',
    summary: "Best and average prices of every game of one league (case-insensitive), after the caller's commission",
    query: z.object({ leagueRequested: requiredString('leagueRequested') }),
    handler: (req, { query }) => {
      const rate = ctx.engine.account(userOf(req).id)?.commissionRate ?? 0;
      return respond.top({
        games: gamesOfLeague(ctx, query.leagueRequested).map((g) => renderAveragePriceGame(ctx.engine, g, rate)),
      });
    },
  });

  router.declare({
    method: 'GET',
    path: '/exchange/getMatchedVolume',
    auth: 'bearer',
    summary: 'Sitewide matched volume over US-Eastern days startDate to endDate, inclusive (later days clamp to today)',
    query: z.object({ startDate: calendarDay('startDate'), endDate: calendarDay('endDate') }),
    response: z.object({ data: z.object({ startDate: z.string(), endDate: z.string(), matchedVolume: z.number() }) }),
    handler: (_req, { query }) => {
      const { startDate, endDate } = query;
      if (endDate < startDate) return respond.error(400, 'endDate must not be before startDate');
      const today = etDay(ctx.time.clock.now());
      const to = endDate > today ? today : endDate;
      return respond.data({ startDate, endDate, matchedVolume: roundMoney(volume.between(startDate, to)) });
    },
  });
}
