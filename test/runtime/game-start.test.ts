import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LivePolicy, QuoteIntent, StrategyModule } from '../../src/strategy/types.ts';
import { capturedLogger } from '../exchange/support-rest.ts';
import { until } from '../exchange/support-socket.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { closeAfterEach, instance, scripted, startRuntime } from './support.ts';

let t: TestSim | undefined;
const closers = closeAfterEach(
  () => t,
  () => (t = undefined),
);

const HOME: QuoteIntent = { key: 'h', selection: { type: 'moneyline', team: 'home' }, odds: 150, size: 10 };

/** Quotes HOME reading only its game's league: an answer the runtime reuses while the league stays. */
const reused: StrategyModule<Record<string, never>> = {
  name: 'reused',
  description: 'quotes home on any league',
  params: z.object({}).strict() as z.ZodType<Record<string, never>>,
  quote: (v) => (v.game.league.length >= 0 ? [HOME] : []),
};

/**
 * A game that starts a moment after the runtime quotes it, on a simulator whose feed never
 * flags it live (the exchange's `live` flag may come well after the start): the exchange
 * expires the orders placed before the start, and what happens next is the live policy's.
 */
async function quotedThroughStart(live: LivePolicy, module: StrategyModule<unknown> = scripted(() => [HOME])) {
  t = await startTestSim();
  const sim = t;
  const log = capturedLogger('info');
  const bot = await startRuntime(sim, 'mm', [instance(module, { live })], { logger: log.logger });
  closers.push(() => bot.close());
  // Made once the runtime runs, so that a slow start-up under load does not eat the time before the start.
  const start = Date.now() + 2_500;
  const game = sim.game({ start });
  const engine = sim.sim.context.engine;
  const open = () => engine.openOrders(bot.user.id).filter((o) => o.gameID === game.id);
  await until(() => open().length === 1, 3_000, 'the quote resting before the start');
  expect(open()[0]!.createdAt).toBeLessThan(start);
  while (Date.now() < start + 1_200) await new Promise((r) => setTimeout(r, 20));
  return { open, lines: log.lines, start, gameID: game.id, stats: () => bot.runtime.orders.stats };
}

describe('a game that starts before the feed flags it live', () => {
  it('a strategy that pulls in play places nothing from the start on', async () => {
    const run = await quotedThroughStart({ kind: 'pull' });
    expect(run.open()).toEqual([]);
  });

  it('so does one whose answer before the start the runtime would reuse', async () => {
    const run = await quotedThroughStart({ kind: 'pull' }, reused as StrategyModule<unknown>);
    expect(run.open()).toEqual([]);
  });

  it('a strategy that keeps quoting in play quotes again after the exchange expired its order', async () => {
    const run = await quotedThroughStart({ kind: 'keep' });
    await until(() => run.open().length === 1, 3_000, 'the quote placed again in play');
    expect(run.open()[0]!.createdAt).toBeGreaterThanOrEqual(run.start);
  });

  it('a strategy that widens in play quotes widened after the start, with no request the exchange refuses', async () => {
    const run = await quotedThroughStart({ kind: 'widen', probabilityPoints: 0.03 });
    await until(() => run.open().length === 1, 3_000, 'the widened quote placed in play');
    expect(run.open()[0]!.odds).toBeGreaterThan(HOME.odds);
    expect(run.stats().exchangeRejected).toBe(0);
  });

  it('an order the exchange expires at the start is logged as that, not as an unasked cancel', async () => {
    const run = await quotedThroughStart({ kind: 'keep' });
    const messages = run.lines.map((l) => JSON.parse(l) as { level: number; msg: string; gameID?: string });
    expect(messages.filter((m) => /not asked to cancel/.test(m.msg))).toEqual([]);
    const expired = messages.filter((m) => /expired .*at the game's start/.test(m.msg));
    expect(expired.length).toBe(1);
    expect(expired[0]!.gameID).toBe(run.gameID);
    expect(expired[0]!.level).toBe(30);
  });
});
