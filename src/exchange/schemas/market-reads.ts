import { z } from 'zod';
import { Id, opt } from './common.ts';
import { OrderbookV1Game } from './exchange.ts';
import { Game } from './game.ts';

/** getSingleOrderbook: one game as the v1 orderbook nests it, with its child and prop games. */
export const SingleOrderbook = z.object({
  game: OrderbookV1Game,
  orderSummary: z.array(z.unknown()).default([]),
  childGames: z.array(OrderbookV1Game).default([]),
  propGames: z.array(OrderbookV1Game).default([]),
});
export type SingleOrderbook = z.output<typeof SingleOrderbook>;

const line = z.union([z.number(), z.string()]).nullish();

/** One game of getOddsForAveragePrice: no collections, main lines and the `odds` block. */
export const AveragePriceGame = Game.extend({
  id: Id,
  matchedVolume: opt(z.number()),
  mainHomeSpread: line,
  mainAwaySpread: line,
  mainTotal: line,
  // Best, average, commission-adjusted and limit prices (null where a side is empty), the
  // main lines again, and max bet sizes.
  odds: z.record(z.string(), z.union([z.number(), z.string()]).nullable()),
});
export type AveragePriceGame = z.output<typeof AveragePriceGame>;

/** Top level, no `data` wrapper (exchange-api §1.2). */
export const AveragePriceResponse = z.object({ games: z.array(AveragePriceGame) });

/** getMatchedVolume: sitewide, both sides' stakes, over US-Eastern days. */
export const MatchedVolume = z.object({ startDate: z.string(), endDate: z.string(), matchedVolume: z.number() });
export type MatchedVolume = z.output<typeof MatchedVolume>;
