import { config } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { checkIntents } from '../../src/runtime/intent-check.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { until } from '../exchange/support-socket.ts';
import { instance, scripted, startRuntime } from './support.ts';

/**
 * A strategy is plugin code: whatever it returns, and whatever else fails while the loop
 * evaluates, must be logged and counted, never thrown out of the loop. dispatch runs inside
 * feed subscribers, where RxJS rethrows an error from a timer and Node exits with our
 * orders resting. RxJS's unhandled-error hook stands in for that exit here.
 */
let t: TestSim | undefined;
const closers: (() => Promise<unknown>)[] = [];
let escaped: unknown[] = [];
const rxjsDefault = config.onUnhandledError;
beforeEach(() => {
  escaped = [];
  config.onUnhandledError = (err) => escaped.push(err);
});
afterEach(async () => {
  config.onUnhandledError = rxjsDefault;
  for (const c of closers.splice(0).reverse()) await c();
  await t?.close();
  t = undefined;
});

const HOME_110: QuoteIntent = { key: 'home', selection: { type: 'moneyline', team: 'home' }, odds: 110, size: 100 };

/** Another user's order on the game: a price-feed event that marks the game for evaluation, delivered inside the feed's subscriber. */
async function stirPriceFeed(t: TestSim, g: EngineGame, odds: number): Promise<void> {
  const other = await t.user(`other${odds}`);
  const [e] = t.sim.context.engine.place(other.id, [
    { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: -odds, bet: 10 },
  ]);
  expect((e as { status: string }).status).toBe('ok');
}

describe('runtime: a strategy that returns a bad value', () => {
  it('returning undefined: nothing escapes the loop, its quotes are pulled, the error is counted, and it quotes again once it recovers', async () => {
    t = await startTestSim();
    const g = t.game();
    let result: unknown = [HOME_110];
    const bot = await startRuntime(t, 'mm', [instance(scripted(() => result as QuoteIntent[]))]);
    closers.push(() => bot.close());
    const engine = t.sim.context.engine;
    await until(() => engine.openOrders(bot.user.id).length === 1, 3_000, 'the quote resting');

    result = undefined;
    await stirPriceFeed(t, g, 130);
    // A bad result counts as no quotes for the game: the resting one is cancelled.
    await until(() => engine.openOrders(bot.user.id).length === 0, 3_000, 'the quote pulled');
    expect(bot.runtime.errors.strategies.get('test')).toBeGreaterThanOrEqual(1);
    expect(escaped).toEqual([]);

    result = [HOME_110];
    await stirPriceFeed(t, g, 140);
    await until(() => engine.openOrders(bot.user.id).length === 1, 3_000, 'quoting again');
    expect(escaped).toEqual([]);
  });

  it('malformed intents are dropped and counted; the well-formed one is placed', async () => {
    t = await startTestSim();
    t.game();
    const bad = [
      null,
      { key: 'nan-odds', selection: { type: 'moneyline', team: 'home' }, odds: Number.NaN, size: 10 },
      { key: 'low-odds', selection: { type: 'moneyline', team: 'home' }, odds: 50, size: 10 },
      { key: 'neg-size', selection: { type: 'moneyline', team: 'away' }, odds: 120, size: -5 },
      { key: 'inf-size', selection: { type: 'moneyline', team: 'away' }, odds: 120, size: Number.POSITIVE_INFINITY },
      { key: 'no-selection', odds: 120, size: 10 },
      { key: 'no-team', selection: { type: 'moneyline' }, odds: 120, size: 10 },
      { selection: { type: 'moneyline', team: 'away' }, odds: 120, size: 10 },
    ];
    const bot = await startRuntime(t, 'mm', [instance(scripted(() => [HOME_110, ...bad] as QuoteIntent[]))]);
    closers.push(() => bot.close());
    const engine = t.sim.context.engine;
    await until(() => engine.openOrders(bot.user.id).length === 1, 3_000, 'the good quote resting');
    await new Promise((r) => setTimeout(r, 300));
    expect(engine.openOrders(bot.user.id).map((o) => [o.odds, o.remaining])).toEqual([[110, 100]]);
    // None of the bad ones reached the risk checks or the exchange.
    const s = bot.runtime.orders.stats;
    expect([s.placesSent, s.riskRejected, s.exchangeRejected]).toEqual([1, 0, 0]);
    expect(bot.runtime.errors.strategies.get('test')).toBeGreaterThanOrEqual(bad.length);
    expect(bot.runtime.errors.strategies.get('test')! % bad.length).toBe(0);
    expect(escaped).toEqual([]);
  });

  it('an evaluation that throws (a decision recorder failing) is logged and counted; the loop keeps going', async () => {
    t = await startTestSim();
    const g = t.game();
    let odds = 110;
    let failNext = false;
    const onDecision = () => {
      if (!failNext) return;
      failNext = false;
      throw new Error('recording disk full');
    };
    const bot = await startRuntime(t, 'mm', [instance(scripted(() => [{ ...HOME_110, odds }]))], { onDecision });
    closers.push(() => bot.close());
    const engine = t.sim.context.engine;
    await until(() => engine.openOrders(bot.user.id).length === 1, 3_000, 'the quote resting');

    failNext = true;
    odds = 115;
    await stirPriceFeed(t, g, 130);
    await until(() => bot.runtime.errors.evaluations === 1, 3_000, 'the failed evaluation counted');
    expect(escaped).toEqual([]);
    // The next event evaluates again and the quote moves.
    await stirPriceFeed(t, g, 140);
    await until(() => engine.openOrders(bot.user.id).some((o) => o.odds === 115), 3_000, 'the quote moved to +115');
    expect(escaped).toEqual([]);
  });
});

