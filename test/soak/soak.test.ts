import { describe, expect, it } from 'vitest';
import { formatReport } from '../../src/soak/report.ts';
import { runSoak } from '../../src/soak/run.ts';

const byName = (report: Awaited<ReturnType<typeof runSoak>>, prefix: string) => {
  const inv = report.invariants.find((i) => i.name.startsWith(prefix));
  if (!inv) throw new Error(`no invariant named ${prefix}…`);
  return inv;
};

/**
 * The chaos soak, short: about a minute of wall time at 60x (an hour of exchange time) with
 * every fault on. Asserts the invariants (against the simulator's own ledger) and that the
 * story happened — fills, reconnects, each fault with an effect, the lapse, the restart —
 * never how fast: nothing here depends on the machine's speed. Then a bot broken on purpose,
 * which the same invariants must fail.
 */
describe('chaos soak (short)', () => {
  it('keeps every invariant with every fault on, through a token rotation, a heartbeat lapse and a crash with restart', async () => {
    const report = await runSoak({ wallMs: 50_000, speed: 60, seed: 7 });
    const text = formatReport(report);
    for (const inv of report.invariants) expect(inv.violations, `${inv.name}\n${text}`).toBe(0);
    expect(report.passed).toBe(true);
    expect(report.invariants.map((i) => i.name)).toHaveLength(8);

    // Enough happened for the invariants to mean something (each also fails on nothing checked).
    expect(report.orders.atSimulator, text).toBeGreaterThan(0);
    expect(report.fills.atSimulator, text).toBeGreaterThan(0);
    expect(report.restarts).toBe(1);
    for (const e of report.effects) {
      expect(e.injected, `${e.kind}\n${text}`).toBeGreaterThan(0);
      expect(e.effect, `${e.kind}\n${text}`).toBeGreaterThan(0);
    }
    expect(report.faults.heartbeatLapses, text).toBe(1);
    expect(byName(report, 'heartbeat').checked, text).toBeGreaterThan(0);
    expect(byName(report, 'projected').checked, text).toBeGreaterThan(100);
  }, 150_000);

  it('fails a bot with its risk caps off and no heartbeat, and a run where a fault was never injected', async () => {
    const report = await runSoak({
      wallMs: 24_000,
      speed: 60,
      seed: 7,
      sabotage: { riskCapsOff: true, noHeartbeat: true },
      faults: { malformedFeedRate: 0 },
    });
    const text = formatReport(report);
    expect(report.passed).toBe(false);
    const exposure = byName(report, 'projected');
    expect(exposure.violations, text).toBeGreaterThan(0);
    expect(exposure.notes.join('\n'), text).toMatch(/projected worst case on game \w+ was -\d+\.\d\d \(cap −150\)/);
    const lapse = byName(report, 'heartbeat');
    expect(lapse.notes.join('\n'), text).toMatch(/not armed/);
    expect(lapse.notes.join('\n'), text).toMatch(/nothing to check/);
    const faults = byName(report, 'every fault kind');
    expect(faults.notes.join('\n'), text).toMatch(/malformed frames: never injected/);
    expect(faults.notes.join('\n'), text).toMatch(/heartbeat lapse: injected \d+ times with no effect/);
  }, 150_000);
});
