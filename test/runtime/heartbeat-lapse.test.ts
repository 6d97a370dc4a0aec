import { afterEach, describe, expect, it, vi } from 'vitest';
import { RuntimeMetrics } from '../../src/metrics/runtime-metrics.ts';
import { renderSummary, statusLine, summarize } from '../../src/runtime/summary.ts';
import type { Venue } from '../../src/runtime/venue.ts';
import { realTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { instance, scripted, simClient, testRuntime } from './support.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * The exchange says nothing when its dead man's switch fires: the user feed reports each
 * order cancelled, as for any cancel. The bot must tell these apart from its own cancels and
 * say so: in its status, its summary and its metrics.
 */
describe('the exchange cancels our orders for a lapsed heartbeat', () => {
  it('is noticed, counted and reported (status line, summary, metrics); the bot quotes again', async () => {
    // 4x: the 6 s switch (the shortest the exchange takes) lapses in 1.5 s of wall time.
    const time = realTime({ speed: 4 });
    t = await startTestSim({ time });
    const g = t.game();
    const user = await t.user('lapsing', { balance: 100_000 });
    const exchange = simClient(t, user);
    // After the first accepted heartbeat none reaches the exchange any more (the link drops them).
    let accepted = 0;
    const venue: Venue = {
      ...exchange,
      rest: {
        ...exchange.rest,
        login: () => exchange.rest.login(),
        getMe: () => exchange.rest.getMe(),
        getOrderbook: (f) => exchange.rest.getOrderbook(f),
        getUnmatched: () => exchange.rest.getUnmatched(),
        getMatchedBets: () => exchange.rest.getMatchedBets(),
        gradedWalker: (o) => exchange.rest.gradedWalker(o),
        place: (o, options) => exchange.rest.place(o, options),
        lookupOrder: (id) => exchange.rest.lookupOrder(id),
        cancel: (ids) => exchange.rest.cancel(ids),
        heartbeat: async (s) => {
          if (accepted > 0) throw new Error('connection reset');
          await exchange.rest.heartbeat(s);
          accepted++;
        },
      },
    };
    const intents = [
      { key: 'home', selection: { type: 'moneyline', team: 'home' }, odds: 150, size: 20, orderType: 'post' },
      { key: 'away', selection: { type: 'moneyline', team: 'away' }, odds: 150, size: 20, orderType: 'post' },
    ] as const;
    const runtime = testRuntime(venue, [instance(scripted((v) => (v.game.id === g.id ? intents : [])))], {
      clock: time.clock,
      scheduler: time.scheduler,
      tickMs: 100,
      heartbeatSeconds: 6,
    });
    const metrics = new RuntimeMetrics({ session: 'paper', clock: time.clock, speed: 4 });
    metrics.attach(runtime);
    await runtime.start();
    try {
      await vi.waitFor(() => expect(t!.sim.context.engine.openOrders(user.id)).toHaveLength(2), {
        timeout: 5_000,
        interval: 20,
      });
      await vi.waitFor(() => expect(accepted).toBe(1), { timeout: 5_000, interval: 20 });
      const before = new Set(t.sim.context.engine.openOrders(user.id).map((o) => o.id));

      // The switch fires 6 s (exchange) after the one heartbeat; the feed reports two cancels.
      await vi.waitFor(() => expect(runtime.status().heartbeatCancels).toBe(2), { timeout: 5_000, interval: 20 });
      const closed = [...before].map((id) => t!.sim.context.engine.order(id));
      expect(closed.map((o) => o?.closeReason)).toEqual(['heartbeat', 'heartbeat']);
      const st = runtime.status();
      expect(st.heartbeatLapses).toBe(1);
      expect(statusLine(st, 12, 0)).toMatch(/HEARTBEAT LAPSED ×1: 2 orders cancelled by the exchange/);
      expect(renderSummary(summarize(runtime, st, 0, 12, 0))).toMatch(
        /heartbeat lapses {2}1: the exchange cancelled 2 of our orders for a lapsed heartbeat/,
      );
      const text = await metrics.registry.metrics();
      expect(text).toMatch(/^linesmith_heartbeat_lapses_total 1$/m);
      expect(text).toMatch(/^linesmith_heartbeat_cancelled_orders_total 2$/m);
      // The bot's book holds neither as live, and it quotes the two keys again.
      for (const id of before) expect(runtime.own.byOrderID(id)?.status).toBe('cancelled');
      await vi.waitFor(
        () => expect(t!.sim.context.engine.openOrders(user.id).filter((o) => !before.has(o.id))).toHaveLength(2),
        { timeout: 5_000, interval: 20 },
      );
    } finally {
      await runtime.stop(3_000 * 10);
      metrics.close();
      await exchange.close();
    }
  }, 20_000);

  it('does not put a cancel it did not ask for down to the switch while its heartbeat is current', async () => {
    const time = realTime({ speed: 10 });
    t = await startTestSim({ time });
    const g = t.game();
    const user = await t.user('steady', { balance: 100_000 });
    const exchange = simClient(t, user);
    const runtime = testRuntime(
      exchange,
      [
        instance(
          scripted((v) =>
            v.game.id === g.id
              ? [
                  {
                    key: 'home',
                    selection: { type: 'moneyline', team: 'home' },
                    odds: 150,
                    size: 20,
                    orderType: 'post',
                  },
                ]
              : [],
          ),
        ),
      ],
      { clock: time.clock, scheduler: time.scheduler, tickMs: 100, heartbeatSeconds: 6 },
    );
    await runtime.start();
    try {
      await vi.waitFor(() => expect(t!.sim.context.engine.openOrders(user.id)).toHaveLength(1), {
        timeout: 5_000,
        interval: 20,
      });
      // Someone else cancels it (an operator, another session of the account): not the switch.
      const [order] = t.sim.context.engine.openOrders(user.id);
      t.sim.context.engine.cancel(user.id, order!.id);
      t.sim.context.pump.kick();
      await vi.waitFor(() => expect(runtime.own.byOrderID(order!.id)?.status).toBe('cancelled'), {
        timeout: 5_000,
        interval: 20,
      });
      // The bot quotes again and heartbeats on, past several timeouts of the switch.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(t.sim.context.engine.openOrders(user.id)).toHaveLength(1);
      expect(runtime.status()).toMatchObject({ heartbeatLapses: 0, heartbeatCancels: 0 });
    } finally {
      await runtime.stop(3_000 * 10);
      await exchange.close();
    }
  }, 20_000);
});
