import { isObjectId } from '../../engine/ids.ts';
import { roundMoney } from '../../money/rounding.ts';
import { respond, type SimRequest } from '../http/types.ts';
import type { RegisterDeps } from '../register.ts';
import { renderUnmatchedOrder } from '../render/orders.ts';
import { renderAveragePriceGame } from './average-price.ts';
import { gamesOfLeague } from './exchange-routes.ts';
import { etDay, isCalendarDay, MatchedVolumeByDay } from './matched-volume.ts';
import { renderOrderbookV1 } from './orderbook.ts';
import { userOf } from './user-of.ts';

const param = (req: SimRequest, name: string): string | undefined => req.query.get(name) || undefined;

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
  router.add('GET', '/exchange/getSingleOrderbook', 'bearer', (req) => {
    const gameID = param(req, 'gameID');
    if (gameID === undefined) return respond.error(400, 'gameID is required');
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
      .filter((o) => ctx.engine.game(o.gameId)?.league === game.league)
      .map((o) => renderUnmatchedOrder(ctx.engine, o));
    return respond.data({
      game: render(game),
      orderSummary,
      childGames: children.filter((g) => !g.isSpecials).map(render),
      propGames: children.filter((g) => g.isSpecials).map(render),
    });
  });

  // Top level, no data wrapper (exchange-api §1.2).
  router.add('GET', '/exchange/getOddsForAveragePrice', 'bearer', (req) => {
    const league = param(req, 'leagueRequested');
    if (league === undefined) return respond.error(400, 'leagueRequested is required');
    const rate = ctx.engine.account(userOf(req).id)?.commissionRate ?? 0;
    return respond.top({ games: gamesOfLeague(ctx, league).map((g) => renderAveragePriceGame(ctx.engine, g, rate)) });
  });

  router.add('GET', '/exchange/getMatchedVolume', 'bearer', (req) => {
    const startDate = param(req, 'startDate');
    const endDate = param(req, 'endDate');
    if (startDate === undefined || endDate === undefined) return respond.error(400, 'startDate and endDate are required (YYYY-MM-DD)');
    if (!isCalendarDay(startDate)) return respond.error(400, 'startDate must be a date, YYYY-MM-DD');
    if (!isCalendarDay(endDate)) return respond.error(400, 'endDate must be a date, YYYY-MM-DD');
    if (endDate < startDate) return respond.error(400, 'endDate must not be before startDate');
    const today = etDay(ctx.time.clock.now());
    const to = endDate > today ? today : endDate;
    return respond.data({ startDate, endDate, matchedVolume: roundMoney(volume.between(startDate, to)) });
  });
}
