import { afterEach, describe, expect, it } from 'vitest';
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
