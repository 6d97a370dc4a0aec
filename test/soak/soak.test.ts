import { describe, expect, it } from 'vitest';
import { formatReport } from '../../src/soak/report.ts';
import { runSoak } from '../../src/soak/run.ts';

/**
 * The chaos soak, short: about a minute of wall time at 60x (an hour of exchange time) with
 * every fault on. Asserts the invariants (against the simulator's own ledger) and that the
 * story happened — fills, reconnects, each fault, the lapse, the restart — never how fast:
 * nothing here depends on the machine's speed.
 */
describe('chaos soak (short)', () => {
  it(
    'keeps every invariant with every fault on, through a token rotation, a heartbeat lapse and a crash with restart',
    async () => {
      const report = await runSoak({ wallMs: 55_000, speed: 60, seed: 7 });
      const text = formatReport(report);
      for (const inv of report.invariants) expect(inv.violations, `${inv.name}\n${text}`).toBe(0);
      expect(report.passed).toBe(true);
      expect(report.invariants.map((i) => i.name)).toHaveLength(7);

      // Enough happened for the invariants to mean something.
      expect(report.orders.atSimulator, text).toBeGreaterThan(0);
      expect(report.fills.atSimulator, text).toBeGreaterThan(0);
      expect(report.reconnects, text).toBeGreaterThanOrEqual(1);
      expect(report.restarts).toBe(1);
      const f = report.faults;
      expect(f.socketDrops, text).toBeGreaterThanOrEqual(1);
      expect(f.rest503 + f.restTimeout503 + f.restHangs, text).toBeGreaterThan(0);
      expect(f.rateLimited429, text).toBeGreaterThan(0);
      expect(f.malformedFrames, text).toBeGreaterThan(0);
      expect(f.tokensExpired, text).toBeGreaterThanOrEqual(1);
      expect(f.heartbeatLapses, text).toBe(1);
      expect(f.crashes).toBe(1);
    },
    150_000,
  );
});
