import type { Logger } from 'pino';
import type { SchedulerLike } from 'rxjs';
import { sleep } from '../../shared/sleep.ts';
import { PlaceOutcomeUnknownError } from '../errors.ts';
import { LinesmithError } from '../../shared/errors.ts';
import { openOrdersThenBets } from './open-orders-then-bets.ts';
import type { MatchedBet, PlaceEntry, PlaceOrderInput, UnmatchedOrder } from '../orders/types.ts';

/** What the exchange holds under one userReference on one game: open, matched and graded rows. */
export interface BetsOfReference {
  readonly unmatched: readonly UnmatchedOrder[];
  readonly matched: readonly MatchedBet[];
  readonly graded: readonly unknown[];
}

export interface PlaceLookup {
  getUnmatched(): Promise<readonly UnmatchedOrder[]>;
  getMatchedBets(): Promise<readonly MatchedBet[]>;
  /**
   * Optional: the exact lookup by reference (`GET /user/getBetByUserReference`). Asked first,
   * one request per order; an order whose lookup fails is looked for in the listings instead.
   */
  getBetByUserReference?(userReference: string, gameID: string): Promise<BetsOfReference>;
}

type Order = PlaceOrderInput & { userReference: string };

/** A row under another reference than the one asked for is not this order's (a venue that filters loosely). */
const under = <T extends { userReference?: string | null | undefined }>(rows: readonly T[], ref: string): T[] =>
  rows.filter((r) => r.userReference === undefined || r.userReference === null || r.userReference === ref);

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
 * of sending them again: first by the exact lookup of each reference where the venue has
 * one (its open row, its matched bets, its graded bets), then, for any whose lookup failed,
 * among the open orders (resting remainder) and the matched bets (fills, as taker or maker).
 * An order found nowhere, before and after the grace period, was not placed (or was
 * rejected, which leaves no trace either).
 * A bet graded between the place and the lookup leaves the matched list; the order still
 * counts as found if anything else of it is (the exact lookup lists graded bets too: an
 * order found only there was placed and filled, on a game now settled).
 */
export async function recoverPlace(
  orders: readonly Order[],
  cause: unknown,
  options: PlaceRecoveryOptions,
): Promise<PlaceEntry[]> {
  const found = new Map<string, PlaceEntry>();
  const exact = options.lookup.getBetByUserReference?.bind(options.lookup);
  /** The orders not found yet whose exact lookup failed (all of them without one): for the listings. */
  const lookUpExactly = async (pending: readonly Order[]): Promise<Order[]> => {
    if (exact === undefined) return [...pending];
    const answers = await Promise.all(
      pending.map((o) =>
        exact(o.userReference, o.gameID).then(
          (r) => ({ o, r }),
          (err: unknown) => {
            options.logger.warn(
              { userReference: o.userReference, error: err instanceof LinesmithError ? err.code : String(err) },
              'lookup by userReference failed: looking in the listings',
            );
            return { o, r: null };
          },
        ),
      ),
    );
    const left: Order[] = [];
    for (const { o, r } of answers) {
      if (r === null) {
        left.push(o);
        continue;
      }
      const resting = under(r.unmatched, o.userReference)[0] ?? null;
      const bets = under(r.matched, o.userReference);
      if (resting !== null || bets.length > 0 || r.graded.length > 0)
        found.set(o.userReference, { status: 'recovered', userReference: o.userReference, resting, bets });
    }
    return left;
  };
  const check = async () => {
    const scan = await lookUpExactly(orders.filter((o) => !found.has(o.userReference)));
    if (scan.length === 0) return;
    const { unmatched, bets } = await openOrdersThenBets(options.lookup);
    for (const o of scan) {
      const ref = o.userReference;
      const resting = unmatched.find((u) => u.userReference === ref) ?? null;
      const mine = bets.filter((b) => b.userReference === ref);
      if (resting !== null || mine.length > 0)
        found.set(ref, { status: 'recovered', userReference: ref, resting, bets: mine });
    }
  };
  options.logger.warn(
    { orders: orders.length, error: cause instanceof LinesmithError ? cause.code : String(cause) },
    'place answer lost: looking the orders up by userReference',
  );
  try {
    await check();
    if (found.size < orders.length && options.graceMs > 0) {
      await sleep(options.graceMs, options.scheduler);
      await check();
    }
  } catch (err) {
    const missing = orders.filter((o) => !found.has(o.userReference)).map((o) => o.userReference);
    const unknown = new PlaceOutcomeUnknownError(missing, err);
    options.logger.error(
      { orders: missing.length, error: err instanceof LinesmithError ? err.code : String(err) },
      'place outcome unknown: lookup failed',
    );
    return orders.map(
      (o) => found.get(o.userReference) ?? { status: 'unknown', userReference: o.userReference, error: unknown },
    );
  }
  return orders.map(
    (o) =>
      found.get(o.userReference) ?? {
        status: 'absent',
        userReference: o.userReference,
        reason:
          `no open order or bet with userReference ${o.userReference} after the request ` +
          `failed (${cause instanceof Error ? cause.message : String(cause)})`,
      },
  );
}
