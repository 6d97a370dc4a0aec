/**
 * The REST layer's memory of orders (original stakes, taken ratios) holds no more than the
 * engine: once the engine forgets a settled game, its orders' entries go too, so a long
 * paper run keeps a bounded memory however many games it trades and settles.
 */
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { createContext } from '../../src/sim/context.ts';
import { manualTime } from '../../src/shared/time.ts';
import { orderMemory } from '../../src/sim/rest/order-memory.ts';

const HOUR = 3_600_000;

describe('order memory retention', () => {
  it('stays bounded over many traded and settled games, and still shows the kept games', () => {
    const time = manualTime(Date.UTC(2026, 2, 1, 12));
    const ctx = createContext({
      time,
      seed: 3,
      log: pino({ level: 'silent' }),
      settings: { settledGameRetentionMs: 2 * HOUR, settledGameRetentionCount: 1_000 },
    });
    const { engine } = ctx;
    for (const id of ['maker', 'taker'])
      expect(engine.addUser({ id, balance: 1e9, commissionRate: 0.01 }).ok).toBe(true);
    const memory = orderMemory(ctx);
    const sizes: number[] = [];
    let lastTaken: { id: string; ratio: number } | null = null;
    engine.onEvent((e) => {
      if (e.kind === 'fill')
        lastTaken = {
          id: e.fill.makerOrderAfter.id,
          ratio: e.fill.makerOrderAfter.filled / e.fill.makerOrderAfter.bet,
        };
    });
    // 200 games over 20 hours of market time, one settled every 6 minutes, 5 fills each.
    for (let n = 0; n < 200; n++) {
      const id = ctx.ids.next();
      const away = ctx.ids.next();
      const home = ctx.ids.next();
      expect(
        engine.addGame({
          id,
          league: 'NBA',
          sport: 'basketball',
          participants: [
            { id: away, longName: 'A', shortName: 'A' },
            { id: home, longName: 'H', shortName: 'H' },
          ],
          start: time.clock.now() + HOUR,
        }).ok,
      ).toBe(true);
      for (let i = 0; i < 5; i++) {
        const [made] = engine.place('maker', [{ gameID: id, type: 'moneyline', side: home, odds: -110, bet: 220 }]);
        if (made?.status !== 'ok' || !made.unmatched) throw new Error('maker order not placed');
        expect(
          engine.place('taker', [{ gameID: id, type: 'moneyline', side: away, odds: 110, bet: 100 }])[0]?.status,
        ).toBe('ok');
      }
      expect(engine.settleGame(id, { away: 100, home: 101 }).ok).toBe(true);
      time.advance(6 * 60_000);
      engine.advance();
      sizes.push(memory.takenRatios.size + memory.stakes.size);
    }
    // Two hours of games (20 of them, 5 maker orders each) at most, with one settlement's lag.
    expect(memory.takenRatios.size).toBeLessThanOrEqual(21 * 5);
    expect(memory.stakes.size).toBeLessThanOrEqual(21 * 10);
    expect(Math.max(...sizes.slice(100))).toBeLessThanOrEqual(Math.max(...sizes.slice(30, 100)));
    // What the engine still keeps still reads its ratio.
    const taken = lastTaken as { id: string; ratio: number } | null;
    expect(taken).not.toBeNull();
    expect(memory.takenRatios.get(taken!.id)).toBeCloseTo(taken!.ratio, 9);
  });
});
