import { passed } from './invariant-result.ts';
import type { SoakReport } from './run.ts';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** The soak's report as printed: what happened, then each invariant with its count and PASS/FAIL. */
export function formatReport(r: SoakReport): string {
  const t = r.timeline;
  const f = r.faults;
  const lines = [
    `chaos soak: ${(t.totalMs / t.speed / 60_000).toFixed(2)} min wall at ${t.speed}x ` +
      `(${(t.totalMs / 3_600_000).toFixed(2)} h of exchange time), seed ${r.seed}`,
    `risk caps: game ${r.limits.maxGameLiability}, total ${r.limits.maxTotalLiability}, order ` +
      `${r.limits.maxOrderSize}, orders/game ${r.limits.maxOrdersPerGame}`,
    '',
    `orders      ${r.orders.atSimulator} at the simulator; ${r.orders.placesSent} places and ` +
      `${r.orders.cancelsSent} cancels sent; ${r.orders.unknownOutcomes} outcomes unknown for a while`,
    `fills       ${r.fills.atSimulator} at the simulator; booked ${r.fills.booked.map((b) => `${b.bot} ${b.fills}`).join(', ')}`,
    `reconnects  ${r.reconnects}`,
    `restarts    ${r.restarts} (start attempts: ${r.startAttempts.join(', ')})`,
    'faults injected:',
    `  socket drops           ${f.socketDrops} (${f.socketsDropped} connections)`,
    `  503 at once            ${f.rest503}`,
    `  503 after timeout      ${f.restTimeout503}`,
    `  unanswered (timeout)   ${f.restHangs}`,
    `  429 (burst)            ${f.rateLimited429}`,
    `  malformed frames       ${f.malformedFrames}`,
    `  tokens expired         ${f.tokensExpired} (rotations seen by the bots: ${f.tokenRotations})`,
    `  heartbeat lapses       ${f.heartbeatLapses} (${f.heartbeatsSuppressed} heartbeats held back)`,
    `  crashes                ${f.crashes}`,
    '',
    "invariants (against the simulator's ledger):",
  ];
  for (const inv of r.invariants) {
    lines.push(
      `  ${passed(inv) ? 'PASS' : 'FAIL'}  ${pad(inv.name, 62)} ${inv.checked} ${inv.unit}, ${inv.violations} violations`,
    );
    for (const n of inv.notes) lines.push(`          ${n}`);
  }
  lines.push('', r.passed ? 'soak PASSED' : 'soak FAILED');
  return lines.join('\n');
}
