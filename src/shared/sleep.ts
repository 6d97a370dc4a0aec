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
    const sub = scheduler.schedule(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
