/** Retry-After as ms: delta-seconds or an HTTP date; a missing or bad value gives `fallbackMs`. */
export function retryAfterMs(value: string | undefined, nowMs: number, fallbackMs = 1_000): number {
  if (value === undefined) return fallbackMs;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : fallbackMs;
}
