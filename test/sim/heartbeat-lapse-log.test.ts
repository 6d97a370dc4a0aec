import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

/**
 * A lapse that finds no open order cancels nothing and is not news: a client that pulled
 * its quotes and stopped heartbeating (every clean shutdown) must not read in the log that
 * its heartbeat lapsed. A lapse that cancels orders is logged with the count.
 */
let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('simulator heartbeat lapse log', () => {
  it('says nothing at info when the lapse cancels nothing, and gives the count when it cancels', async () => {
    const lines: { level: number; msg: string; cancelled?: number }[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (l: string) => void lines.push(JSON.parse(l) as { level: number; msg: string }) },
    );
    const time = manualTime(Date.UTC(2026, 3, 1));
    t = await startTestSim({ time, logger });
    const u = await t.user('quiet');
    const g = t.game();
    expect((await t.http('POST', '/user/ordersHeartbeat', { token: u.token, body: { timeout: 6 } })).status).toBe(200);
    time.advance(7_000);
    expect(lines.filter((l) => /heartbeat lapsed/.test(l.msg))).toEqual([]);

    const placed = t.sim.context.engine.place(u.id, [
      { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: 120, bet: 10 },
    ]);
    expect((placed[0] as { status: string }).status).toBe('ok');
    expect((await t.http('POST', '/user/ordersHeartbeat', { token: u.token, body: { timeout: 6 } })).status).toBe(200);
    time.advance(7_000);
    expect(lines.filter((l) => /heartbeat lapsed/.test(l.msg)).map((l) => l.cancelled)).toEqual([1]);
  });
});
