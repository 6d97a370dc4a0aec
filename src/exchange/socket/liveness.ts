/**
 * Socket liveness for a feed that counts as down after `staleWallMs` of wall time with no
 * answer, not even a pong. Socket timers run on the exchange clock, `speed` times faster on
 * paper, so both are scaled to keep that wall-time meaning.
 */
export function socketLiveness(staleWallMs: number, speed = 1): { pingIntervalMs: number; pongTimeoutMs: number } {
  return {
    pingIntervalMs: Math.max(100, Math.min(10_000, Math.floor(staleWallMs / 3))) * speed,
    pongTimeoutMs: staleWallMs * speed,
  };
}
