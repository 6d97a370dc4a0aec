import { MarketModel } from '../../src/book/market-model.ts';
import { OwnBook } from '../../src/book/own-book.ts';
import type { OwnOrder } from '../../src/book/types.ts';
import type { OrderGateway } from '../../src/exchange/orders/types.ts';
import { OrderManager } from '../../src/orders/order-manager.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { silentLogger } from '../../src/shared/logger.ts';

/** An order manager on a manual clock whose gateway never answers; `sent` counts what it was asked to send. */
export function setup() {
  const clock = new ManualClock(1_000);
  const own = new OwnBook({ commissionRate: () => 0.01 });
  const market = new MarketModel((id) => own.isOurOrderId(id));
  const never = () => new Promise<never>(() => undefined);
  const sent = { places: 0, cancels: 0 };
  const gateway: OrderGateway = {
    place: (orders) => ((sent.places += orders.length), never()),
    cancel: (ids) => ((sent.cancels += ids.length), never()),
    heartbeat: never,
  };
  const orders = new OrderManager({
    own,
    market,
    gateway,
    limits: { maxGameLiability: 1_000, maxTotalLiability: 5_000, maxOrderSize: 500, maxOrdersPerGame: 20 },
    usePostArb: true,
    clock,
    logger: silentLogger(),
    runId: 'r',
    deliver: () => undefined,
    notify: () => undefined,
    commissionRate: () => 0.01,
  });
  const order = (clientId: string, status: OwnOrder['status'], orderID: string | null): OwnOrder =>
    own.add({ clientId, userReference: `ls1:s:${clientId}`, orderID, strategyId: 's', intentKey: 'k', gameID: 'g', selection: { type: 'moneyline', team: 'home' }, odds: 110, bet: 50, filled: 0, remaining: 50, status, isPostArb: false, createdAt: clock.now(), updatedAt: clock.now() }, 'test');
  return { clock, own, market, orders, order, sent };
}
