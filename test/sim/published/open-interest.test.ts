import { describe, expect, it } from 'vitest';
import { away, home, place, twoUsers, closeAfterEach } from './support.ts';

closeAfterEach();

describe('openInterest', () => {
  it('is the sum of bet over the orders resting on the game, on the v2 and v1 orderbooks', async () => {
    const { sim, maker, taker } = await twoUsers();
    const g = sim.game();
    place(sim, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -330, bet: 330 });
    place(sim, maker.id, { gameID: g.id, type: 'total', side: 'over', number: 210.5, odds: -110, bet: 55 });
    // 60 at +330 takes 198 of the 330: the order still rests, with its bet of 330.
    place(sim, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 330, bet: 60 });
    const v2 = await sim.http('GET', `/exchange/v2/getOrderbook?gameID=${g.id}`, { token: taker.token });
    expect(v2.body.data.games[0].openInterest).toBeCloseTo(385, 9);
    const v1 = await sim.http('POST', '/exchange/getOrderbook', {
      token: taker.token,
      body: { leagueRequested: 'NBA' },
    });
    expect(v1.body.data.games.find((x: any) => x.id === g.id).openInterest).toBeCloseTo(385, 9);
    // Filled out: only the total rests.
    place(sim, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 330, bet: 40 });
    const after = await sim.http('GET', `/exchange/v2/getOrderbook?gameID=${g.id}`, { token: taker.token });
    expect(after.body.data.games[0].openInterest).toBeCloseTo(55, 9);
  });
});
