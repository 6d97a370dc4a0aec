import { afterEach, describe, expect, it } from 'vitest';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { capturedLogs, until } from '../exchange/support-socket.ts';
import { instance, scripted, startRuntime } from './support.ts';

let t: TestSim | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  await t?.close();
  t = undefined;
});

const homeAt = (odds: number, size: number, key = 'home'): QuoteIntent => ({
  key,
  selection: { type: 'moneyline', team: 'home' },
  odds,
  size,
});
const awayAt = (odds: number, size: number, key = 'away'): QuoteIntent => ({
  key,
  selection: { type: 'moneyline', team: 'away' },
  odds,
  size,
});

describe('runtime end to end against linesmith sim', () => {
  it('quotes, gets filled, books the fill, and leaves zero open orders after a clean shutdown', async () => {
    t = await startTestSim();
    const g = t.game();
    const [away, home] = g.participants;
    let seenPositions = 0;
    const strategy = scripted((v) => {
      seenPositions = Math.max(seenPositions, v.positions.length);
      return [homeAt(110, 100), awayAt(110, 100)];
    });
    const bot = await startRuntime(t, 'mm', [instance(strategy)]);
    closers.push(() => bot.close());
    const engine = t.sim.context.engine;
    await until(() => engine.openOrders(bot.user.id).length === 2, 3_000, 'two quotes resting');
    const refs = engine.openOrders(bot.user.id).map((o) => o.userReference);
    expect(refs.every((r) => r?.startsWith('ls1:test:'))).toBe(true);

    // Our home quote at +110 is offered to takers of away at -110; someone stakes 55 there.
    const taker = await t.user('taker');
    const res = await t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: { orders: [{ gameID: g.id, type: 'moneyline', side: away.id, odds: -110, bet: 55 }] },
    });
    expect(res.body.data.createdSessions[0].matched).toHaveLength(1);
    await until(() => bot.runtime.status().fills === 1, 3_000, 'the fill booked');
    const fill = bot.runtime.own.fills(g.id)[0]!;
    expect(fill).toMatchObject({ origin: 'offer', odds: 110, strategyId: 'test' });
    expect(fill.risk).toBeCloseTo(50, 9);
    expect(fill.win).toBeCloseTo(55, 9);
    await until(() => seenPositions === 1, 3_000, 'the strategy to see its position');
    // The partly filled quote is topped up: the intent wants 110 resting.
    await until(
      () =>
        engine
          .openOrders(bot.user.id)
          .some(
            (o) =>
              o.selection.type === 'moneyline' &&
              o.remaining === 100 &&
              o.odds === 110 &&
              (o.selection as { team: string }).team === 'home',
          ),
      3_000,
      'the home quote replaced at full size',
    );
    expect(bot.runtime.own.matchedLiability(g.id)).toBeCloseTo(
      await (async () =>
        (
          await t!.http('GET', `/user/getGameLiability?gameID=${g.id}`, {
            token: await bot.exchange.rest.session.token(),
          })
        ).body.data.liability)(),
      2,
    );

    await bot.close();
    closers.length = 0;
    // Checked as another client would: a fresh login of the same account over REST.
    const login = await t.http('POST', '/user/login', { body: { username: 'mm', password: bot.user.password } });
    const open = await t.http('GET', '/user/getUnmatched', { token: login.body.data.user.auth });
    expect(open.status).toBe(200);
    expect(open.body.data.unmatched).toEqual([]);
    expect(engine.openOrders(bot.user.id)).toEqual([]);
    void home;
  });

  it('never exceeds the game liability cap, however much the strategy asks for', async () => {
    t = await startTestSim();
    const g = t.game();
    let refusals: readonly { reason: string; source: string }[] = [];
    const strategy = scripted((v) => {
      refusals = v.refusals;
      return [homeAt(110, 400, 'a'), homeAt(115, 400, 'b'), homeAt(120, 400, 'c'), awayAt(110, 400, 'd')];
    });
    const bot = await startRuntime(t, 'capped', [instance(strategy)], {
      limits: { maxGameLiability: 900, maxTotalLiability: 5_000, maxOrderSize: 500, maxOrdersPerGame: 20 },
    });
    closers.push(() => bot.close());
    const engine = t.sim.context.engine;
    await until(
      () => bot.runtime.orders.stats.riskRejected > 0 && engine.openOrders(bot.user.id).length > 0,
      3_000,
      'quotes placed and some refused',
    );
    // The strategy hears why: the refusals reach its view.
    await until(() => refusals.length > 0, 5_000, 'refusals in the view');
    expect(refusals[0]).toMatchObject({ source: 'risk', reason: 'game-liability' });
    // Worst case with every resting order filled where it loses, as the exchange counts it.
    const exposure = -bot.runtime.own.projectedLiability(g.id);
    expect(exposure).toBeLessThanOrEqual(900 + 1e-6);
    expect(exposure).toBeGreaterThan(0);
    // Filling every resting order still stays within the cap.
    const taker = await t.user('bigtaker');
    for (const o of engine.openOrders(bot.user.id)) {
      const side =
        o.selection.type === 'moneyline' && o.selection.team === 'home' ? g.participants[0].id : g.participants[1].id;
      await t.http('POST', '/session/v3/place', {
        token: taker.token,
        body: {
          orders: [{ gameID: g.id, type: 'moneyline', side, odds: -o.odds, bet: 1_000, orderType: 'fillAndKill' }],
        },
      });
    }
    await until(() => bot.runtime.status().fills > 0, 3_000, 'fills');
    await new Promise((r) => setTimeout(r, 300));
    const liab = (
      await t.http('GET', `/user/getGameLiability?gameID=${g.id}`, { token: await bot.exchange.rest.session.token() })
    ).body.data.liability as number;
    expect(liab).toBeGreaterThanOrEqual(-900 - 0.01);
  });

  it('pulls quotes while a feed is down and quotes again once it is back', async () => {
    t = await startTestSim();
    t.game();
    const bot = await startRuntime(t, 'pull', [instance(scripted(() => [homeAt(110, 50), awayAt(110, 50)]))]);
    closers.push(() => bot.close());
    const engine = t.sim.context.engine;
    await until(() => engine.openOrders(bot.user.id).length === 2, 3_000, 'quotes');
    const cancelsBefore = bot.runtime.orders.stats.cancelsSent;
    // Every socket drops: the runtime halts and pulls its quotes, then resumes.
    await t.http('POST', '/admin/faults', { body: { dropSocketsEveryMs: 150 } });
    await until(() => bot.runtime.mode === 'halted', 3_000, 'halt');
    await t.http('POST', '/admin/faults', { body: { dropSocketsEveryMs: 0 } });
    await until(() => bot.runtime.orders.stats.cancelsSent >= cancelsBefore + 2, 3_000, 'quotes pulled');
    await until(
      () => bot.runtime.mode === 'active' && engine.openOrders(bot.user.id).length === 2,
      5_000,
      'quotes back',
    );
  });

  it('obeys the operator: halted pulls quotes, reducing lets only risk-reducing orders out, active resumes', async () => {
    t = await startTestSim();
    t.game();
    let odds = 110;
    const bot = await startRuntime(t, 'op', [instance(scripted(() => [homeAt(odds, 50), awayAt(odds, 50)]))]);
    closers.push(() => bot.close());
    const engine = t.sim.context.engine;
    await until(() => engine.openOrders(bot.user.id).length === 2, 3_000, 'quotes');
    bot.runtime.setMode('halted');
    await until(() => engine.openOrders(bot.user.id).length === 0, 3_000, 'quotes pulled');
    bot.runtime.setMode('reducing', 'test');
    bot.runtime.setMode('active');
    expect(bot.runtime.modeOf('test')).toBe('reducing');
    odds = 120;
    const refusedBefore = bot.runtime.orders.stats.riskRejected;
    bot.runtime.setMode('reducing', 'test');
    await until(() => bot.runtime.orders.stats.riskRejected > refusedBefore, 5_000, 'refusals');
    expect(engine.openOrders(bot.user.id)).toEqual([]); // with no position nothing reduces risk
    bot.runtime.setMode('active', 'test');
    await until(
      () => engine.openOrders(bot.user.id).filter((o) => o.odds === 120).length === 2,
      5_000,
      'quotes back at the new price',
    );
  });
});

describe("the runtime's debug log of an order placed", () => {
  it('says why in words: the order type, the bet and the odds of the request', async () => {
    t = await startTestSim();
    t.game();
    const strategy = scripted(() => [
      { key: 'home', selection: { type: 'moneyline', team: 'home' }, odds: 150, size: 100 },
      { key: 'away', selection: { type: 'moneyline', team: 'away' }, odds: -120, size: 37.5, orderType: 'post' },
    ]);
    const logs = capturedLogs();
    const bot = await startRuntime(t, 'mm', [instance(strategy)], { logger: logs.logger });
    closers.push(() => bot.close());
    await until(() => t!.sim.context.engine.openOrders(bot.user.id).length === 2, 3_000, 'two quotes resting');
    const placed = logs
      .lines()
      .filter((l) => l.msg === 'order transition' && l.from === null)
      .map((l) => [l.to, l.reason]);
    expect(placed).toEqual([
      ['pending-place', 'place post 100 at 150'],
      ['pending-place', 'place post 37.5 at -120'],
    ]);
  });
});
