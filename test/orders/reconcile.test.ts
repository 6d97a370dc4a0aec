import { describe, expect, it } from 'vitest';
import { setup } from './support.ts';

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
    own.apply('new', { kind: 'rests', amounts: { orderID: 'b'.repeat(24) } }, clock.now(), 'place accepted');
    clock.advance(100);
    const r = orders.reconcile([], [], { cancelForeign: false, gameLookup: () => true, asOf });
    expect(r.closed).toBe(1);
    expect(own.order('old')?.status).toBe('cancelled');
    expect(own.order('new')?.status).toBe('resting');
    // A snapshot requested after the change does close it.
    expect(orders.reconcile([], [], { cancelForeign: false, gameLookup: () => true, asOf: clock.now() }).closed).toBe(
      1,
    );
    expect(own.order('new')?.status).toBe('cancelled');
  });
});
