import { describe, expect, it } from 'vitest';
import { away, home, open, place, twoUsers, closeAfterEach } from './support.ts';

closeAfterEach();

describe('price feed: orderUpdate on non-1x2 markets', () => {
  it('carries market "main" and the side\'s name on the update and on every side order; 1x2 keeps its outcome and yes/no', async () => {
    const { sim, maker, taker } = await twoUsers();
    const g = sim.game();
    const soccer = sim.game({ league: 'EPL', sport: 'soccer' });
    const c = await open('/price-stream', taker.token);
    const next = async () => (await c.take((m) => Array.isArray(m) && m[0] === 'orderUpdate')).value[1];

    // A maker over is listed to takers of under.
    place(sim, maker.id, { gameID: g.id, type: 'total', side: 'over', number: 210.5, odds: -104, bet: 52 });
    const total = await next();
    expect(total).toMatchObject({
      type: 'total',
      market: 'main',
      side: 'under',
      OU: 'under',
      total: 210.5,
      spread: null,
      participantID: null,
    });
    expect(total.sideOrders).toHaveLength(1);
    expect(total.sideOrders[0]).toMatchObject({
      market: 'main',
      side: 'under',
      OU: 'under',
      total: 210.5,
      spread: null,
    });

    // A maker on home is listed to takers of away.
    place(sim, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -120, bet: 100 });
    const ml = await next();
    expect(ml).toMatchObject({ type: 'moneyline', market: 'main', side: 'away', participantID: away(g) });
    expect(ml.sideOrders[0]).toMatchObject({ market: 'main', side: 'away', participantID: away(g) });

    place(sim, maker.id, { gameID: g.id, type: 'spread', side: away(g), number: 3.5, odds: -110, bet: 20 });
    const spread = await next();
    expect(spread).toMatchObject({
      type: 'spread',
      market: 'main',
      side: 'home',
      participantID: home(g),
      spread: -3.5,
    });
    expect(spread.sideOrders[0]).toMatchObject({ market: 'main', side: 'home', participantID: home(g), spread: -3.5 });
    expect(spread.sideOrders[0]).not.toHaveProperty('total');

    place(sim, maker.id, { gameID: soccer.id, type: 'moneyline1x2', market: 'draw', side: 'yes', odds: 250, bet: 10 });
    const x = await next();
    expect(x).toMatchObject({ type: 'moneyline1x2', market: 'draw', side: 'no', participantID: '' });
    expect(x).not.toHaveProperty('OU');
    expect(x.sideOrders[0]).toMatchObject({ market: 'draw', side: 'no' });
    expect(x.sideOrders[0]).not.toHaveProperty('spread');
  });

  it('leaves the REST orderbooks as they were: no market or side on non-1x2 orders', async () => {
    const { sim, maker } = await twoUsers();
    const g = sim.game();
    place(sim, maker.id, { gameID: g.id, type: 'total', side: 'over', number: 210.5, odds: -104, bet: 52 });
    const v2 = await sim.http('GET', `/exchange/v2/getOrderbook?gameID=${g.id}`, { token: maker.token });
    const [o] = v2.body.data.games[0].under;
    expect(o).toMatchObject({ OU: 'under', total: 210.5 });
    expect(o).not.toHaveProperty('market');
    expect(o).not.toHaveProperty('side');
    expect(o).not.toHaveProperty('spread');
  });
});
