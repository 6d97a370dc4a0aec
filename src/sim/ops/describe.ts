import type { EngineGame, OrderView } from '../../engine/types.ts';

/** A team's name on the game, or the team's role when the game is unknown. */
function teamName(game: EngineGame | undefined, team: 'home' | 'away'): string {
  return game ? (team === 'away' ? game.participants[0].longName : game.participants[1].longName) : team;
}

/**
 * Human label of an order, as cancel results carry it: "Celtics -3.5 @ -110", "over 209.5 @ +104".
 * No closure inside: tsx names each closure made per call, which cost more than the spelling.
 */
export function describeOrder(game: EngineGame | undefined, o: OrderView): string {
  const odds = `${o.odds > 0 ? '+' : ''}${o.odds}`;
  const s = o.selection;
  switch (s.type) {
    case 'moneyline':
      return `${teamName(game, s.team)} moneyline @ ${odds}`;
    case 'spread':
      return `${teamName(game, s.team)} ${s.line > 0 ? '+' : ''}${s.line} @ ${odds}`;
    case 'total':
      return `${s.ou} ${s.line} @ ${odds}`;
    case 'moneyline1x2':
      return `${s.yes ? '' : 'not '}${s.outcome === 'draw' ? 'draw' : teamName(game, s.outcome)} (1x2) @ ${odds}`;
  }
}
