import type { ResultRecord, ResultSide } from './format.ts';

export type GameResult = Omit<ResultRecord['d'], 'via'>;

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The payload of a `["gameUpdate", {...}]` frame, or null for any other frame. */
export function gameUpdatePayload(frame: unknown): Loose | null {
  if (!Array.isArray(frame) || frame[0] !== 'gameUpdate') return null;
  const payload: unknown = frame[1];
  return isObject(payload) ? payload : null;
}

/** An ended game without both scores: the recorder reads it back over REST to learn them. */
export function endedWithoutScore(game: unknown): string | null {
  if (!isObject(game) || game['ended'] !== true || typeof game['id'] !== 'string') return null;
  return resultOf(game) === null ? game['id'] : null;
}

/**
 * The final score of a game payload (gameUpdate or orderbook game): ended, with a numeric
 * `score` on both participants. Sides are taken from `homeAway`; a payload without it
 * follows the contract's order, away first.
 */
export function resultOf(game: unknown): GameResult | null {
  if (!isObject(game) || game['ended'] !== true || typeof game['id'] !== 'string') return null;
  const participants = game['participants'];
  if (!Array.isArray(participants) || participants.length !== 2) return null;
  const [first, second] = participants as unknown[];
  const a = side(first);
  const b = side(second);
  if (!a || !b) return null;
  const firstIsHome = isObject(first) && first['homeAway'] === 'home';
  const [away, home] = firstIsHome ? [b, a] : [a, b];
  return {
    gameID: game['id'],
    league: typeof game['league'] === 'string' ? game['league'] : null,
    sport: typeof game['sport'] === 'string' ? game['sport'] : null,
    away,
    home,
  };
}

function side(p: unknown): ResultSide | null {
  if (!isObject(p) || typeof p['id'] !== 'string' || typeof p['score'] !== 'number' || !Number.isFinite(p['score']))
    return null;
  const name =
    typeof p['longName'] === 'string' ? p['longName'] : typeof p['shortName'] === 'string' ? p['shortName'] : null;
  return { id: p['id'], name, score: p['score'] };
}
