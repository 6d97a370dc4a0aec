import type { ManualTimeSource } from '../shared/time.ts';

export interface VirtualDriveOptions {
  readonly time: ManualTimeSource;
  /** Exchange time to stop at (ms since the epoch). */
  readonly until: number;
  /**
   * After every due instant: wait until everything it set off has landed (frames read off
   * the sockets, REST reads answered), so the next instant sees the same world every run.
   */
  readonly settle: () => Promise<void>;
  /** Checked between steps; true ends the drive early. */
  readonly stopped: () => boolean;
  /** Exchange time per step between two checks of `stopped` (default 1 000). */
  readonly stepMs?: number;
}

/**
 * Run a manual clock forward as fast as the work allows, one due instant at a time with
 * `settle` between them. With a simulator on that clock, the same seed gives the same
 * exchange-time history however fast or slow the machine is.
 */
export async function driveVirtualTime(o: VirtualDriveOptions): Promise<'until' | 'stopped'> {
  const step = o.stepMs ?? 1_000;
  if (!(step > 0)) throw new RangeError(`stepMs must be positive, got ${step}`);
  for (;;) {
    if (o.stopped()) return 'stopped';
    const now = o.time.clock.now();
    if (now >= o.until) return 'until';
    await o.time.advanceToSettling(Math.min(now + step, o.until), o.settle);
  }
}
