import { describe, expect, it } from 'vitest';
import { SideLabels } from '../../src/market-model/side-labels.ts';

const P = { awayId: 'away-team', homeId: 'home-team' };

describe('SideLabels', () => {
  it('reads each type by its own fields, the same label to the same side object', () => {
    const l = new SideLabels(P);
    const home = l.resolve('moneyline', { participantID: 'home-team' });
    expect(home).toMatchObject({ key: 'moneyline', idx: 0, taker: { type: 'moneyline', team: 'home' } });
    expect(l.resolve('moneyline', { participantID: 'home-team', spread: 4 })).toBe(home);
    expect(l.resolve('moneyline', { participantID: 'away-team' })).toMatchObject({ idx: 1 });
    // A spread and a moneyline on the same participant are different sides.
    const spread = l.resolve('spread', { participantID: 'home-team', spread: -3.5 });
    expect(spread).toMatchObject({ key: 'spread:-3.5', idx: 0 });
    expect(l.resolve('spread', { participantID: 'home-team', spread: -3.5 })).toBe(spread);
    expect(l.resolve('total', { OU: 'under', total: 210.5 })).toMatchObject({ key: 'total:210.5', idx: 1 });
    expect(l.resolve('total', { OU: 'over', total: 210.5 })).toMatchObject({ key: 'total:210.5', idx: 0 });
    expect(l.resolve('moneyline1x2', { market: 'draw', side: 'yes' })).toMatchObject({ idx: 0 });
    expect(l.resolve('moneyline1x2', { market: 'draw', side: 'no' })).toMatchObject({ idx: 1 });
    expect(l.resolve('props', { participantID: 'home-team' })).toBeNull();
    expect(l.resolve('moneyline', { participantID: 'someone-else' })).toBeNull();
  });

  it('past its bound of labels it starts again, and still reads every label right', () => {
    const l = new SideLabels(P);
    const first = l.resolve('total', { OU: 'over', total: 0.5 });
    for (let i = 1; i < 600; i++) {
      const r = l.resolve('total', { OU: 'over', total: i + 0.5 });
      expect(r).toMatchObject({ key: `total:${i + 0.5}`, idx: 0 });
      expect(l.resolve('spread', { participantID: 'away-team', spread: i + 0.5 })).toMatchObject({ idx: 1 });
    }
    const again = l.resolve('total', { OU: 'over', total: 0.5 });
    expect(again).toEqual(first);
    // Forgotten when it started again: read anew, not the object kept before.
    expect(again).not.toBe(first);
  });
});
