/** Units an exchange `epoch` might be written in, tried from the finest: µs (the simulator's), ns, ms, s. */
const SCALES = [1e-3, 1e-6, 1, 1e3] as const;

/** An epoch this far from the clock is not a time but a sequence number. */
const PLAUSIBLE_MS = 24 * 3_600_000;

/**
 * The contract only says a price-feed `epoch` increases. When it reads as a time near the
 * local clock (in µs, ns, ms or s since 1970) it is taken as the exchange's send time, in
 * ms; otherwise null and feed lag falls back to the time since the last event.
 */
export function epochAsTimeMs(epoch: number, nowMs: number): number | null {
  if (!Number.isFinite(epoch) || epoch <= 0) return null;
  for (const scale of SCALES) {
    const ms = epoch * scale;
    if (Math.abs(ms - nowMs) <= PLAUSIBLE_MS) return ms;
  }
  return null;
}
