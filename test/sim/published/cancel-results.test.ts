import { describe, expect, it } from 'vitest';
import type { EngineGame } from '../../../src/engine/types.ts';
import type { TestSim } from '../../support/sim.ts';
import { away, clients, home, place, request, twoUsers, closeAfterEach } from './support.ts';

closeAfterEach();

describe('cancel results after a partial fill', () => {
  /** The maker risks 100 at -120 on home; a taker's 30 at +120 matches 36 of it. */
  async function partlyFilled(sim: TestSim, maker: { id: string }, taker: { id: string }, g: EngineGame) {
    const id = place(sim, maker.id, {
      gameID: g.id,
      type: 'moneyline',
      side: home(g),
      odds: -120,
      bet: 100,
      userReference: 'pf',
    }).unmatched!.orderID;
    place(sim, taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 30 });
    return id;
  }

  it('REST cancel and cancelMultiple: offered 0, filled the cumulative matched risk, remaining what was withdrawn', async () => {
    const { sim, maker, taker } = await twoUsers();
    const g = sim.game();
    const one = await partlyFilled(sim, maker, taker, g);
    const r = await sim.http('POST', '/session/cancel', { token: maker.token, body: { sessionID: one } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ success: true, sessionID: one, offered: 0, userReference: 'pf' });
    expect(r.body.data.filled).toBeCloseTo(36, 9);
    expect(r.body.data.remaining).toBeCloseTo(64, 9);

    const two = await partlyFilled(sim, maker, taker, g);
    const untouched = place(sim, maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -200, bet: 40 })
      .unmatched!.orderID;
    const m = await sim.http('POST', '/session/cancelMultiple', {
      token: maker.token,
      body: { sessionIDs: [two, untouched] },
    });
    expect(m.status).toBe(200);
    expect(m.body.data[0]).toMatchObject({ success: true, sessionID: two, offered: 0 });
    expect(m.body.data[0].filled).toBeCloseTo(36, 9);
    expect(m.body.data[0].remaining).toBeCloseTo(64, 9);
    expect(m.body.data[1]).toMatchObject({ success: true, sessionID: untouched, offered: 0, filled: 0, remaining: 40 });
  });

  it('orders socket cancelById: the same amounts', async () => {
    const { sim, maker, taker } = await twoUsers();
    const g = sim.game();
    const id = await partlyFilled(sim, maker, taker, g);
    const c = await clients.open('/orders/ws', maker.token);
    const r = await request(c, 'cancelById', { orderId: id });
    expect(r.data[0]).toMatchObject({ success: true, orderID: id, offered: 0, gameID: g.id, userReference: 'pf' });
    expect(r.data[0].filled).toBeCloseTo(36, 9);
    expect(r.data[0].remaining).toBeCloseTo(64, 9);
  });
});
