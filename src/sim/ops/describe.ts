import type { EngineGame, OrderView } from '../../engine/types.ts';

/** Human label of an order, as cancel results carry it: "Celtics -3.5 @ -110", "over 209.5 @ +104". */
export function describeOrder(game: EngineGame | undefined, o: OrderView): string {
  const odds = `${o.odds > 0 ? '+' : ''}${o.odds}`;
  const s = o.selection;
  const name = (team: 'home' | 'away') =>
    game ? (team === 'away' ? game.participants[0].longName : game.participants[1].longName) : team;
  switch (s.type) {
    case 'moneyline':
      return `${name(s.team)} moneyline @ ${odds}`;
    case 'spread':
      return `${name(s.team)} ${s.line > 0 ? '+' : ''}${s.line} @ ${odds}`;
    case 'total':
      return `${s.ou} ${s.line} @ ${odds}`;
    case 'moneyline1x2':
      return `${s.yes ? '' : 'not '}${s.outcome === 'draw' ? 'draw' : name(s.outcome)} (1x2) @ ${odds}`;
  }
}
