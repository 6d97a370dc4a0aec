import { describe, expect, it } from 'vitest';
import { HttpStatusError, RateLimitedError, RequestAbortedError } from '../../src/exchange/errors.ts';
import { GAME, harness, work } from './support.ts';

/** The first place of `work()` comes back `failed` with `error`. */
function failFirst(error: Error) {
  const h = harness();
  h.orders.cycle(work());
  const ref = h.placed[0]!.userReference!;
  const clientId = h.own.byReference(ref)!.clientId;
  h.orders.onResult({
    kind: 'placed',
    clientIds: [clientId],
    entries: [{ status: 'failed', userReference: ref, error }] as never,
  });
  expect(h.own.order(clientId)?.status).toBe('rejected');
  return h;
}

describe('a place refused before it was sent', () => {
  it('(rate limited, or withdrawn) is decided again at once: nothing was said of the order itself', () => {
    for (const error of [
      new RateLimitedError('place', 2_000, 'budget'),
      new RateLimitedError('place', 1_000),
      new RequestAbortedError('place', 'halt'),
    ]) {
      const h = failFirst(error);
      h.orders.cycle(work());
      expect(h.placed, error.message).toHaveLength(2);
    }
  });

  it('refused by the exchange for the order itself sits out the cooldown', () => {
    const h = failFirst(new HttpStatusError('place', 400, 'bad order'));
    h.orders.cycle(work());
    expect(h.placed).toHaveLength(1);
    h.clock.advance(h.orders.cooldownMs);
    h.orders.cycle(work());
    expect(h.placed).toHaveLength(2);
  });
});

describe('withdrawing places still waiting to go', () => {
  it('a halt withdraws them; one game closing does not', () => {
    const h = harness();
    h.orders.cycle(work());
    expect(h.signals[0]?.aborted).toBe(false);
    h.orders.cancelAll('game closed', { gameID: 'another' });
    h.orders.cancelAll('game closed', { gameID: GAME });
    expect(h.signals[0]?.aborted).toBe(false);
    h.orders.cancelAll('halted: strategy s', { strategyId: 's' });
    expect(h.signals[0]?.aborted).toBe(true);
  });
});
