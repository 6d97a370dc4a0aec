import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/exchange/errors.ts';
import type { MatchedBet, UnmatchedOrder } from '../../src/exchange/orders/types.ts';
import { recoverPlace, type BetsOfReference, type PlaceLookup } from '../../src/exchange/rest/place-recovery.ts';
import { silentLogger } from '../../src/shared/logger.ts';

const GAME = 'a'.repeat(24);
const order = (ref: string) => ({
  gameID: GAME,
  type: 'moneyline' as const,
  side: 'b'.repeat(24),
  odds: 110,
  bet: 50,
  orderType: 'post' as const,
  userReference: ref,
});
const row = (ref: string) =>
  ({
    id: 'c'.repeat(24),
    userReference: ref,
    odds: 110,
    bet: 50,
    filled: 0,
    remaining: 50,
    type: 'moneyline',
  }) as unknown as UnmatchedOrder;
const bet = (ref: string) =>
  ({
    id: 'd'.repeat(24),
    txID: 'e'.repeat(24),
    userReference: ref,
    odds: 110,
    risk: 50,
    win: 55,
  }) as unknown as MatchedBet;
const NONE: BetsOfReference = { unmatched: [], matched: [], graded: [] };

/** A lookup whose listings and exact answers the test sets; `calls` counts each kind of read. */
function lookup(
  exact: ((ref: string, gameID: string) => Promise<BetsOfReference>) | null,
  listing: { unmatched: UnmatchedOrder[]; bets: MatchedBet[] } = { unmatched: [], bets: [] },
) {
  const calls = { exact: [] as string[], unmatched: 0, bets: 0 };
  const l: PlaceLookup = {
    getUnmatched: async () => (calls.unmatched++, listing.unmatched),
    getMatchedBets: async () => (calls.bets++, listing.bets),
    ...(exact
      ? {
          getBetByUserReference: (ref: string, gameID: string) => (
            calls.exact.push(`${ref}@${gameID}`),
            exact(ref, gameID)
          ),
        }
      : {}),
  };
  return { l, calls };
}

const recover = (refs: string[], l: PlaceLookup, graceMs = 0) =>
  recoverPlace(refs.map(order), new NetworkError('place', new Error('reset')), {
    lookup: l,
    scheduler: asyncScheduler,
    logger: silentLogger(),
    graceMs,
  });

describe('place recovery asks the exact lookup by reference first', () => {
  it('an open row under the reference: recovered, resting, with no listing read', async () => {
    const { l, calls } = lookup(async (ref) => ({ unmatched: [row(ref)], matched: [bet(ref)], graded: [] }));
    const [e] = await recover(['ls1:s:1'], l);
    expect(e).toMatchObject({
      status: 'recovered',
      userReference: 'ls1:s:1',
      resting: { id: 'c'.repeat(24) },
      bets: [{ txID: 'e'.repeat(24) }],
    });
    expect(calls).toEqual({ exact: [`ls1:s:1@${GAME}`], unmatched: 0, bets: 0 });
  });

  it('only graded rows: placed and filled on a game now settled', async () => {
    const { l } = lookup(async () => ({ unmatched: [], matched: [], graded: [{}] }));
    expect((await recover(['ls1:s:1'], l))[0]).toMatchObject({ status: 'recovered', resting: null, bets: [] });
  });

  it('nothing under the reference, before and after the grace: absent, still without a listing read', async () => {
    const { l, calls } = lookup(async () => NONE);
    expect((await recover(['ls1:s:1'], l, 5))[0]).toMatchObject({ status: 'absent' });
    expect(calls.exact).toHaveLength(2);
    expect(calls.unmatched + calls.bets).toBe(0);
  });

  it('found after the grace (a live delay): recovered on the second ask', async () => {
    let n = 0;
    const { l } = lookup(async (ref) => (n++ === 0 ? NONE : { unmatched: [row(ref)], matched: [], graded: [] }));
    expect((await recover(['ls1:s:1'], l, 5))[0]).toMatchObject({ status: 'recovered' });
  });

  it('rows under another reference are not this order', async () => {
    const { l } = lookup(async () => ({ unmatched: [row('ls1:s:other')], matched: [bet('ls1:s:other')], graded: [] }));
    expect((await recover(['ls1:s:1'], l))[0]).toMatchObject({ status: 'absent' });
  });

  it('a failed exact lookup falls back to the listing scan, for that order only', async () => {
    const { l, calls } = lookup(
      async (ref) => {
        if (ref === 'ls1:s:2') throw new NetworkError('getBetByUserReference', new Error('reset'));
        return { unmatched: [row(ref)], matched: [], graded: [] };
      },
      { unmatched: [row('ls1:s:2')], bets: [] },
    );
    const entries = await recover(['ls1:s:1', 'ls1:s:2'], l);
    expect(entries.map((e) => e.status)).toEqual(['recovered', 'recovered']);
    expect(calls.unmatched).toBe(1);
  });

  it('without the exact lookup: the listing scan, as before', async () => {
    const { l, calls } = lookup(null, { unmatched: [], bets: [bet('ls1:s:1')] });
    expect((await recover(['ls1:s:1'], l))[0]).toMatchObject({ status: 'recovered', resting: null });
    expect(calls.unmatched).toBe(1);
  });

  it('the exact lookup and the listings both failing: unknown', async () => {
    const l: PlaceLookup = {
      getUnmatched: async () => {
        throw new NetworkError('getUnmatched', new Error('down'));
      },
      getMatchedBets: async () => [],
      getBetByUserReference: async () => {
        throw new NetworkError('getBetByUserReference', new Error('down'));
      },
    };
    expect((await recover(['ls1:s:1'], l))[0]).toMatchObject({ status: 'unknown' });
  });
});
