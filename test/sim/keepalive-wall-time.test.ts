import { afterEach, describe, expect, it } from 'vitest';
import { realTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { FeedClient } from './ws-client.ts';

let sim: TestSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('socket keepalive on a sped-up clock', () => {
  it('is wall time: a peer that answers pings a wall second late keeps its socket at 600×', async () => {
    sim = await startTestSim({ time: realTime({ speed: 600 }) });
    const u = await sim.user('slow-pong');
    const feed = await FeedClient.open(sim.url, '/price-stream', `Bearer ${u.token}`, { autoPong: false });
    let pings = 0;
    // Answer every ping, a wall second late: on the exchange clock that is 600 s, twenty
    // pong timeouts, but a peer answers in wall time.
    feed.ws.on('ping', () => {
      pings++;
      setTimeout(() => {
        if (feed.ws.readyState === feed.ws.OPEN) feed.ws.pong();
      }, 1_000);
    });
    const wallStart = Date.now();
    while (pings === 0 && !feed.closed && Date.now() - wallStart < 15_000) await new Promise((r) => setTimeout(r, 50));
    expect(pings).toBeGreaterThan(0);
    // The first ping comes a wall ping interval (10 s) in, not 10 s of exchange time (17 ms).
    expect(Date.now() - wallStart).toBeGreaterThan(5_000);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(feed.closed).toBe(false);
    feed.ws.close();
  }, 30_000);
});
