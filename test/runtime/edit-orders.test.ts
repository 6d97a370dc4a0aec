import { describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { until } from '../exchange/support-socket.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { closeAfterEach, instance, scripted, startRuntime } from './support.ts';

let t: TestSim | undefined;
const closers = closeAfterEach(
  () => t,
  () => (t = undefined),
);

/** The bot's quotes, changed by the test: `home` (and `away` when set) as posts of `size`. */
interface Quotes {
  home: number;
  away: number | null;
  size: number;
  /** Games not quoted any more. */
  off?: Set<string>;
}

const intents = (q: Quotes): QuoteIntent[] => [
  { key: 'h', selection: { type: 'moneyline', team: 'home' }, odds: q.home, size: q.size, orderType: 'post' },
  ...(q.away === null
    ? []
    : [
        {
          key: 'a',
          selection: { type: 'moneyline' as const, team: 'away' as const },
          odds: q.away,
          size: q.size,
          orderType: 'post' as const,
        },
      ]),
];

/**
 * A bot quoting `quotes` on its games through the simulator's REST API; `watch` samples, on
 * every user-feed event and every few ms, that the own book counts at least the worst case
 * the simulator's ledger holds against the account on the game (it may count more: an edit
 * or a cancel in flight), and `exact` that the two agree once nothing is in flight.
 */
async function quoting(quotes: Quotes, games = 1) {
  t = await startTestSim();
  const sim = t;
  const gs: EngineGame[] = [];
  for (let i = 0; i < games; i++) gs.push(sim.game());
  const bot = await startRuntime(sim, 'mm', [
    instance(scripted((v) => (quotes.off?.has(v.game.id) ? [] : intents(quotes)))),
  ]);
  closers.push(() => bot.close());
  const engine = sim.sim.context.engine;
  const exchangeWorst = (gameID: string) => engine.gameProjectedLiability(bot.user.id, gameID);
  const ownWorst = (gameID: string) => bot.runtime.own.projectedLiability(gameID);
  const breaches: string[] = [];
  const check = () => {
    for (const g of gs) {
      const own = ownWorst(g.id);
      const ex = exchangeWorst(g.id);
      if (!(own <= ex + 1e-6)) breaches.push(`own ${own} above the exchange's ${ex} on ${g.id}`);
    }
  };
  const sub = bot.exchange.userFeed.events$.subscribe(() => check());
  const timer = setInterval(check, 2);
  closers.push(async () => {
    sub.unsubscribe();
    clearInterval(timer);
  });
  const open = () => engine.openOrders(bot.user.id);
  const settled = () =>
    bot.runtime.own.liveOrders().every((o) => o.status === 'resting' || o.status === 'partly-filled');
  return {
    sim,
    bot,
    games: gs,
    engine,
    open,
    breaches,
    stats: () => bot.runtime.orders.stats,
    /** Re-evaluate the strategy now (its quotes changed). */
    requote: () => bot.runtime.setMode('active'),
    exchangeWorst,
    ownWorst,
    settled,
  };
}

describe('against the simulator: a re-pricing goes out as one edit', () => {
  it(
    'one editOrder, no cancel and no place; the order keeps its id; the worst case is never ' +
      'below what the exchange holds, and equal once answered',
    async () => {
      const q: Quotes = { home: 110, away: null, size: 100 };
      const s = await quoting(q);
      const g = s.games[0]!;
      await until(() => s.open().length === 1 && s.settled(), 5_000, 'the quote resting');
      const [first] = s.open();
      const before = { ...s.stats() };
      expect(s.ownWorst(g.id)).toBeCloseTo(s.exchangeWorst(g.id), 6);
      q.home = 125;
      s.requote();
      await until(() => s.open()[0]?.odds === 125 && s.settled(), 5_000, 'the quote re-priced');
      const after = s.stats();
      expect(after.editRequests - before.editRequests).toBe(1);
      expect(after.placeRequests - before.placeRequests).toBe(0);
      expect(after.cancelRequests - before.cancelRequests).toBe(0);
      expect(s.open()).toHaveLength(1);
      expect(s.open()[0]!.id).toBe(first!.id);
      expect(s.ownWorst(g.id)).toBeCloseTo(s.exchangeWorst(g.id), 6);
      expect(s.ownWorst(g.id)).toBeCloseTo(-100, 6);
      expect(s.bot.runtime.own.liveOrders(g.id)).toHaveLength(1);
      expect(s.breaches).toEqual([]);
    },
  );

  it(
    'an edit of a partly filled order: the exchange replaces it with the whole new volume, and ' +
      'the own book counts fills plus that volume exactly',
    async () => {
      const q: Quotes = { home: 110, away: null, size: 100 };
      const s = await quoting(q);
      const g = s.games[0]!;
      await until(() => s.open().length === 1 && s.settled(), 5_000, 'the quote resting');
      const [first] = s.open();
      const before = { ...s.stats() };
      // A taker backs away at -110 for 44: our home +110 loses 40 of its 100 to it.
      const taker = await s.sim.user('taker');
      const away = g.participants[0].id;
      const [hit] = s.engine.place(taker.id, [
        { gameID: g.id, type: 'moneyline', side: away, odds: -110, bet: 44, orderType: 'fillAndKill' },
      ]);
      expect((hit as { status: string }).status).toBe('ok');
      // 60 left against the wanted 100: re-placed whole by one edit, which the exchange turns into a cancel and a new order.
      await until(
        () => s.open().length === 1 && s.open()[0]!.id !== first!.id && s.settled(),
        5_000,
        'the order replaced',
      );
      const after = s.stats();
      expect(after.editRequests - before.editRequests).toBe(1);
      expect(after.placeRequests - before.placeRequests).toBe(0);
      expect(after.cancelRequests - before.cancelRequests).toBe(0);
      expect(s.open()[0]).toMatchObject({ remaining: 100, filled: 0 });
      await until(() => Math.abs(s.ownWorst(g.id) - s.exchangeWorst(g.id)) < 1e-6, 3_000, 'the fills booked');
      expect(s.ownWorst(g.id)).toBeCloseTo(-140, 6);
      expect(s.breaches).toEqual([]);
    },
  );
});

describe('against the simulator: cancelling everything in one request', () => {
  it('the kill sends one cancelAllOrders; nothing rests at the exchange and every order of ours is closed', async () => {
    const s = await quoting({ home: 110, away: -105, size: 50 }, 2);
    await until(() => s.open().length === 4 && s.settled(), 5_000, 'four quotes resting');
    const before = { ...s.stats() };
    s.bot.runtime.kill('test');
    await until(
      () => s.open().length === 0 && s.bot.runtime.own.liveOrders().length === 0,
      5_000,
      'everything cancelled',
    );
    const after = s.stats();
    expect(after.sweepRequests - before.sweepRequests).toBe(1);
    expect(after.cancelRequests - before.cancelRequests).toBe(1);
    expect(after.placeRequests).toBe(before.placeRequests);
    for (const g of s.games) expect(s.ownWorst(g.id)).toBe(0);
    expect(s.breaches).toEqual([]);
  });

  it("a game's halt sends one cancelAllOrdersForGame and leaves the other game's quotes", async () => {
    const q: Quotes = { home: 110, away: -105, size: 50, off: new Set() };
    const s = await quoting(q, 2);
    await until(() => s.open().length === 4 && s.settled(), 5_000, 'four quotes resting');
    const [g1, g2] = s.games as [EngineGame, EngineGame];
    const before = { ...s.stats() };
    // The runtime's halt of a closed game, on a game the exchange still lists open (an ended
    // game's orders are expired by the exchange itself, which would leave nothing to cancel).
    q.off!.add(g1.id);
    s.bot.runtime.orders.cancelAll('game closed', { gameID: g1.id }, { sweep: true });
    await until(
      () => s.open().every((o) => o.gameID !== g1.id) && s.bot.runtime.own.liveOrders(g1.id).length === 0,
      5_000,
      'the game cleared',
    );
    const after = s.stats();
    expect(after.sweepRequests - before.sweepRequests).toBe(1);
    expect(after.cancelRequests - before.cancelRequests).toBe(1);
    expect(s.open().filter((o) => o.gameID === g2.id)).toHaveLength(2);
    expect(s.ownWorst(g2.id)).toBeCloseTo(s.exchangeWorst(g2.id), 6);
  });
});
