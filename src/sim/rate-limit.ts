import type { Clock } from '../shared/clock.ts';

/** Idle keys are dropped every this many admissions, so the map tracks only active clients. */
const SWEEP_EVERY = 10_000;

export type Admission = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/**
 * At most `limit` requests per key in any rolling `windowMs`, as the exchange counts them.
 * Each key keeps a ring of its last `limit` admission times: admitted iff the oldest of
 * them left the window.
 */
export class RollingWindowLimiter {
  readonly #rings = new Map<string, { times: Float64Array; next: number; count: number }>();
  #admitsSinceSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock,
  ) {
    if (!(limit >= 1) || !(windowMs > 0)) throw new RangeError('limit ≥ 1 and windowMs > 0 required');
  }

  admit(key: string): Admission {
    if (++this.#admitsSinceSweep >= SWEEP_EVERY) {
      this.#admitsSinceSweep = 0;
      this.sweep();
    }
    const now = this.clock.now();
    let ring = this.#rings.get(key);
    if (!ring) {
      ring = { times: new Float64Array(this.limit), next: 0, count: 0 };
      this.#rings.set(key, ring);
    }
    if (ring.count === this.limit) {
      const oldest = ring.times[ring.next]!;
      const freeAt = oldest + this.windowMs;
      if (freeAt > now) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
    } else {
      ring.count++;
    }
    ring.times[ring.next] = now;
    ring.next = (ring.next + 1) % this.limit;
    return { ok: true };
  }

  /** Drop keys idle for a whole window (keeps memory bounded under many IPs). */
  sweep(): void {
    const horizon = this.clock.now() - this.windowMs;
    for (const [key, ring] of this.#rings) {
      const newest = ring.times[(ring.next + this.limit - 1) % this.limit]!;
      if (newest <= horizon) this.#rings.delete(key);
    }
  }
}
