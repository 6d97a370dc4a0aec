import { describe, expect, it } from 'vitest';
import { MarketModel } from '../../src/book/market-model.ts';
import { OwnBook } from '../../src/book/own-book.ts';
import type { OwnOrder } from '../../src/book/types.ts';
import { OrderManager } from '../../src/orders/order-manager.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { silentLogger } from '../../src/shared/logger.ts';

function setup() {
  const clock = new ManualClock(1_000);
  const own = new OwnBook({ commissionRate: () => 0.01 });
  const market = new MarketModel((id) => own.isOurOrderId(id));
  const never = () => new Promise<never>(() => undefined);
  const orders = new OrderManager({
    own,
    market,
    gateway: { place: never, cancel: never, heartbeat: never },
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
  return { clock, own, orders, order };
}

// Found by the chaos soak (src/soak): a REST snapshot read while a place was in flight was
// applied after the place answered, and the reconciliation closed the new order as "not
// open": it rested at the exchange while the bot counted it cancelled.
describe('reconciliation with a snapshot older than what we know', () => {
  it('does not close an order that changed after the snapshot was requested', () => {
    const { clock, own, orders, order } = setup();
    order('old', 'resting', 'a'.repeat(24)); // resting since before the snapshot
    order('new', 'pending-place', null); // in flight when the snapshot was requested
    clock.advance(50);
    const asOf = clock.now();
    clock.advance(100);
    own.update('new', { orderID: 'b'.repeat(24), status: 'resting' }, clock.now(), 'place accepted');
    clock.advance(100);
    const r = orders.reconcile([], [], { cancelForeign: false, gameLookup: () => true, asOf });
    expect(r.closed).toBe(1);
    expect(own.order('old')?.status).toBe('cancelled');
    expect(own.order('new')?.status).toBe('resting');
    // A snapshot requested after the change does close it.
    expect(orders.reconcile([], [], { cancelForeign: false, gameLookup: () => true, asOf: clock.now() }).closed).toBe(1);
    expect(own.order('new')?.status).toBe('cancelled');
  });
});
