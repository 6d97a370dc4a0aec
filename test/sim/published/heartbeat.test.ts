import { describe, expect, it } from 'vitest';
import { any, clients, startSim, closeAfterEach } from './support.ts';

closeAfterEach();

describe('orders socket: heartbeat without a requestID', () => {
  it('answers with a requestID the server made', async () => {
    const t = await startSim();
    const u = await t.user('ps-hb');
    const c = await clients.open('/orders/ws', u.token);
    c.send(['heartbeat', { requestTimeout: 20 }]);
    const r = (await c.take(any)).value;
    expect(r).toEqual({
      requestID: expect.any(String),
      data: { type: 'heartbeatAck', serverTime: expect.any(String), timeoutSec: 20 },
    });
    expect(r.requestID.length).toBeGreaterThan(0);
    c.send(['heartbeat', { requestTimeout: 20 }]);
    const again = (await c.take(any)).value;
    expect(again.requestID).not.toBe(r.requestID);
    // A failed heartbeat without one gets one too.
    c.send(['heartbeat', {}]);
    expect((await c.take(any)).value).toEqual({ requestID: expect.any(String), error: 'Invalid heartbeat timeout' });
  });
});
