import { describe, expect, it } from 'vitest';
import { MarketModel } from '../../src/market-model/market-model.ts';
import type { OrderGateway } from '../../src/exchange/orders/types.ts';
import { OrderManager, type GatewayResult } from '../../src/orders/order-manager.ts';
import { OwnBook } from '../../src/orders/own-book.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { silentLogger } from '../../src/shared/logger.ts';

/**
 * A heartbeat that has not been answered yet still arms the switch when it lands; another
 * sent behind it would only queue on a slow link. On a loaded machine the runtime's tick
 * came round three times while the first heartbeat waited, and three went out at once.
 */
describe('the heartbeat in flight', () => {
  it('sends no second heartbeat until the first is answered, then sends the next', async () => {
    const clock = new ManualClock(1_000);
    const own = new OwnBook({ commissionRate: () => 0.01 });
    const market = new MarketModel((x) => own.isOurOrderID(x));
    const answers: { ok: () => void; fail: (e: Error) => void }[] = [];
    const gateway: OrderGateway = {
      place: () => new Promise<never>(() => undefined),
      cancel: () => new Promise<never>(() => undefined),
      heartbeat: () => new Promise<void>((ok, fail) => void answers.push({ ok, fail })),
    };
    const delivered: GatewayResult[] = [];
    const orders = new OrderManager({
      own,
      market,
      gateway,
      limits: { maxGameLiability: 1_000, maxTotalLiability: 5_000, maxOrderSize: 500, maxOrdersPerGame: 40 },
      usePostArb: true,
      clock,
      logger: silentLogger(),
      runId: 'r',
      deliver: (r) => void delivered.push(r),
      notify: () => undefined,
      commissionRate: () => 0.01,
    });
    orders.heartbeat(6);
    orders.heartbeat(6);
    orders.heartbeat(6);
    expect(answers).toHaveLength(1);
    answers[0]!.ok();
    await new Promise((r) => setImmediate(r));
    expect(delivered.map((r) => r.kind)).toEqual(['heartbeat-accepted']);
    orders.heartbeat(6);
    expect(answers).toHaveLength(2);
    answers[1]!.fail(new Error('connection reset'));
    await new Promise((r) => setImmediate(r));
    expect(delivered.map((r) => r.kind)).toEqual(['heartbeat-accepted', 'heartbeat-failed']);
    orders.heartbeat(6);
    expect(answers).toHaveLength(3);
  });
});
