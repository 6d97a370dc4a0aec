import type { ScenarioInput } from '../../src/sim/market/scenario.ts';

/**
 * The synthetic market of the memory run: the built-in traders and pace over `games`
 * concurrent games (200 by default) in the six leagues the example strategies quote, each
 * replaced when it ends, so a run of several market hours lists, trades, settles and
 * forgets many more games than are open at any moment. It opens `underway`: a market of
 * 200 concurrent games has some in play and some ending at any moment, so the run measures
 * that steady market rather than a schedule filling up (with a `fresh` opening every game
 * is pre-game at first and the number in play climbs for some four hours).
 */
export function memoryScenario(games = 200): ScenarioInput {
  const shares = [
    ['NBA', 'basketball', 0.2],
    ['NFL', 'football', 0.15],
    ['NHL', 'hockey', 0.15],
    ['MLB', 'baseball', 0.15],
    ['EPL', 'soccer', 0.2],
    ['MLS', 'soccer', 0.15],
  ] as const;
  let left = games;
  const leagues = shares.map(([league, sport, share], i) => {
    const n = i === shares.length - 1 ? left : Math.max(1, Math.round(games * share));
    left -= n;
    return { league, sport, games: Math.max(1, n) };
  });
  return {
    name: `memory-${games}`,
    opening: 'underway',
    description: `${games} concurrent games in six leagues, the built-in traders and pace (bench/memory.bench.ts)`,
    leagues,
  };
}
