import type { LookupOrder, UnmatchedOrder } from '../exchange/schemas/orders.ts';

export type TotalSide = 'over' | 'under';

/**
 * Which side of a total each of `unmatched`'s totals that `needsSide` picks backs, read
 * through lookupOrder. getUnmatched's listing (feeds-and-semantics §7) names no side for a
 * total, and an exchange that sends `OU` there may follow lookupOrder's convention, where
 * `OU` is the side the order is offered as, the opposite of its own (exchange-api §2.3,
 * feeds §3). An order adopted on the wrong side has its worst case counted on the wrong
 * outcome, so reconcile adopts a total only with its side from here. An order whose lookup
 * fails, or gives no `OU`, is left out: not adopted on a guess.
 */
export async function totalSidesOf(
  unmatched: readonly UnmatchedOrder[],
  needsSide: (u: UnmatchedOrder) => boolean,
  lookup: (orderID: string) => Promise<LookupOrder>,
): Promise<Map<string, TotalSide>> {
  const out = new Map<string, TotalSide>();
  await Promise.all(
    unmatched
      .filter((u) => u.type === 'total' && needsSide(u))
      .map(async (u) => {
        const offered = await lookup(u.id).then(
          (o) => o.OU,
          () => null,
        );
        if (offered === 'over' || offered === 'under') out.set(u.id, offered === 'over' ? 'under' : 'over');
      }),
  );
  return out;
}
