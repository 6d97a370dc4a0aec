import { describe, expect, it } from 'vitest';
import { sessionHeartbeat } from '../../src/app/session-heartbeat.ts';

describe('the heartbeat of a session', () => {
  it('at 60x keeps the configured timeout as wall time: 20 s is 1200 exchange seconds, sent every 6.7 wall seconds', () => {
    const h = sessionHeartbeat(20, 60);
    expect(h).toEqual({ timeoutSeconds: 1_200, everyMs: 400_000 });
    // In wall time: the switch fires after 20 s of silence, and two heartbeats may be lost first.
    expect(h.timeoutSeconds / 60).toBe(20);
    expect(h.everyMs / 60 / 1000).toBeCloseTo(6.67, 2);
  });

  it('is the configuration as written at speed 1 (a live run)', () => {
    expect(sessionHeartbeat(20)).toEqual({ timeoutSeconds: 20, everyMs: 6_666 });
    expect(sessionHeartbeat(6, 1)).toEqual({ timeoutSeconds: 6, everyMs: 2_000 });
  });

  it('stays within what the exchange takes: whole seconds from 6 to 86400', () => {
    expect(sessionHeartbeat(3_600, 60).timeoutSeconds).toBe(86_400);
    expect(sessionHeartbeat(7, 2.5).timeoutSeconds).toBe(18);
    expect(sessionHeartbeat(6, 0.5).timeoutSeconds).toBe(6);
  });
});
