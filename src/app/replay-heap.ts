import v8 from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';
import { REPLAY_SEMI_SPACE_MB } from '../loader/replay-process.mjs';

/**
 * How far V8 lets the old generation grow past what a full collection left live, in a
 * process that replays recordings (a backtest, a sweep and its worker threads, a queue
 * worker): to one and a half times the live heap.
 *
 * A replay promotes garbage at a steady rate: book sides, orders and answers that outlive two
 * young-generation collections and die soon after, in the old generation, which only a
 * full collection frees. By default V8 sets the next limit at up to four times the live
 * heap when collections are cheap next to the program, as they are in a replay (the live
 * heap is small): over the 1.7M-event recording a strategy that quotes nothing grew its old
 * generation to about 140 MB around 30 MB live and peaked at about 340 MB resident. A
 * fixed-spread replay of it keeps some 70 MB live; with the limit at twice the live heap it
 * peaked at 370-376 MB resident, at one and a half times at 310-315 MB, at one and a quarter
 * at 302 MB. Full collections come more often, each as cheap (marking follows the live heap,
 * not the garbage): its events per CPU second stayed within the spread of runs on the shared
 * machine at all three (16.6-18.4k).
 *
 * This flag, unlike the young generation's size, is read at every full collection, so it
 * can be set after the process started. V8's flags are the process's: worker threads
 * started later have it too.
 */
const REPLAY_HEAP_GROWING_PERCENT = 50;

/** Sets the replay's heap growth for this process (again and again is the same as once). */
export function applyReplayHeapSettings(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${REPLAY_HEAP_GROWING_PERCENT}`);
}

/**
 * The old generation's ceiling for a thread that replays variants (a sweep's lane, a queue
 * worker's lane), MB. Threads collect their garbage later than the process's main thread:
 * over the 1.7M-event recording a fixed-spread variant's thread grew to about 550 MB with
 * the growth setting above, though everything it keeps fits in far less (the same variant
 * runs to the end under a 256 MB ceiling, at about 310 MB resident for the thread). Near its
 * ceiling V8 collects fully before it grows, so the ceiling bounds the garbage, not the work;
 * a variant whose live state truly outgrows it fails alone, with V8's out-of-memory message,
 * and the sweep goes on. `--thread-heap` sets another.
 */
export const VARIANT_THREAD_OLD_SPACE_MB = 256;

/** The resource limits a variant-replaying thread starts with. */
export function variantThreadLimits(oldSpaceMb = VARIANT_THREAD_OLD_SPACE_MB): ResourceLimits {
  // The replay's young generation, as `linesmith backtest`'s process has it: three semi-spaces.
  return { maxOldGenerationSizeMb: oldSpaceMb, maxYoungGenerationSizeMb: 3 * REPLAY_SEMI_SPACE_MB };
}
