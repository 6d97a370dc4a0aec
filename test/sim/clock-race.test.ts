import { afterEach, describe, expect, it } from 'vitest';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

describe('manual clock jumps', () => {
  let t: TestSim | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('a jump past both a live delay and the 15 s server timeout still answers the delayed place', async () => {
    t = await startTestSim({ time: manualTime(Date.UTC(2026, 5, 1)) });
    const maker = await t.user('maker');
    const taker = await t.user('taker');
    const game = t.game({ league: 'NBA', live: true });
    const home = game.participants[1].id;
    const away = game.participants[0].id;
    const rest = await t.http('POST', '/session/v3/place', {
      token: maker.token,
      body: { orders: [{ gameID: game.id, type: 'moneyline', side: home, odds: -120, bet: 120 }] },
    });
    expect(rest.body.data.createdSessions[0].unmatched.offered).toBe(120);
    // The taker crosses on a live NBA game: 5 s delay. Jump 20 s in one admin call.
    const pending = t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: { orders: [{ gameID: game.id, type: 'moneyline', side: away, odds: 120, bet: 100 }] },
    });
    await new Promise((r) => setTimeout(r, 50));
    const jump = await t.http('POST', '/admin/clock', { body: { advanceMs: 20_000 } });
    expect(jump.status).toBe(200);
    const placed = await pending;
    expect(placed.status).toBe(200);
    expect(placed.body.data.createdSessions[0].matched[0].amount).toBeCloseTo(100, 9);
  });
});
