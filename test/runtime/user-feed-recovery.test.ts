import { describe, expect, it } from 'vitest';
import type { UserFeedEvent } from '../../src/exchange/socket/user-feed-events.ts';
import type { AccountSnapshot } from '../../src/exchange/client.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { until } from '../exchange/support-socket.ts';
import { closeAfterEach, instance, scripted, startRuntime } from './support.ts';

/**
 * The user feed drops while fills happen: until the replay (or, when it cannot reach back,
 * a REST reconciliation) has put them in the own book, the bot must not quote on a
 * position it does not know. Simulator over loopback, the real ExchangeClient.
 */
let t: TestSim | undefined;
const closers = closeAfterEach(
  () => t,
  () => (t = undefined),
);

const HOME_110: QuoteIntent = { key: 'h', selection: { type: 'moneyline', team: 'home' }, odds: 110, size: 100 };

async function quotingBot(t: TestSim) {
  const g = t.game();
  const bot = await startRuntime(t, 'mm', [instance(scripted(() => [HOME_110]))]);
  closers.push(() => bot.close());
  const engine = t.sim.context.engine;
  await until(() => engine.openOrders(bot.user.id).length === 1, 3_000, 'the quote resting');
  const events: UserFeedEvent<AccountSnapshot>[] = [];
  const sub = bot.exchange.userFeed.events$.subscribe((e) => events.push(e));
  closers.push(async () => sub.unsubscribe());
  /** Drop the user feed, and have `n` takers hit our +110 while it is down (in-process: the old socket no longer reads). */
  const dropAndFill = async (n: number) => {
    const takers = await Promise.all(Array.from({ length: n }, (_, i) => t.user(`taker${i}`)));
    bot.exchange.userFeed.socket.reconnect(new Error('test: drop'));
    for (const taker of takers) {
      const [e] = engine.place(taker.id, [
        { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: -110, bet: 11 },
      ]);
      expect((e as { status: string }).status).toBe('ok');
    }
  };
  return { g, bot, engine, events, dropAndFill };
}

describe('runtime: user feed recovery', () => {
  it('after a reconnect, stays halted until the replay has booked the fills made while the feed was down', async () => {
    t = await startTestSim();
    const { bot, dropAndFill } = await quotingBot(t);
    // A slow streaming host: the replay takes 1.5 s.
    t.sim.context.faults.restLatencyMs = 1_500;
    await dropAndFill(1);
    const feed = bot.exchange.userFeed.socket;
    await until(() => feed.state.status === 'open' && feed.state.connection === 2, 3_000, 'the user feed back');
    await new Promise((r) => setTimeout(r, 300));
    const s = bot.runtime.status();
    expect([s.mode, s.fills]).toEqual(['halted', 0]);
    expect(s.haltReasons).toEqual([expect.stringMatching(/^user feed catching up/)]);
    t.sim.context.faults.restLatencyMs = 0;
    // Quoting resumes only with the fill in the book.
    await until(() => bot.runtime.mode === 'active' || bot.runtime.status().fills > 0, 5_000, 'the replay');
    expect(bot.runtime.status().fills).toBe(1);
    await until(() => bot.runtime.mode === 'active', 5_000, 'quoting again');
  });

  it('a second gap while the first is being reconciled: the first reconciled does not lift the halt', async () => {
    t = await startTestSim({ settings: { userFeedRetentionCount: 1 } });
    const { bot, engine, g, events, dropAndFill } = await quotingBot(t);
    const rest = bot.exchange.rest;
    const getUnmatched = rest.getUnmatched.bind(rest);
    const gates: (() => void)[] = [];
    rest.getUnmatched = async () => {
      if (gates.length < 2) await new Promise<void>((resolve) => gates.push(resolve));
      return getUnmatched();
    };
    await dropAndFill(2);
    await until(() => gates.length === 1, 5_000, 'the first reconciliation');
    // Down again; two orders of the account made meanwhile (from elsewhere) are a second gap.
    bot.exchange.userFeed.socket.reconnect(new Error('test: drop again'));
    for (const odds of [300, 310])
      engine.place(bot.user.id, [{ gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds, bet: 1 }]);
    await until(() => events.filter((e) => e.type === 'gapWarning').length === 2, 5_000, 'the second gap');
    gates[0]!();
    await until(() => events.some((e) => e.type === 'reconciled'), 5_000, 'the first reconciled');
    await until(() => gates.length === 2, 5_000, 'the second reconciliation');
    await new Promise((r) => setTimeout(r, 200));
    expect(bot.runtime.mode).toBe('halted');
    gates[1]!();
    await until(
      () => bot.runtime.mode === 'active',
      5_000,
      'quoting again',
      () => JSON.stringify(bot.runtime.status().haltReasons),
    );
    expect(events.filter((e) => e.type === 'reconciled')).toHaveLength(2);
    expect(bot.runtime.status().fills).toBe(2);
  });

  it('a REST reconciliation that fails after a gap is tried again: the bot books the fills and quotes again', async () => {
    // The replay cache keeps one message: two fills while down are a gap only REST can fill.
    t = await startTestSim({ settings: { userFeedRetentionCount: 1 } });
    const { bot, events, dropAndFill } = await quotingBot(t);
    const rest = bot.exchange.rest;
    const getUnmatched = rest.getUnmatched.bind(rest);
    let failures = 1;
    rest.getUnmatched = async () => {
      if (failures > 0) {
        failures--;
        throw new Error('test: REST 503');
      }
      return getUnmatched();
    };
    await dropAndFill(2);
    await until(() => events.some((e) => e.type === 'reconcileFailed'), 5_000, 'the reconciliation to fail');
    expect(bot.runtime.mode).toBe('halted');
    expect(bot.runtime.status().fills).toBe(0);
    // Tried again a second later: the fills are booked from REST, and only then does it quote again.
    await until(
      () => bot.runtime.mode === 'active',
      5_000,
      'quoting again',
      () => JSON.stringify(bot.runtime.status().haltReasons),
    );
    expect(bot.runtime.status().fills).toBe(2);
    expect(events.map((e) => e.type).filter((x) => x === 'gapWarning' || x.startsWith('reconcile'))).toEqual([
      'gapWarning',
      'reconcileFailed',
      'reconciled',
    ]);
  });
});