describe('checkIntents', () => {
  const good: QuoteIntent[] = [
    HOME_110,
    {
      key: 's',
      selection: { type: 'spread', team: 'away', line: -3.5 },
      odds: -110,
      size: 5,
      orderType: 'postArb',
      toleranceCents: 2,
    },
    { key: 't', selection: { type: 'total', ou: 'under', line: 210.25 }, odds: 100, size: 0.5 },
    {
      key: 'x',
      selection: { type: 'moneyline1x2', outcome: 'draw', yes: false },
      odds: 250,
      size: 1,
      expirationMinutes: 5,
    },
  ];

  it('passes well-formed intents through as the same array', () => {
    const r = checkIntents(good);
    expect(r.ok && r.intents).toBe(good);
  });

  it('refuses what is not an array, and drops each malformed intent with its reason', () => {
    for (const v of [undefined, null, 'quotes', { key: 'h' }]) expect(checkIntents(v).ok).toBe(false);
    const bad = [
      { key: 's', selection: { type: 'spread', team: 'away', line: 3.3 }, odds: -110, size: 5 },
      { key: 't', selection: { type: 'total', ou: 'sideways', line: 210 }, odds: 110, size: 5 },
      { key: 'x', selection: { type: 'moneyline1x2', outcome: 'draw' }, odds: 250, size: 1 },
      { key: 'p', selection: { type: 'prop' }, odds: 250, size: 1 },
      { key: 'o', selection: { type: 'moneyline', team: 'home' }, odds: 110.5, size: 1 },
      { key: 'z', selection: { type: 'moneyline', team: 'home' }, odds: 110, size: 0 },
      { key: 'k', selection: { type: 'moneyline', team: 'home' }, odds: 110, size: 1, orderType: 'iceberg' },
      { key: 'c', selection: { type: 'moneyline', team: 'home' }, odds: 110, size: 1, toleranceCents: Number.NaN },
    ];
    const r = checkIntents([...good, ...bad]);
    if (!r.ok) throw new Error('expected a list');
    expect(r.intents).toEqual(good);
    expect(r.dropped.map((d) => d.key)).toEqual(['s', 't', 'x', 'p', 'o', 'z', 'k', 'c']);
  });
});
