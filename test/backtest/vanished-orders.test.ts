import { describe, expect, it } from 'vitest';
import { VanishedOrders } from '../../src/backtest/venue/vanished-orders.ts';

describe('VanishedOrders', () => {
  it('hands out what was added, in order, and holds none after', () => {
    const v = new VanishedOrders();
    v.add('moneyline', 0, 120, 50, 110);
    v.add('spread:-1.5', 1, -110, 20.5, 39.1);
    expect(v.count).toBe(2);
    expect(v.take()).toEqual([
      { bookKey: 'moneyline', side: 0, rank: 120, stake: 50, volume: 110 },
      { bookKey: 'spread:-1.5', side: 1, rank: -110, stake: 20.5, volume: 39.1 },
    ]);
    expect(v.count).toBe(0);
    expect(v.take()).toEqual([]);
  });

  it('forgets what was cleared: a later instant lists only its own', () => {
    const v = new VanishedOrders();
    v.add('moneyline', 0, 120, 50, 110);
    v.add('moneyline', 0, 115, 10, 21.5);
    v.clear();
    expect(v.count).toBe(0);
    v.add('total:221.5', 1, -105, 7, 13.7);
    expect(v.take()).toEqual([{ bookKey: 'total:221.5', side: 1, rank: -105, stake: 7, volume: 13.7 }]);
  });
});
