import { describe, expect, it } from 'vitest';
import { away, clients, place, request, twoUsers, closeAfterEach } from './support.ts';

closeAfterEach();

describe('orders socket: cancelAllByGame market filter', () => {
  async function board() {
    const { sim, maker } = await twoUsers();
    const g = sim.game({ league: 'EPL', sport: 'soccer' });
    const other = sim.game({ league: 'EPL', sport: 'soccer' });
    const c = await clients.open('/orders/ws', maker.token);
    const ids = {
      over: place(sim, maker.id, { gameID: g.id, type: 'total', side: 'over', number: 2.5, odds: 120, bet: 10 })
        .unmatched!.orderID,
      under: place(sim, maker.id, { gameID: g.id, type: 'total', side: 'under', number: 2.5, odds: 130, bet: 10 })
        .unmatched!.orderID,
      spread: place(sim, maker.id, { gameID: g.id, type: 'spread', side: away(g), number: 0.5, odds: 140, bet: 10 })
        .unmatched!.orderID,
      draw: place(sim, maker.id, {
        gameID: g.id,
        type: 'moneyline1x2',
        market: 'draw',
        side: 'yes',
        odds: 250,
        bet: 10,
      }).unmatched!.orderID,
      elsewhere: place(sim, maker.id, {
        gameID: other.id,
        type: 'total',
        side: 'over',
        number: 2.5,
        odds: 120,
        bet: 10,
      }).unmatched!.orderID,
    };
    const open = () => sim.sim.context.engine.openOrders(maker.id).map((o) => o.id);
    return { g, c, ids, open };
  }

  it('market "main" with a type and side cancels the game\'s non-1x2 orders of that type and side', async () => {
    const { g, c, ids, open } = await board();
    const r = await request(c, 'cancelAllByGame', { gameId: g.id, market: 'main', type: 'total', side: 'over' });
    expect(r.data.map((d: any) => [d.success, d.orderID])).toEqual([[true, ids.over]]);
    expect(open()).not.toContain(ids.over);
    expect(open()).toContain(ids.elsewhere);
  });

  it('market "main" alone cancels every non-1x2 order of the game and leaves the 1x2 ones', async () => {
    const { g, c, ids, open } = await board();
    const r = await request(c, 'cancelAllByGame', { gameId: g.id, market: 'main' });
    expect(r.data.map((d: any) => d.orderID).sort()).toEqual([ids.over, ids.under, ids.spread].sort());
    expect(r.data.every((d: any) => d.success === true)).toBe(true);
    expect(open().sort()).toEqual([ids.draw, ids.elsewhere].sort());
  });

  it('a 1x2 outcome still selects the 1x2 orders; an unknown market value matches nothing', async () => {
    const { g, c, ids, open } = await board();
    expect((await request(c, 'cancelAllByGame', { gameId: g.id, market: 'nonsense' })).data).toEqual([]);
    expect((await request(c, 'cancelAllByGame', { gameId: g.id, type: 'total', side: 'sideways' })).data).toEqual([]);
    expect(open()).toHaveLength(5);
    const r = await request(c, 'cancelAllByGame', { gameId: g.id, market: 'draw' });
    expect(r.data.map((d: any) => d.orderID)).toEqual([ids.draw]);
  });
});
