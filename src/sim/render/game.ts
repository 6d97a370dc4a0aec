import type { EngineGame } from '../../engine/types.ts';
import { iso } from './time.ts';

export interface WireParticipant {
  id: string;
  longName: string;
  shortName: string;
  homeAway: 'home' | 'away';
  futuresSide?: string;
  rotationNumber?: string;
  score?: number;
}

export interface WireGame {
  id: string;
  isSpecials: boolean;
  eventName?: string;
  tournamentName: string | null;
  periodName: string;
  league: string;
  sport: string;
  live: boolean;
  ended: boolean;
  parentGameID: string | null;
  start: string;
  participants: [WireParticipant, WireParticipant];
  isFutures?: boolean;
}

/** A game as the contract embeds it (exchange-api §2.1): away participant first, then home. */
export function renderGame(
  g: EngineGame,
  options: { withFutures?: boolean; withFuturesSide?: boolean } = {},
): WireGame {
  const [away, home] = g.participants;
  const participant = (p: typeof away, homeAway: 'home' | 'away'): WireParticipant => {
    const out: WireParticipant = { id: p.id, longName: p.longName, shortName: p.shortName, homeAway };
    if (options.withFuturesSide) out.futuresSide = homeAway;
    if (p.rotationNumber !== undefined) out.rotationNumber = p.rotationNumber;
    if (g.score) out.score = homeAway === 'home' ? g.score.home : g.score.away;
    return out;
  };
  const out: WireGame = {
    id: g.id,
    isSpecials: g.isSpecials,
    tournamentName: g.tournamentName,
    periodName: g.periodName,
    league: g.league,
    sport: g.sport,
    live: g.live,
    ended: g.ended,
    parentGameID: g.parentGameID,
    start: iso(g.start),
    participants: [participant(away, 'away'), participant(home, 'home')],
  };
  if (g.eventName !== undefined) out.eventName = g.eventName;
  if (options.withFutures) out.isFutures = false;
  return out;
}
