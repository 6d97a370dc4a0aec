import { describe, expect, it } from 'vitest';
import { AWAY, GAME, HOME, harness } from './support.ts';

// The request is what the REST client serializes: its fields keep one order, the wire side's
// fields after the game and the expiry last, whatever the selection.
describe('a place request', () => {
  it('lays out the wire side after the game, then odds, bet, type, reference and the expiry when given', () => {
    const h = harness();
    h.orders.cycle([
      {
        strategyId: 's',
        gameID: GAME,
        mode: 'active',
        intents: [
          { key: 'm', selection: { type: 'moneyline', team: 'home' }, odds: 150, size: 10, expirationMinutes: 5 },
          { key: 's', selection: { type: 'spread', team: 'away', line: 1.5 }, odds: 120, size: 20 },
          { key: 't', selection: { type: 'total', ou: 'under', line: 7.5 }, odds: 130, size: 30 },
          { key: 'x', selection: { type: 'moneyline1x2', outcome: 'draw', yes: false }, odds: 140, size: 40 },
        ],
      },
    ]);
    const refs = h.placed.map((p) => p.userReference);
    expect(h.placed.map((p) => JSON.stringify(p))).toEqual([
      JSON.stringify({
        gameID: GAME,
        type: 'moneyline',
        side: HOME,
        odds: 150,
        bet: 10,
        orderType: 'post',
        userReference: refs[0],
        expirationMinutes: 5,
      }),
      JSON.stringify({
        gameID: GAME,
        type: 'spread',
        side: AWAY,
        number: 1.5,
        odds: 120,
        bet: 20,
        orderType: 'post',
        userReference: refs[1],
      }),
      JSON.stringify({
        gameID: GAME,
        type: 'total',
        side: 'under',
        number: 7.5,
        odds: 130,
        bet: 30,
        orderType: 'post',
        userReference: refs[2],
      }),
      JSON.stringify({
        gameID: GAME,
        type: 'moneyline1x2',
        side: 'no',
        market: 'draw',
        odds: 140,
        bet: 40,
        orderType: 'post',
        userReference: refs[3],
      }),
    ]);
  });
});
