import { describe, expect, it } from 'vitest';
import { any, away, home, open, place, twoUsers, closeAfterEach } from './support.ts';

closeAfterEach();

describe('user feed: taker fill', () => {
  it('names the resting order that was hit in matched.orderID; the taker knows its own order by wagerRequestID and userReference', async () => {
    const { sim, maker, taker } = await twoUsers();
    const g = sim.game();
    const mc = await open('/v2/user', maker.token);
    const tc = await open('/v2/user', taker.token);
    const resting = place(sim, maker.id, {
      gameID: g.id,
      type: 'moneyline',
      side: home(g),
      odds: -120,
      bet: 100,
      userReference: 'mk',
    });
    const makerOrder = resting.unmatched!.orderID;
    // The taker's order fills 50 and rests the rest, so it has an order id of its own.
    const took = place(sim, taker.id, {
      gameID: g.id,
      type: 'moneyline',
      side: away(g),
      odds: 120,
      bet: 100,
      userReference: 'tk',
    });
    const takerOrder = took.unmatched!.orderID;
    expect(takerOrder).not.toBe(makerOrder);

    const fill = (await tc.take((m) => m.matched !== null)).value;
    expect(fill.origin).toBe('wager');
    expect(fill.unmatched).toBeNull();
    expect(fill.matched).toMatchObject({
      orderID: makerOrder,
      wagerRequestID: took.unmatched!.wagerRequestID,
      userReference: 'tk',
      side: away(g),
      odds: 120,
    });

    // The maker's own view names its own order, as before.
    const hit = (await mc.take((m) => m.matched !== null)).value;
    expect(hit.matched).toMatchObject({
      orderID: makerOrder,
      wagerRequestID: resting.unmatched!.wagerRequestID,
      userReference: 'mk',
    });
    expect(hit.matched.txID).toBe(fill.matched.txID);
  });
});

describe('user feed: number on moneylines', () => {
  it('is omitted (not null) on moneyline and 1x2 fills and placements, and present on spreads and totals', async () => {
    const { sim, maker, taker } = await twoUsers();
    const g = sim.game();
    const soccer = sim.game({ league: 'EPL', sport: 'soccer' });
    const mc = await open('/v2/user', maker.token);
    const tc = await open('/v2/user', taker.token);

    place(sim, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -120, bet: 100 });
    const placed = (await mc.take(any)).value;
    expect(placed.unmatched).not.toHaveProperty('number');
    place(sim, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 10 });
    const took = (await tc.take(any)).value;
    expect(took.matched).not.toHaveProperty('number');
    const hit = (await mc.take(any)).value;
    expect(hit.matched).not.toHaveProperty('number');
    expect(hit.unmatched).not.toHaveProperty('number');

    place(sim, maker.id, { gameID: soccer.id, type: 'moneyline1x2', market: 'draw', side: 'yes', odds: 250, bet: 20 });
    const draw = (await mc.take(any)).value;
    expect(draw.unmatched).toMatchObject({ type: 'moneyline1x2', market: 'draw', side: 'yes' });
    expect(draw.unmatched).not.toHaveProperty('number');

    place(sim, maker.id, { gameID: g.id, type: 'total', side: 'over', number: 210.5, odds: -110, bet: 50 });
    expect((await mc.take(any)).value.unmatched).toMatchObject({ type: 'total', side: 'over', number: 210.5 });
    place(sim, maker.id, { gameID: g.id, type: 'spread', side: home(g), number: -3.5, odds: -110, bet: 50 });
    expect((await mc.take(any)).value.unmatched).toMatchObject({ type: 'spread', side: home(g), number: -3.5 });
  });
});
