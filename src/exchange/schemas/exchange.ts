import { z } from 'zod';
import { BookOrder, bookFields } from './book-order.ts';
import { Id, opt } from './common.ts';
import { Game } from './game.ts';

export { BookOrder };

const books = z.array(BookOrder).default([]);

/** feeds-and-semantics §7: a v2 orderbook game, flat collections sorted best price first. */
export const OrderbookGame = Game.extend(bookFields(books));
export type OrderbookGame = z.output<typeof OrderbookGame>;
export const OrderbookResponse = z.object({ games: z.array(OrderbookGame) });

const keyed = z.record(z.string(), z.array(BookOrder)).default({});

/** exchange-api §2.9: the deprecated v1 nested game. */
export const OrderbookV1Game = Game.extend({
  cheapDataUID: opt(z.string()),
  featured: opt(z.boolean()),
  homeMoneylines: books,
  awayMoneylines: books,
  homeSpreads: keyed,
  awaySpreads: keyed,
  over: keyed,
  under: keyed,
  homeMoneylines1x2: keyed,
  awayMoneylines1x2: keyed,
  draw1x2: keyed,
  mainHomeSpread: z.unknown().optional(),
  mainAwaySpread: z.unknown().optional(),
  mainTotal: z.unknown().optional(),
  openInterest: opt(z.number()),
  matchedVolume: opt(z.number()),
});
export type OrderbookV1Game = z.output<typeof OrderbookV1Game>;
export const OrderbookV1Response = z.object({ market: z.unknown(), games: z.array(OrderbookV1Game) });

export const GamesResponse = z.object({ games: z.array(Game) });

export const ParticipantListEntry = z.object({ participantID: Id, longName: z.string(), shortName: z.string(), league: z.string(), sport: z.string() });
export type ParticipantListEntry = z.output<typeof ParticipantListEntry>;
export const ParticipantsResponse = z.object({ participants: z.array(ParticipantListEntry) });

export const LeaguesResponse = z.object({ availableLeagues: z.array(z.string()) });
