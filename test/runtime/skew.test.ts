import { afterEach, describe, expect, it } from 'vitest';
import { inventorySkew } from '../../strategies/inventory-skew.ts';
import { impliedProbability } from '../../src/odds/american.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { until } from '../exchange/support-socket.ts';
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
      body: { orders: [{ gameID: g.id, type: 'moneyline', side: home.id, odds: 105, bet: 500 }, { gameID: g.id, type: 'moneyline', side: away.id, odds: 105, bet: 500 }] },
    });
    const params = inventorySkew.params.parse({ size: 100, gamma: 0.5, maxLiability: 1_000, toleranceCents: 0 });
    const bot = await startRuntime(t, 'skew', [instance(inventorySkew, { id: 'skew', params })]);
    closers.push(() => bot.close());
    const engine = t.sim.context.engine;
    // After the fill a keener quote may go out as a postArb and partly match the other
    // maker's order: what rests then is less than the full size, and still our quote.
    const quotes = (minRemaining = 99) => {
      const mine = engine.openOrders(bot.user.id);
      const of = (team: string) => mine.find((o) => o.selection.type === 'moneyline' && o.selection.team === team && o.remaining > minRemaining);
      return { home: of('home'), away: of('away') };
    };
    await until(() => quotes().home !== undefined && quotes().away !== undefined, 15_000, 'two-sided quotes');
    const before = { home: impliedProbability(quotes().home!.odds), away: impliedProbability(quotes().away!.odds) };
    // A taker lifts our home quote in full: we are now long home.
    const taker = await t.user('taker');
    const homeQuote = quotes().home!;
    const res = await t.http('POST', '/session/v3/place', { token: taker.token, body: { orders: [{ gameID: g.id, type: 'moneyline', side: away.id, odds: -homeQuote.odds, bet: 1_000, orderType: 'fillAndKill' }] } });
    expect(res.body.data.createdSessions[0].matched.length).toBeGreaterThan(0);
    await until(() => bot.runtime.own.fills(g.id).length > 0, 15_000, 'the fill');
    await until(() => {
      const q = quotes(0);
      return q.home !== undefined && q.away !== undefined && q.home.id !== homeQuote.id;
    }, 15_000, 'requoted after the fill');
    const after = { home: impliedProbability(quotes(0).home!.odds), away: impliedProbability(quotes(0).away!.odds) };
    // Less keen to back home (lower implied probability asked), keener on away.
    expect(after.home).toBeLessThan(before.home);
    expect(after.away).toBeGreaterThan(before.away);
  });
});
