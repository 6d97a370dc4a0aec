import type { GameState } from '../market-model/types.ts';
import { fromProbability, impliedProbability } from '../odds/american.ts';
import type { LivePolicy, QuoteIntent } from '../strategy/types.ts';

/**
 * Whether a game is in play at `now`: flagged live, or past its start time. The exchange's
 * live flag may come well after the start, while the game is already being played and the
 * exchange has expired the orders placed before it; a quote placed again in that gap would
 * rest in play under a policy that pulls. A game whose start is unknown (NaN) goes by its flag.
 */
export function inPlay(game: Pick<GameState, 'live' | 'start'>, now: number): boolean {
  return game.live || game.start <= now;
}

/**
 * A strategy's intents as its live policy allows them on this game at `now`. Resting quotes
 * never survive the end of a game. `widen` asks a lower win probability of every resting quote
 * (a better price for us, a worse one for takers), since in play a crossing order waits the
 * league delay while the score moves.
 */
export function applyLivePolicy(
  policy: LivePolicy,
  game: GameState,
  intents: readonly QuoteIntent[],
  now: number,
): readonly QuoteIntent[] {
  if (game.ended) return [];
  if (policy.kind === 'keep' || !inPlay(game, now)) return intents;
  if (policy.kind === 'pull') return [];
  return intents.map((i) => {
    const p = impliedProbability(i.odds) - policy.probabilityPoints;
    return p > 0.005 && p < 0.995 ? { ...i, odds: fromProbability(p, 'higher-payout') } : i;
  });
}
