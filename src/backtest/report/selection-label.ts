import type { Selection } from '../../markets/types.ts';

/** A selection as people read it: `home`, `away +3.5`, `over 8.5`, `draw: yes`. */
export function selectionLabel(s: Selection): string {
  switch (s.type) {
    case 'moneyline':
      return s.team;
    case 'spread':
      return `${s.team} ${s.line > 0 ? '+' : ''}${s.line}`;
    case 'total':
      return `${s.ou} ${s.line}`;
    case 'moneyline1x2':
      return `${s.outcome}: ${s.yes ? 'yes' : 'no'}`;
  }
}
