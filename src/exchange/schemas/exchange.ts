import { z } from 'zod';
import { BookOrder, bookFields, FlatBookCollection } from './book-order.ts';
import { Id, opt } from './common.ts';
import { Game } from './game.ts';

export { BookOrder };

/**
 * feeds-and-semantics §7: a v2 orderbook game, flat collections sorted best price first. A
 * collection keyed by the line (feeds §8) is read too; either way it comes out a flat list.
 */
export const OrderbookGame = Game.extend(bookFields(FlatBookCollection));
export type OrderbookGame = z.output<typeof OrderbookGame>;
export const OrderbookResponse = z.object({ games: z.array(OrderbookGame) });

/**
 * exchange-api §2.9: the deprecated v1 nested game. Its spread, total and 1x2 collections
 * are keyed by the line, its moneylines flat; any of them is read in either form and comes
 * out a flat list, the same internal form as the v2 game's.
 */
export const OrderbookV1Game = Game.extend({
  ...bookFields(FlatBookCollection),
  cheapDataUID: opt(z.string()),
  featured: opt(z.boolean()),
  mainHomeSpread: z.unknown().optional(),
  mainAwaySpread: z.unknown().optional(),
  mainTotal: z.unknown().optional(),
});
export type OrderbookV1Game = z.output<typeof OrderbookV1Game>;
export const OrderbookV1Response = z.object({ market: z.unknown(), games: z.array(OrderbookV1Game) });

export const GamesResponse = z.object({ games: z.array(Game) });

export const ParticipantListEntry = z.object({
  participantID: Id,
  longName: z.string(),
  shortName: z.string(),
  league: z.string(),
  sport: z.string(),
});
export type ParticipantListEntry = z.output<typeof ParticipantListEntry>;
export const ParticipantsResponse = z.object({ participants: z.array(ParticipantListEntry) });

export const LeaguesResponse = z.object({ availableLeagues: z.array(z.string()) });
