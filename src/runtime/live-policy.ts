import type { GameState } from '../market-model/types.ts';
import { fromProbability, impliedProbability } from '../odds/american.ts';
import type { LivePolicy, QuoteIntent } from '../strategy/types.ts';

/**
 * A strategy's intents as its live policy allows them on this game. Resting quotes never
 * survive the end of a game. `widen` asks a lower win probability of every resting quote
 * (a better price for us, a worse one for takers), since in play a crossing order waits the
 * league delay while the score moves.
 */
export function applyLivePolicy(
  policy: LivePolicy,
  game: GameState,
  intents: readonly QuoteIntent[],
): readonly QuoteIntent[] {
  if (game.ended) return [];
  if (!game.live || policy.kind === 'keep') return intents;
  if (policy.kind === 'pull') return [];
  return intents.map((i) => {
    const p = impliedProbability(i.odds) - policy.probabilityPoints;
    return p > 0.005 && p < 0.995 ? { ...i, odds: fromProbability(p, 'higher-payout') } : i;
  });
}
