import type { Logger } from 'pino';
import type { SchedulerLike } from 'rxjs';
import { sleep } from '../../shared/sleep.ts';
import { LinesmithError, PlaceOutcomeUnknownError } from '../errors.ts';
import { openOrdersThenBets } from './open-orders-then-bets.ts';
import type { MatchedBet, PlaceEntry, PlaceOrderInput, UnmatchedOrder } from '../orders/types.ts';

export interface PlaceLookup {
  getUnmatched(): Promise<readonly UnmatchedOrder[]>;
  getMatchedBets(): Promise<readonly MatchedBet[]>;
}

export interface PlaceRecoveryOptions {
  readonly lookup: PlaceLookup;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  /**
   * How long an order may still appear after its request failed: a matching order on a live
   * game waits its league's delay (up to 10 s) before it executes, and a server may still be
   * working on a request whose connection broke. Default 11 s.
   */
  readonly graceMs: number;
}

/**
 * Finds out what became of orders whose place answer was lost, by userReference, instead
 * of sending them again: among the open orders (resting remainder) and the matched bets
 * (fills, as taker or maker). An order found in neither, before and after the grace period,
 * was not placed (or was rejected, which leaves no trace either).
 * A bet graded between the place and the lookup leaves the matched list; the order still
 * counts as found if anything else of it is.
 */
export async function recoverPlace(orders: readonly (PlaceOrderInput & { userReference: string })[], cause: unknown, options: PlaceRecoveryOptions): Promise<PlaceEntry[]> {
  const found = new Map<string, PlaceEntry>();
  const check = async () => {
    const { unmatched, bets } = await openOrdersThenBets(options.lookup);
    for (const o of orders) {
      const ref = o.userReference;
      if (found.has(ref)) continue;
      const resting = unmatched.find((u) => u.userReference === ref) ?? null;
      const mine = bets.filter((b) => b.userReference === ref);
      if (resting !== null || mine.length > 0) found.set(ref, { status: 'recovered', userReference: ref, resting, bets: mine });
    }
  };
  options.logger.warn({ orders: orders.length, error: cause instanceof LinesmithError ? cause.code : String(cause) }, 'place answer lost: looking the orders up by userReference');
  try {
    await check();
    if (found.size < orders.length && options.graceMs > 0) {
      await sleep(options.graceMs, options.scheduler);
      await check();
    }
  } catch (err) {
    const missing = orders.filter((o) => !found.has(o.userReference)).map((o) => o.userReference);
    const unknown = new PlaceOutcomeUnknownError(missing, err);
    options.logger.error({ orders: missing.length, error: err instanceof LinesmithError ? err.code : String(err) }, 'place outcome unknown: lookup failed');
    return orders.map((o) => found.get(o.userReference) ?? { status: 'unknown', userReference: o.userReference, error: unknown });
  }
  return orders.map(
    (o) =>
      found.get(o.userReference) ?? {
        status: 'absent',
        userReference: o.userReference,
        reason: `no open order or bet with userReference ${o.userReference} after the request failed (${cause instanceof Error ? cause.message : String(cause)})`,
      },
  );
}
