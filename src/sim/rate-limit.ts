import type { Clock } from '../shared/clock.ts';
import { RollingWindow } from '../shared/rolling-window.ts';

/** Idle keys are dropped every this many admissions, so the map tracks only active clients. */
const SWEEP_EVERY = 10_000;

export type Admission = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/**
 * At most `limit` requests per key in any rolling `windowMs`, as the exchange counts them
 * (one RollingWindow per key).
 */
export class RollingWindowLimiter {
  readonly #windows = new Map<string, RollingWindow>();
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
    let window = this.#windows.get(key);
    if (!window) {
      window = new RollingWindow(this.limit, this.windowMs);
      this.#windows.set(key, window);
    }
    const freeAt = window.freeAt(now);
    if (freeAt > now) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
    window.record(now);
    return { ok: true };
  }

  /** Drop keys idle for a whole window (keeps memory bounded under many IPs). */
  sweep(): void {
    const horizon = this.clock.now() - this.windowMs;
    for (const [key, window] of this.#windows) if (window.newest <= horizon) this.#windows.delete(key);
  }
}
