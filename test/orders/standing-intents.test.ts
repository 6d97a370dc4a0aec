import { describe, expect, it } from 'vitest';
import { HttpStatusError } from '../../src/exchange/errors.ts';
import { harness, id, restFirstPlaced, work } from './support.ts';

const ORDER_ID = id(60);

/**
 * A strategy whose intents stand hands the order manager the same list on every cycle (the
 * runtime reuses it while nothing the strategy read changed). The plan must still follow
 * every change of the orders it holds, and every cooldown that runs out.
 */
describe('intents that stand (the same list on every cycle)', () => {
  /** Places the order of `w` and has it rest, answered as accepted. */
  function resting() {
    const h = harness();
    const w = work();
    h.orders.cycle(w);
    const { clientId } = restFirstPlaced(h, ORDER_ID);
    expect(h.own.order(clientId)?.status).toBe('resting');
    return { h, w, clientId };
  }

  it('send nothing while the order that serves them rests', () => {
    const { h, w } = resting();
    for (let n = 0; n < 3; n++) expect(h.orders.cycle(w).places + h.orders.cycle(w).cancels).toBe(0);
    expect(h.placed).toHaveLength(1);
    expect(h.cancelled).toEqual([]);
  });

  it('place again once that order is gone', () => {
    const { h, w, clientId } = resting();
    h.orders.cycle(w);
    h.own.apply(clientId, { kind: 'cancelled', amounts: { remaining: 0 } }, h.clock.now(), 'cancelled by the exchange');
    expect(h.orders.cycle(w).places).toBe(1);
    expect(h.placed).toHaveLength(2);
  });

  it('replace that order once a fill leaves less of it than they ask for', () => {
    const { h, w, clientId } = resting();
    h.orders.cycle(w);
    h.own.apply(
      clientId,
      { kind: 'partly-filled', amounts: { filled: 40, remaining: 60 } },
      h.clock.now(),
      'partly filled',
    );
    const s = h.orders.cycle(w);
    expect(s.cancels).toBe(1);
    expect(h.cancelled).toEqual([ORDER_ID]);
  });

  it('place once the cooldown after a refusal runs out', () => {
    const h = harness();
    const w = work();
    h.orders.cycle(w);
    const ref = h.placed[0]!.userReference!;
    const clientId = h.own.byReference(ref)!.clientId;
    h.orders.onResult({
      kind: 'placed',
      clientIds: [clientId],
      entries: [
        { status: 'failed', userReference: ref, error: new HttpStatusError('place', 400, 'bad order') },
      ] as never,
    });
    expect(h.orders.cycle(w).places).toBe(0);
    expect(h.orders.cycle(w).places).toBe(0);
    h.clock.advance(h.orders.cooldownMs);
    expect(h.orders.cycle(w).places).toBe(1);
    expect(h.placed).toHaveLength(2);
  });
});
