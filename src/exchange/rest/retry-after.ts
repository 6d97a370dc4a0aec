/**
 * The longest wait a Retry-After is taken to ask for. Anything beyond (a date decades ahead,
 * more digits than a double holds) is read as this: a timer cannot wait much longer (Node
 * fires a delay past ~24.8 days at once), and no caller should plan further than a day.
 */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** Retry-After as ms: delta-seconds or an HTTP date; a missing or bad value gives `fallbackMs`. At most a day. */
export function retryAfterMs(value: string | undefined, nowMs: number, fallbackMs = 1_000): number {
  if (value === undefined) return fallbackMs;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.min(MAX_RETRY_AFTER_MS, Math.ceil(Number(v) * 1000));
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - nowMs)) : fallbackMs;
}
