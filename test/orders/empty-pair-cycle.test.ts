import { describe, expect, it } from 'vitest';
import type { StrategyWork } from '../../src/orders/order-manager.ts';
import { GAME, harness, id, restFirstPlaced, work } from './support.ts';

const ORDER_ID = id(50);

const nothing = { places: 0, cancels: 0, edits: 0, riskRejected: 0, postArb: 0, repriced: 0 };

/** Strategy `strategyId` asks for nothing on `gameID`. */
const empty = (gameID: string, strategyId = 's'): StrategyWork => ({ strategyId, gameID, mode: 'active', intents: [] });

describe('a cycle over pairs that ask for nothing', () => {
  it('on games where no order of ours is live sends and counts nothing', () => {
    const h = harness();
    expect(h.orders.cycle([empty(GAME), empty('elsewhere'), empty(GAME, 't')])).toEqual(nothing);
    expect(h.placed).toEqual([]);
    expect(h.cancelled).toEqual([]);
    expect(h.orders.stats.placeRequests + h.orders.stats.cancelRequests).toBe(0);
  });

  it('beside a pair that quotes, changes nothing of what that pair sends', () => {
    const alone = harness();
    const mixed = harness();
    const a = alone.orders.cycle(work());
    const m = mixed.orders.cycle([empty('elsewhere'), ...work(), empty(GAME, 't')]);
    expect(m).toEqual(a);
    expect(mixed.placed).toEqual(alone.placed);
    expect(mixed.orders.stats).toEqual(alone.orders.stats);
  });

  it('still pulls the orders the strategy holds on the game', () => {
    const h = harness();
    h.orders.cycle(work());
    const { clientId } = restFirstPlaced(h, ORDER_ID);
    expect(h.own.order(clientId)?.status).toBe('resting');
    // Another strategy asking for nothing on the game leaves the order alone; its own strategy pulls it.
    expect(h.orders.cycle([empty(GAME, 't')]).cancels).toBe(0);
    expect(h.orders.cycle([empty(GAME)]).cancels).toBe(1);
    expect(h.cancelled).toEqual([ORDER_ID]);
  });
});
