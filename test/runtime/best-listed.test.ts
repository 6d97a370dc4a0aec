import { describe, expect, it } from 'vitest';
import type { MarketBook } from '../../src/market-model/types.ts';
import { bestListed } from '../../src/runtime/best-listed.ts';
import { book, game, offer } from '../strategies/support.ts';

const AWAY = { type: 'moneyline', team: 'away' } as const;
const HOME = { type: 'moneyline', team: 'home' } as const;
const OVER = { type: 'total', ou: 'over', line: 210.5 } as const;

describe('bestListed: the best offer a side lists for takers of a selection', () => {
  it('reads the side takers of the selection take from, and says whether the offer is ours', () => {
    const g = game([book('moneyline', [offer(-120, 50)], [offer(503, 10), offer(573, 20, { mine: true })])]);
    expect(bestListed(g, AWAY)).toEqual({ odds: 573, mine: true });
    expect(bestListed(g, HOME)).toEqual({ odds: -120, mine: false });
  });

  it('is the best by rank whatever order the side is in', () => {
    const b = book('moneyline', [], [offer(503, 10), offer(573, 20)]);
    const unsorted: MarketBook = {
      ...b,
      sides: [b.sides[0], { ...b.sides[1], offers: [...b.sides[1].offers].reverse() }],
    };
    expect(unsorted.sides[1].offers[0]!.odds).toBe(503);
    expect(bestListed(game([unsorted]), AWAY)).toEqual({ odds: 573, mine: false });
  });

  it('is null for an empty side, a book the game does not list, or no game', () => {
    const g = game([book('moneyline', [], [offer(150, 10)])]);
    expect(bestListed(g, HOME)).toBeNull();
    expect(bestListed(g, OVER)).toBeNull();
    expect(bestListed(undefined, AWAY)).toBeNull();
  });
});
