import { afterEach, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { instance, scripted, startRuntime } from './support.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// Found by the chaos soak (src/soak): an order adopted at start-up reconciliation was closed
// as "not open" by the same reconciliation a moment later, so the restarted bot believed it
// cancelled while it rested at the exchange, left it out of its liability, and quoted on top
// of it past the game cap.
describe('restart: orders of an earlier run found open at start-up', () => {
  it('are adopted and stay live in the book, counted in the projected liability', async () => {
    t = await startTestSim();
    const g = t.game();
    const home = g.participants[1].id;
    const user = await t.user('restarted');
    // What the crashed run left resting: one of our references, its own client id.
    const placed = await t.http('POST', '/session/v3/place', {
      token: user.token,
      body: {
        orders: [
          {
            gameID: g.id,
            type: 'moneyline',
            side: home,
            odds: 120,
            bet: 40,
            orderType: 'post',
            userReference: 'ls1:test:old0',
          },
        ],
      },
    });
    expect(placed.status).toBe(200);
    const open = t.sim.context.engine.openOrders(user.id);
    expect(open.map((o) => o.userReference)).toEqual(['ls1:test:old0']);
    const orderID = open[0]!.id;

    const { runtime, close } = await startRuntime(t, user, [instance(scripted(() => []))], { runId: 'new' });
    try {
      // Adopted, then (no intent wants it) on its way out through a cancel: live either way.
      const adopted = runtime.own.byOrderID(orderID);
      expect(adopted).toMatchObject({ clientId: 'old0', strategyId: 'test', remaining: 40 });
      expect(['resting', 'pending-cancel']).toContain(adopted?.status);
      expect(runtime.own.liveOrders(g.id).map((o) => o.orderID)).toEqual([orderID]);
      expect(runtime.own.projectedLiability(g.id)).toBeCloseTo(-40, 9);
      expect(runtime.orders.stats.adopted).toBe(1);
    } finally {
      await close();
    }
    expect(t.sim.context.engine.openOrders(user.id)).toEqual([]);
  });

  it('a total is adopted on the side lookupOrder gives (the listing names none), and counted where it loses', async () => {
    t = await startTestSim();
    const g = t.game();
    const user = await t.user('restarted');
    const placed = await t.http('POST', '/session/v3/place', {
      token: user.token,
      body: {
        orders: [
          {
            gameID: g.id,
            type: 'total',
            side: 'over',
            number: 210.5,
            odds: 120,
            bet: 40,
            orderType: 'post',
            userReference: 'ls1:test:old1',
          },
        ],
      },
    });
    expect(placed.status).toBe(200);
    const orderID = t.sim.context.engine.openOrders(user.id)[0]!.id;
    const listed = await t.http('GET', '/user/getUnmatched', { token: user.token });
    expect((listed.body as { data: { unmatched: Record<string, unknown>[] } }).data.unmatched[0]).not.toHaveProperty(
      'side',
    );

    const { runtime, close } = await startRuntime(t, user, [instance(scripted(() => []))], { runId: 'new' });
    try {
      expect(runtime.own.byOrderID(orderID)).toMatchObject({
        clientId: 'old1',
        selection: { type: 'total', ou: 'over', line: 210.5 },
        remaining: 40,
      });
      expect(runtime.orders.stats.adopted).toBe(1);
      // Lost if the game goes under: -40 there, nothing lost over.
      expect(runtime.own.projectedLiability(g.id)).toBeCloseTo(-40, 9);
    } finally {
      await close();
    }
  });
});
