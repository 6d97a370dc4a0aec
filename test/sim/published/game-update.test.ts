import { describe, expect, it } from 'vitest';
import type { PriceFeedEvent } from '../../../src/exchange/schemas/price-feed.ts';
import type { SocketState } from '../../../src/exchange/socket/managed-socket.ts';
import { PriceFeedClient } from '../../../src/exchange/socket/price-feed-client.ts';
import { FAST, fixedTokens, Recorder } from '../../exchange/support-socket.ts';
import { away, home, open, place, twoUsers, closeAfterEach } from './support.ts';

closeAfterEach();

const LINED = ['homeSpreads', 'awaySpreads', 'over', 'under'];
const LISTED = ['homeMoneylines', 'awayMoneylines', 'homeMoneylines1x2', 'awayMoneylines1x2', 'draw1x2'];

describe('price feed: gameUpdate collections', () => {
  it('keys the spread and total collections by the line ({} when empty); moneylines stay lists; REST v2 stays flat', async () => {
    const { sim, maker } = await twoUsers();
    const c = await open('/price-stream', maker.token);
    const isGameUpdate = (id: string) => (m: any) => Array.isArray(m) && m[0] === 'gameUpdate' && m[1].id === id;
    const g = sim.game();
    const created = (await c.take(isGameUpdate(g.id))).value[1];
    for (const k of LINED) expect(created[k], k).toEqual({});
    for (const k of LISTED) expect(created[k], k).toEqual([]);

    // A maker on home -3.5 is listed to takers of away +3.5; a maker on over 210.5 to takers of under.
    const sp = place(sim, maker.id, { gameID: g.id, type: 'spread', side: home(g), number: -3.5, odds: -110, bet: 110 })
      .unmatched!.orderID;
    const sp2 = place(sim, maker.id, { gameID: g.id, type: 'spread', side: home(g), number: -3.5, odds: -120, bet: 60 })
      .unmatched!.orderID;
    const sp3 = place(sim, maker.id, { gameID: g.id, type: 'spread', side: home(g), number: -4.5, odds: 105, bet: 50 })
      .unmatched!.orderID;
    const ov = place(sim, maker.id, { gameID: g.id, type: 'total', side: 'over', number: 210.5, odds: -104, bet: 52 })
      .unmatched!.orderID;
    const ml = place(sim, maker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 140, bet: 20 }).unmatched!
      .orderID;
    expect(sim.sim.context.engine.updateGame(g.id, { start: sim.sim.context.engine.now() + 3_600_000 }).ok).toBe(true);
    const updated = (await c.take(isGameUpdate(g.id))).value[1];
    expect(Object.keys(updated.awaySpreads).sort()).toEqual(['3.5', '4.5']);
    // Within a line, best price for the taker first: +120 before +110.
    expect(updated.awaySpreads['3.5'].map((o: any) => o.id)).toEqual([sp2, sp]);
    expect(updated.awaySpreads['3.5'][0]).toMatchObject({ spread: 3.5, participantID: away(g), odds: 120 });
    expect(updated.awaySpreads['4.5'].map((o: any) => o.id)).toEqual([sp3]);
    expect(updated.homeSpreads).toEqual({});
    expect(updated.under).toEqual({ '210.5': [expect.objectContaining({ id: ov, OU: 'under', total: 210.5 })] });
    expect(updated.over).toEqual({});
    expect(updated.homeMoneylines.map((o: any) => o.id)).toEqual([ml]);
    expect(updated.awayMoneylines).toEqual([]);
    expect(updated.draw1x2).toEqual([]);
    expect(updated.openInterest).toBeCloseTo(292, 9);

    const v2 = (await sim.http('GET', `/exchange/v2/getOrderbook?gameID=${g.id}`, { token: maker.token })).body.data
      .games[0];
    expect(v2.awaySpreads.map((o: any) => o.id)).toEqual([sp2, sp, sp3]);
    expect(v2.under.map((o: any) => o.id)).toEqual([ov]);
    expect(v2.homeSpreads).toEqual([]);
  });

  it('reaches the price-feed client as a gameUpdate, its keyed collections read as lists', async () => {
    const { sim, maker, taker } = await twoUsers();
    const client = new PriceFeedClient({ ...FAST, streamingUrl: sim.url, tokens: fixedTokens(taker.token) });
    const events = new Recorder<PriceFeedEvent>(client.events$);
    const states = new Recorder<SocketState>(client.state$);
    try {
      client.start();
      await states.next((s) => s.status === 'open');
      await client.socket.roundTrip();
      const g = sim.game();
      await events.next((e) => e.type === 'gameUpdate' && e.payload.id === g.id);
      place(sim, maker.id, { gameID: g.id, type: 'total', side: 'over', number: 210.5, odds: -104, bet: 52 });
      // Three hours out: a new game starts two hours out, so a two-hour move made within the
      // millisecond the game was made would carry the start its creation already announced.
      const start = sim.sim.context.engine.now() + 3 * 3_600_000;
      expect(start).not.toBe(g.start);
      expect(sim.sim.context.engine.updateGame(g.id, { start }).ok).toBe(true);
      const moved = await events.next(
        (e) => e.type === 'gameUpdate' && e.payload.id === g.id && e.payload.start === new Date(start).toISOString(),
      );
      if (moved.type !== 'gameUpdate') throw new Error('not a gameUpdate');
      expect(moved.messageType).toBe('marketOpen');
      expect(moved.payload.under).toEqual([expect.objectContaining({ OU: 'under', total: 210.5 })]);
      expect(moved.payload.homeSpreads).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
