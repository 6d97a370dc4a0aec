import { afterEach, describe, expect, it } from 'vitest';
import { inventorySkew } from '../../strategies/inventory-skew.ts';
import { impliedProbability } from '../../src/odds/american.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { capturedLogs, until } from '../exchange/support-socket.ts';
import { instance, startRuntime } from './support.ts';

let t: TestSim | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  await t?.close();
  t = undefined;
});

describe('inventory-skew end to end', () => {
  it('skews its quotes against the side it got filled on', async () => {
    t = await startTestSim();
    const g = t.game();
    const [away, home] = g.participants;
    // Someone else makes a market both ways, so the book has a consensus fair of 0.5.
    const other = await t.user('other');
    await t.http('POST', '/session/v3/place', {
      token: other.token,
      body: {
        orders: [
          { gameID: g.id, type: 'moneyline', side: home.id, odds: 105, bet: 500 },
          { gameID: g.id, type: 'moneyline', side: away.id, odds: 105, bet: 500 },
        ],
      },
    });
    const params = inventorySkew.params.parse({ size: 100, gamma: 0.5, maxLiability: 1_000, toleranceCents: 0 });
    const logs = capturedLogs();
    const bot = await startRuntime(t, 'skew', [instance(inventorySkew, { id: 'skew', params })], {
      logger: logs.logger,
    });
    closers.push(() => bot.close());
    const engine = t.sim.context.engine;
    // After the fill a keener quote may go out as a postArb and partly match the other
    // maker's order: what rests then is less than the full size, and still our quote.
    const quotes = (minRemaining = 99) => {
      const mine = engine.openOrders(bot.user.id);
      const of = (team: string) =>
        mine.find((o) => o.selection.type === 'moneyline' && o.selection.team === team && o.remaining > minRemaining);
      return { home: of('home'), away: of('away') };
    };
    let first: ReturnType<typeof quotes> | undefined;
    await until(
      () => {
        const q = quotes();
        if (q.home === undefined || q.away === undefined) return false;
        first = q;
        return true;
      },
      15_000,
      'two-sided quotes',
    );
    const before = { home: impliedProbability(first!.home!.odds), away: impliedProbability(first!.away!.odds) };
    // A taker lifts our home quote in full: we are now long home.
    const taker = await t.user('taker');
    const homeQuote = first!.home!;
    // The taker's price reaches through the other maker's better home offer too, which leaves
    // no consensus until the other maker posts again, as a maker does after being hit.
    const res = await t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: {
        orders: [
          {
            gameID: g.id,
            type: 'moneyline',
            side: away.id,
            odds: -homeQuote.odds,
            bet: 1_000,
            orderType: 'fillAndKill',
          },
        ],
      },
    });
    expect(res.body.data.createdSessions[0].matched.length).toBeGreaterThan(0);
    expect(engine.openOrders(bot.user.id).some((o) => o.id === homeQuote.id)).toBe(false);
    await t.http('POST', '/session/v3/place', {
      token: other.token,
      body: { orders: [{ gameID: g.id, type: 'moneyline', side: home.id, odds: 105, bet: 500 }] },
    });
    await until(() => bot.runtime.own.fills(g.id).length > 0, 15_000, 'the fill');
    // On a timeout, say what the bot was doing: its order transitions and what the engine holds.
    const diagnose = () =>
      JSON.stringify({
        engine: engine
          .openOrders(bot.user.id)
          .map((o) => ({ id: o.id, selection: o.selection, odds: o.odds, remaining: o.remaining })),
        stats: bot.runtime.status().orders,
        log: logs
          .lines()
          .filter((l) => l.level !== 20 || l.msg === 'order transition')
          .slice(-40)
          .map((l) => [l.msg, l.from, l.to, l.reason, l.orderID]),
      });
    let requote: ReturnType<typeof quotes> | undefined;
    await until(
      () => {
        const q = quotes(0);
        if (q.home === undefined || q.away === undefined || q.home.id === homeQuote.id) return false;
        requote = q;
        return true;
      },
      15_000,
      'requoted after the fill',
      diagnose,
    );
    const after = { home: impliedProbability(requote!.home!.odds), away: impliedProbability(requote!.away!.odds) };
    // Less keen to back home (lower implied probability asked), keener on away.
    expect(after.home).toBeLessThan(before.home);
    expect(after.away).toBeGreaterThan(before.away);
  });
});
