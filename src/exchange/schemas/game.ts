import { z } from 'zod';
import { Id, IsoString, opt } from './common.ts';

/** exchange-api §2.2. Fields the contract marks required in some responses only are optional here. */
export const Participant = z.object({
  id: Id,
  longName: z.string(),
  shortName: z.string(),
  homeAway: z.enum(['home', 'away']),
  futuresSide: opt(z.string()),
  mainPitcher: opt(z.string()),
  score: opt(z.number()),
  rotationNumber: opt(z.string()),
});
export type Participant = z.output<typeof Participant>;

/** exchange-api §2.1: a game as embedded in responses; away participant first, then home. */
export const Game = z.object({
  id: Id,
  isSpecials: z.boolean().optional(),
  eventName: opt(z.string()),
  tournamentName: opt(z.string()),
  periodName: opt(z.string()),
  league: z.string(),
  sport: z.string(),
  live: z.boolean().optional(),
  ended: opt(z.boolean()),
  parentGameID: opt(z.string()),
  start: opt(IsoString),
  participants: z.array(Participant).length(2),
  isFutures: opt(z.boolean()),
});
export type Game = z.output<typeof Game>;

/** In graded rows, a game that could not be loaded (exchange-api §2.1). */
export const GameLoadError = z.object({ _id: z.string(), error: z.string() });
export type GameLoadError = z.output<typeof GameLoadError>;
