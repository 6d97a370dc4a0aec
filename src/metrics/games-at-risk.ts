import type { Runtime } from '../runtime/runtime.ts';

/** A game where our projected worst case is a loss, as the status panel and the dashboard list it. */
export interface GameAtRisk {
  readonly gameID: string;
  /** League and teams when the model knows the game, else its id. */
  readonly name: string;
  /** Projected worst case, resting orders included (< 0). */
  readonly worstCase: number;
}

/** Every game whose projected worst case is a loss, worst first (ties by id, so the order is stable). */
export function gamesAtRisk(r: Runtime): GameAtRisk[] {
  const games: GameAtRisk[] = [];
  for (const g of r.own.gameIDs()) {
    const worstCase = r.own.projectedLiability(g);
    if (worstCase >= 0) continue;
    const game = r.market.game(g);
    games.push({
      gameID: g,
      name: game ? `${game.league} ${game.participants.awayName} @ ${game.participants.homeName}` : g,
      worstCase,
    });
  }
  return games.sort((a, b) => a.worstCase - b.worstCase || (a.gameID < b.gameID ? -1 : 1));
}
