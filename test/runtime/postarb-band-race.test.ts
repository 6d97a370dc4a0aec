import { describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import type { Refusal, StrategyView } from '../../src/market-model/types.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { capturedLogger } from '../exchange/support-rest.ts';
import { until } from '../exchange/support-socket.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { closeAfterEach, instance, scripted, startRuntime } from './support.ts';

/**
 * A postArb race: the strategy sees the best offer for away takers at +503 and meets it with
 * a postArb at 503, but before that order reaches the exchange another maker lists +573 for
 * away takers. The exchange checks the band against the best listed price when the order
 * arrives, so it refuses the order (573 is more than 1% from 503). The view was right when
 * read; the refusal is an expected failure, and the bot must treat it as one: a value, not a
 * throw; counted; logged as a warning that names the exchange's reason; the intent's key
 * cooled down (a strategy that keeps asking for the same order sends it at most once per
 * cooldown, never in a loop); and the refusal shown to the strategy on its next look.
 */
let t: TestSim | undefined;
const closers = closeAfterEach(
  () => t,
  () => (t = undefined),
);

const AWAY_503: QuoteIntent = {
  key: 'away',
  selection: { type: 'moneyline', team: 'away' },
  odds: 503,
  size: 10,
  orderType: 'postArb',
};

/** The best odds the view lists for takers backing the away team, if any. */
function bestForAway(view: StrategyView): number | undefined {
  const side = view.game.books
    .get('moneyline')
    ?.sides.find((s) => s.taker.type === 'moneyline' && s.taker.team === 'away');
  return side?.offers[0]?.odds;
}

/** A maker's order backing the home team at `-odds`: listed for away takers at `+odds`. */
async function listForAway(t: TestSim, g: EngineGame, name: string, odds: number): Promise<void> {
  const maker = await t.user(name);
  const [e] = t.sim.context.engine.place(maker.id, [
    { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: -odds, bet: 100 },
  ]);
  expect((e as { status: string }).status).toBe('ok');
}

describe('runtime: a postArb refused because a better offer arrived while it was in flight', () => {
  it('is counted, logged as a warning, cools its key down, and reaches the strategy as a refusal', async () => {
    t = await startTestSim();
    const sim = t;
    const g = sim.game();
    await listForAway(sim, g, 'maker1', 503);
    // The better offer reaches the exchange after the view the strategy decided on, before our order.
    const raceMaker = await sim.user('maker2');
    let raced = false;
    const refusalsSeen: Refusal[][] = [];
    const strategy = scripted((view) => {
      refusalsSeen.push([...view.refusals]);
      if (!raced && bestForAway(view) === 503) {
        raced = true;
        const [e] = sim.sim.context.engine.place(raceMaker.id, [
          { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: -573, bet: 100 },
        ]);
        expect((e as { status: string }).status).toBe('ok');
      }
      // Stubborn: it asks for the same order whatever the book says.
      return raced ? [AWAY_503] : [];
    });
    const log = capturedLogger('info');
    const bot = await startRuntime(sim, 'arb', [instance(strategy)], { logger: log.logger });
    closers.push(() => bot.close());
    const stats = bot.runtime.orders.stats;
    await until(() => stats.exchangeRejected === 1, 3_000, 'the exchange refusing the postArb');
    const cooldownMs = bot.runtime.orders.cooldownMs;
    const rejections = () =>
      log.lines
        .map((l) => JSON.parse(l) as Record<string, unknown> & { level: number; time: number; msg: string })
        .filter((l) => l.msg === 'exchange rejected an order');

    // The exchange's reason, at warning level, once.
    const rejected = rejections();
    expect(rejected.length).toBe(1);
    expect(rejected[0]!.level).toBe(40);
    expect(rejected[0]!.errorType).toBe('rejected_order_type_rules');
    expect(rejected[0]!.error).toMatch(/postArb order odds 503 differ by more than 1% from the resting order's 573/);
    // What the order was, and what the book lists now: the better offer, someone else's. So the
    // line alone tells a race (the book moved) from a stale view or an order of ours in the way.
    expect(rejected[0]).toMatchObject({
      intent: 'away',
      orderType: 'postArb',
      odds: 503,
      bestListedNow: { odds: 573, mine: false },
    });
    // Nothing of ours rests or matched: the order never became one.
    expect(sim.sim.context.engine.openOrders(bot.user.id)).toEqual([]);

    // Inside the cooldown (it began when the refusal was handled, just before its line was
    // logged) the strategy keeps asking: each new offer marks the game. Nothing is sent.
    const refusedAt = rejected[0]!.time;
    for (let i = 0; i < 4 && Date.now() - refusedAt < cooldownMs - 600; i++) {
      await listForAway(sim, g, `stir${i}`, 400 - i);
      await new Promise((r) => setTimeout(r, 100));
    }
    const askedInCooldown = refusalsSeen.length;
    // A machine too loaded to look within the cooldown proves nothing here; the timing of the
    // second attempt below still does.
    if (Date.now() - refusedAt < cooldownMs - 50) expect(stats.placesSent).toBe(1);
    // The strategy was asked again and saw the exchange's refusal of its key.
    const last = refusalsSeen[refusalsSeen.length - 1]!;
    expect(askedInCooldown).toBeGreaterThan(1);
    expect(last.map((r) => [r.source, r.intentKey, r.reason])).toEqual([
      ['exchange', 'away', 'rejected_order_type_rules'],
    ]);

    // After the cooldown the key is tried once more (and refused again: 573 still rests), not in a loop.
    await until(() => stats.placesSent === 2, 3_000, 'the key tried again after its cooldown');
    await until(() => stats.exchangeRejected === 2, 3_000, 'the second refusal');
    expect(rejections()[1]!.time - refusedAt).toBeGreaterThanOrEqual(cooldownMs - 20);
    await new Promise((r) => setTimeout(r, 500));
    expect(stats.placesSent).toBe(2);
  });
});
