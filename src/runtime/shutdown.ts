import type { Logger } from 'pino';
import type { SchedulerLike } from 'rxjs';
import type { OwnOrder } from '../market-model/types.ts';
import type { Clock } from '../shared/clock.ts';
import { decodeReference } from '../exchange/orders/user-reference.ts';
import type { OwnBook } from '../orders/own-book.ts';
import type { Venue } from './venue.ts';

/** How often a clean stop looks again whether our orders are gone, runtime-clock ms. */
const STOP_POLL_MS = 50;

/** What a clean stop drives: the loop's tick, our orders' cancels, and the exchange's word on them. */
export interface ShutdownHost {
  readonly own: Pick<OwnBook, 'liveOrders' | 'isOurOrderID'>;
  readonly rest: Pick<Venue['rest'], 'getUnmatched' | 'cancel'>;
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  /** One turn of the loop (answers applied, housekeeping done). */
  tick(): void;
  /** Cancel every order of ours that is resting or partly filled. */
  cancelAll(): void;
}

/**
 * Until every order of ours is gone or `timeoutMs` has passed: the loop turns, and what is
 * still resting is cancelled again (a cancel can be refused or lost like any request).
 */
export async function waitForOrdersGone(h: ShutdownHost, timeoutMs: number): Promise<void> {
  const deadline = h.clock.now() + timeoutMs;
  for (;;) {
    h.tick();
    const live = h.own.liveOrders();
    const cancellable = live.filter((o) => o.status === 'resting' || o.status === 'partly-filled');
    if (cancellable.length > 0) h.cancelAll();
    if (live.length === 0 || h.clock.now() >= deadline) return;
    await new Promise<void>((resolve) => h.scheduler.schedule(() => resolve(), STOP_POLL_MS));
  }
}

/**
 * The exchange's word, not ours: whatever of ours it still lists open is cancelled by id,
 * then listed again. Resolves with our orders it still lists (all of our live ones when
 * REST cannot be read).
 */
export async function confirmNothingOpen(h: ShutdownHost): Promise<OwnOrder[]> {
  const ours = (u: { readonly id: string; readonly userReference?: string | null }) =>
    decodeReference(u.userReference) !== null || h.own.isOurOrderID(u.id);
  try {
    const open = (await h.rest.getUnmatched()).filter(ours);
    if (open.length > 0) {
      h.logger.warn(
        { count: open.length },
        'orders still open at the exchange after shutdown cancels: cancelling by id',
      );
      await h.rest.cancel(open.map((u) => u.id));
    }
    const left = (await h.rest.getUnmatched()).filter(ours);
    if (left.length > 0) h.logger.error({ count: left.length }, 'orders still open after shutdown');
    return h.own.liveOrders().filter((o) => left.some((u) => u.id === o.orderID));
  } catch (err) {
    h.logger.error({ err }, 'could not confirm shutdown over REST');
    return h.own.liveOrders();
  }
}
