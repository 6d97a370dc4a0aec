import { describe, expect, it } from 'vitest';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { until } from '../exchange/support-socket.ts';
import { closeAfterEach, instance, scripted, startRuntime } from './support.ts';

let t: TestSim | undefined;
const closers = closeAfterEach(
  () => t,
  () => (t = undefined),
);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A limit at +110 on home: it takes the maker's away -110 the moment it reaches the exchange. */
const TAKE_HOME: QuoteIntent = {
  key: 'h',
  selection: { type: 'moneyline', team: 'home' },
  odds: 110,
  size: 100,
  orderType: 'limit',
};

/**
 * A bot that wants TAKE_HOME once `want()` says so, against a maker resting away at -110;
 * the user-feed events the bot sees are timed, to tell what reached the exchange after a pull.
 */
async function setup() {
  t = await startTestSim();
  const g = t.game();
  let quote = false;
  const bot = await startRuntime(t, 'mm', [instance(scripted(() => (quote ? [TAKE_HOME] : [])))]);
  closers.push(() => bot.close());
  const events: { at: number; type: string }[] = [];
  bot.exchange.userFeed.events$.subscribe((e) => events.push({ at: Date.now(), type: e.type }));
  const maker = await t.user('maker');
  const [m] = t.sim.context.engine.place(maker.id, [
    { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: -110, bet: 110 },
  ]);
  expect((m as { status: string }).status).toBe('ok');
  return {
    sim: t,
    bot,
    want: () => {
      quote = true;
      bot.runtime.setMode('active'); // re-evaluate: the strategy now wants its quote
    },
    /** Order placements and fills of ours the exchange reported after `since`. */
    reachedAfter: (since: number) =>
      events.filter(
        (e) => e.at > since && (e.type === 'orderPlaced' || e.type === 'takerFill' || e.type === 'makerFill'),
      ),
    /** What became of the bot's orders: the only one should be closed as not placed. */
    statuses: () => [...bot.runtime.own.allOrders()].map((o) => o.status),
  };
}

describe('a place decided before a kill or a halt never reaches the exchange after it', () => {
  it('429 on the place: not sent again after Retry-After, so the kill leaves nothing to fill', async () => {
    const s = await setup();
    s.sim.sim.context.faults.rateLimitBurst = 4; // the next 4 REST calls answer 429, Retry-After: 1
    s.want();
    await sleep(300);
    // Refused unsent, the place is decided again at once; the new one waits out the pause.
    expect(s.bot.runtime.orders.stats.placeRequests).toBeGreaterThanOrEqual(1);
    const killedAt = Date.now();
    s.bot.runtime.kill('test');
    await sleep(3_000); // the old client sent it again after each Retry-After: a fill came at +2.7 s
    expect(s.reachedAfter(killedAt)).toEqual([]);
    expect(s.sim.sim.context.engine.openOrders(s.bot.user.id)).toEqual([]);
    expect(s.bot.runtime.status().fills).toBe(0);
    expect(s.statuses().every((x) => x === 'rejected')).toBe(true); // not placed: no 'unknown' left to reconcile
  });

  for (const pull of ['kill', 'halt'] as const) {
    it(`a place held by the request budget is withdrawn by ${pull === 'kill' ? 'the kill switch' : "the operator's halt"}`, async () => {
      const s = await setup();
      // The budget holds every request for 1.5 s, as after a 429 on another call.
      s.bot.exchange.rest.budget.pause('global', 1_500);
      s.want();
      await until(() => s.bot.runtime.orders.stats.placeRequests === 1, 1_000, 'the place handed to the gateway');
      expect(s.statuses()).toEqual(['pending-place']);
      const pulledAt = Date.now();
      if (pull === 'kill') s.bot.runtime.kill('test');
      else s.bot.runtime.setMode('halted');
      await until(() => s.statuses()[0] === 'rejected', 500, 'the waiting place withdrawn at once, as not placed');
      await sleep(1_800); // past the pause
      expect(s.reachedAfter(pulledAt)).toEqual([]);
      expect(s.sim.sim.context.engine.openOrders(s.bot.user.id)).toEqual([]);
      expect(s.bot.runtime.status().fills).toBe(0);
    });
  }
});
