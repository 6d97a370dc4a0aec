import { describe, expect, it } from 'vitest';
import { HeartbeatWatch } from '../../src/runtime/heartbeat-watch.ts';

describe('HeartbeatWatch', () => {
  it("puts cancels down to the switch only once the last accepted heartbeat's deadline has passed", () => {
    const w = new HeartbeatWatch();
    expect(w.cancelled(5_000, 0).heartbeat).toBe(false); // no heartbeat yet: no switch armed
    w.accepted(10_000, 20_000);
    expect(w.cancelled(29_999, 0).heartbeat).toBe(false);
    expect(w.cancelled(30_000, 1_000)).toEqual({ heartbeat: true, newLapse: true });
    expect(w.cancelled(30_050, 2_000)).toEqual({ heartbeat: true, newLapse: false });
    expect(w.stats).toEqual({ lapses: 1, cancels: 2, lastLapseAt: 30_000 });
  });

  it("does not count the bot's re-quotes made after the lapse was seen, while heartbeats still fail", () => {
    const w = new HeartbeatWatch();
    w.accepted(0, 20_000);
    w.cancelled(21_000, 5_000);
    // Placed after the switch fired (it is disarmed until a heartbeat is accepted), then cancelled by the bot.
    expect(w.cancelled(25_000, 22_000).heartbeat).toBe(false);
    expect(w.stats.cancels).toBe(1);
  });

  it('starts a new lapse after a heartbeat is accepted again', () => {
    const w = new HeartbeatWatch();
    w.accepted(0, 20_000);
    w.cancelled(21_000, 5_000);
    w.accepted(30_000, 20_000);
    expect(w.cancelled(40_000, 31_000).heartbeat).toBe(false);
    expect(w.cancelled(51_000, 31_000)).toEqual({ heartbeat: true, newLapse: true });
    expect(w.stats).toMatchObject({ lapses: 2, cancels: 2 });
  });
});
