import type { SchedulerLike } from 'rxjs';

/**
 * Resolve after `ms` on the given scheduler (a virtual one in tests and backtests). An
 * aborted signal rejects at once with its reason and cancels the timer.
 */
export function sleep(ms: number, scheduler: SchedulerLike, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      sub.unsubscribe();
      reject(signal?.reason);
    };
    const sub = scheduler.schedule(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits for a loop that waits on every turn (a poll): see `napper`. */
export interface Napper {
  /** Resolve after `ms`, or at once when the signal aborts (never rejects). */
  nap(ms: number): Promise<void>;
  /** Stop listening to the signal; a pending nap resolves now. */
  dispose(): void;
}

/**
 * Naps that share one abort listener. A loop polling once a second for hours would
 * otherwise add and remove a listener on every turn, which costs more than the wait itself
 * on a virtual clock. Unlike `sleep`, an abort ends the nap quietly: the loop checks its
 * signal when it wakes. One nap at a time (a loop awaits each before the next), and none
 * after `dispose`.
 */
export function napper(scheduler: SchedulerLike, signal?: AbortSignal): Napper {
  let wake: (() => void) | null = null;
  let timer: { unsubscribe(): void } | null = null;
  const interrupt = () => {
    timer?.unsubscribe();
    timer = null;
    const w = wake;
    wake = null;
    w?.();
  };
  signal?.addEventListener('abort', interrupt, { once: true });
  return {
    nap: (ms) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) {
          resolve();
          return;
        }
        wake = resolve;
        timer = scheduler.schedule(
          () => {
            timer = null;
            wake = null;
            resolve();
          },
          Math.max(0, ms),
        );
      }),
    dispose: () => {
      signal?.removeEventListener('abort', interrupt);
      interrupt();
    },
  };
}
