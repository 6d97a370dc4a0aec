import { describe, expect, it } from 'vitest';
import { NetworkError, RequestAbortedError } from '../../src/exchange/errors.ts';
import type { CancelledOrder, EditEntry } from '../../src/exchange/orders/types.ts';
import type { UserFeedMessageEvent } from '../../src/exchange/socket/index.ts';
import type { StrategyWork } from '../../src/orders/order-manager.ts';
import { moneylineGame } from '../support/stub-venue.ts';
import { AWAY, editHarness, GAME, HOME, work } from './support.ts';

const X = 'a'.repeat(24);
const Y = 'c'.repeat(24);

type H = ReturnType<typeof editHarness>;

/** Quote k at +110 and let it rest as order X (100, nothing matched). */
async function resting(h: H): Promise<string> {
  h.orders.cycle(work(110));
  const ref = h.places[0]!.orders[0]!.userReference!;
  h.places[0]!.answer.resolve([
    {
      status: 'accepted',
      userReference: ref,
      matched: [],
      resting: { orderID: X, wagerRequestID: 'b'.repeat(24), offered: 100, odds: 110, type: 'moneyline', side: HOME },
    },
  ]);
  await h.settle();
  const o = h.own.byReference(ref)!;
  expect(o).toMatchObject({ status: 'resting', orderID: X, remaining: 100 });
  return o.clientId;
}

const original = (orderID: string, filled: number, remaining: number, userReference: string): CancelledOrder => ({
  ok: true,
  orderID,
  odds: 110,
  filled,
  offered: 0,
  remaining,
  gameID: GAME,
  userReference,
  description: null,
});
const restingAt = (orderID: string, offered: number, odds: number, userReference: string) => ({
  orderID,
  wagerRequestID: 'd'.repeat(24),
  offered,
  odds,
  type: 'moneyline',
  side: HOME,
  userReference,
});

/** A user-feed message about one of our home moneyline orders. */
function feed(
  type: 'orderPlaced' | 'makerFill' | 'orderCancelled',
  o: {
    orderID: string;
    ref: string;
    offered: number;
    remaining: number;
    odds?: number;
    txID?: string;
    amount?: number;
  },
): UserFeedMessageEvent {
  const order = {
    orderID: o.orderID,
    userReference: o.ref,
    offered: o.offered,
    remaining: o.remaining,
    filled: o.offered - o.remaining,
    odds: o.odds ?? 110,
    type: 'moneyline',
    side: HOME,
  };
  const message = { gameID: GAME };
  if (type !== 'makerFill')
    return { type, order, message, messageID: `m-${Math.random()}`, source: 'live' } as unknown as UserFeedMessageEvent;
  const amount = o.amount!;
  const fill = {
    txID: o.txID!,
    orderID: o.orderID,
    userReference: o.ref,
    type: 'moneyline',
    side: HOME,
    odds: o.odds ?? 110,
    amount,
    risk: amount,
    win: amount * 1.1,
  };
  return {
    type,
    order,
    fill,
    message,
    partial: o.remaining > 0,
    messageID: `m-${o.txID}`,
    source: 'live',
  } as unknown as UserFeedMessageEvent;
}

/** Where home loses, each live home order counts its whole remainder; fills lose their stake. */
const projected = (h: H) => h.own.projectedLiability(GAME);

describe('a re-pricing of a resting post goes out as one edit', () => {
  it('sends one edit (no cancel, no place) and counts both the old remainder and the whole new volume until it is answered', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    const summary = h.orders.cycle(work(120));
    expect(summary).toMatchObject({ edits: 1, cancels: 0, places: 0 });
    expect(h.cancels).toHaveLength(0);
    expect(h.places).toHaveLength(1);
    expect(h.edits).toHaveLength(1);
    const edit = h.edits[0]!.input;
    expect(edit).toMatchObject({ orderID: X, odds: 120, bet: 100, orderType: 'post' });
    const next = h.own.byReference(edit.userReference)!;
    expect(h.own.order(oldId)?.status).toBe('pending-cancel');
    expect(next).toMatchObject({ status: 'pending-place', odds: 120, bet: 100, intentKey: 'k' });
    expect(h.orders.stats).toMatchObject({ editRequests: 1, placeRequests: 1, cancelRequests: 0 });
    // In flight: the old 100 may fill and then the edit still places the new 100.
    expect(projected(h)).toBeCloseTo(-200, 9);
    // The key is covered while the edit is in flight: nothing else is sent for it.
    h.orders.cycle(work(130));
    expect(h.edits).toHaveLength(1);
    expect(h.places).toHaveLength(1);
    expect(h.cancels).toHaveLength(0);

    h.edits[0]!.answer.resolve({
      status: 'accepted',
      original: original(X, 0, 100, h.own.order(oldId)!.userReference),
      matched: [],
      resting: restingAt(X, 100, 120, edit.userReference),
    });
    await h.settle();
    expect(h.own.order(oldId)).toMatchObject({ status: 'cancelled', remaining: 0 });
    expect(h.own.order(next.clientId)).toMatchObject({ status: 'resting', orderID: X, remaining: 100, odds: 120 });
    expect(h.own.byOrderID(X)?.clientId).toBe(next.clientId);
    expect(projected(h)).toBeCloseTo(-100, 9);
    expect(h.own.liveOrders(GAME)).toHaveLength(1);
  });

  it('does not edit an order placed before its game started: the exchange expires it at the start', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    // The game (start 2030-05-01) has started; the feed has not said so, nor reported the expiry yet.
    h.clock.set(Date.parse('2030-05-01T00:00:00.500Z'));
    const summary = h.orders.cycle(work(120));
    expect(h.edits).toHaveLength(0);
    expect(summary).toMatchObject({ edits: 0, cancels: 1, places: 1 });
    expect(h.cancels[0]!.ids).toEqual([X]);
    expect(h.places).toHaveLength(2);
    expect(h.places[1]!.orders[0]).toMatchObject({ odds: 120, bet: 100 });
    expect(h.own.order(oldId)?.status).toBe('pending-cancel');
  });

  it('falls back to a cancel and a place on a venue that cannot edit', async () => {
    const h = editHarness({ edit: false });
    await resting(h);
    expect(h.orders.cycle(work(120))).toMatchObject({ edits: 0, cancels: 1, places: 1 });
    expect(h.cancels).toHaveLength(1);
    expect(h.places).toHaveLength(2);
  });

  it('edits only where it takes no more requests than a cancel batch and a place batch', async () => {
    const two = (odds: number, extra = false): StrategyWork[] => [
      {
        strategyId: 's',
        gameID: GAME,
        mode: 'active',
        intents: [
          { key: 'a', selection: { type: 'moneyline', team: 'home' }, odds, size: 100, orderType: 'post' },
          { key: 'b', selection: { type: 'moneyline', team: 'away' }, odds: odds - 230, size: 100, orderType: 'post' },
          ...(extra
            ? [
                {
                  key: 'c',
                  selection: { type: 'moneyline' as const, team: 'home' as const },
                  odds: 150,
                  size: 50,
                  orderType: 'post' as const,
                },
              ]
            : []),
        ],
      },
    ];
    const restBoth = async (h: H) => {
      h.orders.cycle(two(110));
      const [a, b] = h.places[0]!.orders;
      h.places[0]!.answer.resolve([
        {
          status: 'accepted',
          userReference: a!.userReference!,
          matched: [],
          resting: restingAt(X, 100, 110, a!.userReference!),
        },
        {
          status: 'accepted',
          userReference: b!.userReference!,
          matched: [],
          resting: restingAt(Y, 100, -120, b!.userReference!),
        },
      ]);
      await h.settle();
    };
    // Two re-pricings alone: two edits, as many requests as a cancel and a place.
    const h = editHarness();
    await restBoth(h);
    expect(h.orders.cycle(two(112))).toMatchObject({ edits: 2, cancels: 0, places: 0 });
    // Two re-pricings and a new quote: three requests as edits, two as batches.
    const g = editHarness();
    await restBoth(g);
    expect(g.orders.cycle(two(112, true))).toMatchObject({ edits: 0, cancels: 2, places: 3 });
    expect(g.edits).toHaveLength(0);
  });

  it('does not edit an order into another order type: a post that would cross goes as a postArb, a limit may take', async () => {
    const h = editHarness();
    await resting(h);
    // Then a taker of home is offered +121: a home post at +120 would meet it, so it goes as a postArb.
    h.market.applySnapshot(
      moneylineGame({
        id: GAME,
        start: '2030-05-01T00:00:00.000Z',
        away: { id: AWAY, longName: 'Away', shortName: 'AW' },
        home: { id: HOME, longName: 'Home', shortName: 'HO' },
        offers: [{ id: 'e'.repeat(24), team: 'home', odds: 121, size: 100 }],
      }),
      1,
    );
    expect(h.orders.cycle(work(120))).toMatchObject({ edits: 0, cancels: 1, places: 1, postArb: 1 });
    expect(h.edits).toHaveLength(0);
    const g = editHarness();
    await resting(g);
    const limit: StrategyWork[] = [
      {
        strategyId: 's',
        gameID: GAME,
        mode: 'active',
        intents: [
          { key: 'k', selection: { type: 'moneyline', team: 'home' }, odds: 120, size: 100, orderType: 'limit' },
        ],
      },
    ];
    expect(g.orders.cycle(limit)).toMatchObject({ edits: 0, cancels: 1, places: 1 });
    expect(g.edits).toHaveLength(0);
  });
});

describe('an edit of a partly filled order', () => {
  it('counts the fills, the old remainder and the whole new volume in flight, then the fills and the new order', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    const oldRef = h.own.order(oldId)!.userReference;
    h.orders.onUserFeed(
      feed('makerFill', { orderID: X, ref: oldRef, offered: 100, remaining: 60, txID: 't1', amount: 40 }),
    );
    expect(h.own.order(oldId)).toMatchObject({ status: 'partly-filled', remaining: 60 });
    expect(projected(h)).toBeCloseTo(-100, 9);
    // 60 left against the wanted 100: re-placed whole, as one edit the exchange turns into a cancel and a new order.
    h.orders.cycle(work(110));
    expect(h.edits).toHaveLength(1);
    expect(h.edits[0]!.input).toMatchObject({ orderID: X, bet: 100, odds: 110 });
    const ref = h.edits[0]!.input.userReference;
    // Fills 40 + old remainder 60 + new 100.
    expect(projected(h)).toBeCloseTo(-200, 9);
    h.edits[0]!.answer.resolve({
      status: 'accepted',
      original: original(X, 40, 60, oldRef),
      matched: [],
      resting: restingAt(Y, 100, 110, ref),
    });
    await h.settle();
    expect(h.own.order(oldId)).toMatchObject({ status: 'cancelled', filled: 40 });
    expect(h.own.byReference(ref)).toMatchObject({ status: 'resting', orderID: Y, remaining: 100 });
    expect(projected(h)).toBeCloseTo(-140, 9);
  });

  it('an order hit while its edit is on the way ends as its fills plus the whole new volume: the count in flight covered it', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    const oldRef = h.own.order(oldId)!.userReference;
    h.orders.cycle(work(120));
    const ref = h.edits[0]!.input.userReference;
    const inFlight = projected(h);
    // Taken for 60 before the edit ran: the exchange finds it partly filled and replaces it whole.
    h.orders.onUserFeed(
      feed('makerFill', { orderID: X, ref: oldRef, offered: 100, remaining: 40, txID: 't1', amount: 60 }),
    );
    expect(projected(h)).toBeCloseTo(inFlight, 9);
    h.orders.onUserFeed(feed('orderCancelled', { orderID: X, ref: oldRef, offered: 100, remaining: 0 }));
    h.orders.onUserFeed(feed('orderPlaced', { orderID: Y, ref, offered: 100, remaining: 100, odds: 120 }));
    h.edits[0]!.answer.resolve({
      status: 'accepted',
      original: original(X, 60, 40, oldRef),
      matched: [],
      resting: restingAt(Y, 100, 120, ref),
    });
    await h.settle();
    const after = projected(h);
    expect(after).toBeCloseTo(-160, 9);
    // The worst of the outcomes is the old remainder plus the new volume: the larger of the
    // two alone (-100) would have understated what happened (-160).
    expect(inFlight).toBeCloseTo(-200, 9);
    expect(inFlight).toBeLessThanOrEqual(after);
    expect(h.own.order(oldId)).toMatchObject({ status: 'cancelled' });
    expect(h.own.byReference(ref)).toMatchObject({ status: 'resting', orderID: Y, remaining: 100 });
  });
});

describe('every answer of an edit leaves both records right', () => {
  it('the user feed first (amended in place under the new reference), then the answer', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    h.orders.cycle(work(120));
    const ref = h.edits[0]!.input.userReference;
    h.orders.onUserFeed(feed('orderPlaced', { orderID: X, ref, offered: 100, remaining: 100, odds: 120 }));
    expect(h.own.byReference(ref)).toMatchObject({ status: 'resting', orderID: X });
    h.orders.onUserFeed(
      feed('makerFill', { orderID: X, ref, offered: 100, remaining: 70, odds: 120, txID: 't9', amount: 30 }),
    );
    h.edits[0]!.answer.resolve({
      status: 'accepted',
      original: original(X, 0, 100, h.own.order(oldId)!.userReference),
      matched: [],
      resting: restingAt(X, 100, 120, ref),
    });
    await h.settle();
    expect(h.own.order(oldId)?.status).toBe('cancelled');
    expect(h.own.byReference(ref)).toMatchObject({ status: 'partly-filled', remaining: 70 });
    expect(projected(h)).toBeCloseTo(-100, 9);
  });

  it('a venue that keeps the old reference on an amended order: its later messages reach the new record by id', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    const oldRef = h.own.order(oldId)!.userReference;
    h.orders.cycle(work(120));
    const ref = h.edits[0]!.input.userReference;
    h.edits[0]!.answer.resolve({
      status: 'accepted',
      original: original(X, 0, 100, oldRef),
      matched: [],
      resting: restingAt(X, 100, 120, oldRef),
    });
    await h.settle();
    h.orders.onUserFeed(
      feed('makerFill', { orderID: X, ref: oldRef, offered: 100, remaining: 0, odds: 120, txID: 't2', amount: 100 }),
    );
    expect(h.own.byReference(ref)).toMatchObject({ status: 'filled', remaining: 0 });
    expect(projected(h)).toBeCloseTo(-100, 9);
  });

  it('refused on its terms: the old order rests as it was, the new record is rejected and its key cools down', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    h.orders.cycle(work(120));
    const ref = h.edits[0]!.input.userReference;
    h.edits[0]!.answer.resolve({
      status: 'rejected',
      errorType: 'rejected_order_type_rules',
      error: 'post order cannot have matches',
    });
    await h.settle();
    expect(h.own.order(oldId)).toMatchObject({ status: 'resting', remaining: 100 });
    expect(h.own.byReference(ref)?.status).toBe('rejected');
    expect(h.notices.some((n) => n.kind === 'exchange-rejected')).toBe(true);
    expect(projected(h)).toBeCloseTo(-100, 9);
    // Cooling down: the key is not sent again at once (the old order, off its intent, is cancelled).
    h.orders.cycle(work(120));
    expect(h.edits).toHaveLength(1);
  });

  it('refused for another reason (the order may be gone): the old order is unknown until the feed or REST says', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    h.orders.cycle(work(120));
    h.edits[0]!.answer.resolve({ status: 'rejected', errorType: 'validation_error', error: 'order is not open' });
    await h.settle();
    expect(h.own.order(oldId)?.status).toBe('unknown');
    expect(projected(h)).toBeCloseTo(-100, 9);
  });

  it('not sent (withdrawn by a halt): the old order rests, the new record is rejected, and the key is decided again at once', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    h.orders.cycle(work(120));
    expect(h.edits[0]!.signal?.aborted).toBe(false);
    h.orders.closeGate('shutdown');
    expect(h.edits[0]!.signal?.aborted).toBe(true);
    h.edits[0]!.answer.reject(new RequestAbortedError('editOrder', 'test'));
    await h.settle();
    expect(h.own.order(oldId)).toMatchObject({ status: 'resting' });
    expect(h.own.byReference(h.edits[0]!.input.userReference)?.status).toBe('rejected');
    h.orders.openGate();
    h.orders.cycle(work(120));
    expect(h.edits).toHaveLength(2);
  });

  it('failed before it ran (an entry): the same', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    h.orders.cycle(work(120));
    h.edits[0]!.answer.resolve({
      status: 'failed',
      error: new RequestAbortedError('editOrder', 'budget'),
    } satisfies EditEntry);
    await h.settle();
    expect(h.own.order(oldId)?.status).toBe('resting');
    expect(projected(h)).toBeCloseTo(-100, 9);
  });

  it('answer lost: both unknown and counted, then a REST view settles them (edited: the new terms rest under the same id)', async () => {
    const h = editHarness();
    const oldId = await resting(h);
    h.orders.cycle(work(120));
    const ref = h.edits[0]!.input.userReference;
    h.edits[0]!.answer.reject(new NetworkError('editOrder', new Error('socket hang up')));
    await h.settle();
    const next = h.own.byReference(ref)!;
    expect(h.own.order(oldId)?.status).toBe('unknown');
    expect(next.status).toBe('unknown');
    expect(projected(h)).toBeCloseTo(-200, 9);
    // Nothing else is sent for the key while its outcome is unknown.
    h.orders.cycle(work(130));
    expect(h.edits).toHaveLength(1);
    expect(h.cancels).toHaveLength(0);
    h.clock.advance(100);
    const listed = {
      id: X,
      odds: 120,
      bet: 100,
      filled: 0,
      remaining: 100,
      userReference: ref,
      type: 'moneyline',
      participantID: HOME,
      game: { id: GAME },
    };
    h.orders.reconcile([listed as never], [], { cancelForeign: false, gameLookup: () => true, asOf: h.clock.now() });
    expect(h.own.byReference(ref)).toMatchObject({ status: 'resting', orderID: X, remaining: 100 });
    expect(h.own.order(oldId)?.status).toBe('cancelled');
    expect(projected(h)).toBeCloseTo(-100, 9);
  });
});

describe('cancelling everything in one request', () => {
  const cancelled = (orderID: string, userReference: string | null, filled = 0): CancelledOrder => ({
    ok: true,
    orderID,
    odds: 110,
    filled,
    offered: 0,
    remaining: 100 - filled,
    gameID: GAME,
    userReference,
    description: null,
  });

  it(
    'the kill: one cancel of every order (cancelAllOrders); ours it lists are cancelled, one ' +
      'it does not list is unknown, foreign ones are left out',
    async () => {
      const h = editHarness();
      const first = await resting(h);
      // A second quote, on away, resting as Y.
      h.orders.cycle([
        {
          strategyId: 's',
          gameID: GAME,
          mode: 'active',
          intents: [
            { key: 'k', selection: { type: 'moneyline', team: 'home' }, odds: 110, size: 100, orderType: 'post' },
            { key: 'j', selection: { type: 'moneyline', team: 'away' }, odds: -150, size: 100, orderType: 'post' },
          ],
        },
      ]);
      const jRef = h.places[1]!.orders[0]!.userReference!;
      h.places[1]!.answer.resolve([
        { status: 'accepted', userReference: jRef, matched: [], resting: restingAt(Y, 100, -150, jRef) },
      ]);
      await h.settle();
      const second = h.own.byReference(jRef)!.clientId;
      expect(h.orders.cancelAll('kill switch', {}, { sweep: true })).toBe(2);
      expect(h.sweeps).toEqual([expect.objectContaining({ gameID: null })]);
      expect(h.cancels).toHaveLength(0);
      expect(h.orders.stats).toMatchObject({ cancelRequests: 1, sweepRequests: 1 });
      h.sweeps[0]!.answer.resolve([
        cancelled(X, h.own.order(first)!.userReference, 10),
        cancelled('f'.repeat(24), null),
      ]);
      await h.settle();
      expect(h.own.order(first)).toMatchObject({ status: 'cancelled', filled: 10 });
      // Its 10 matched is counted where it loses until its fill is booked.
      expect(h.own.awaitedFill(first)).toBeCloseTo(10, 9);
      expect(h.own.order(second)?.status).toBe('unknown');
    },
  );

  it('a game halt: one cancelAllOrdersForGame; it also reaches an order whose place is unanswered', async () => {
    const h = editHarness();
    const first = await resting(h);
    h.orders.cycle(work(120));
    const ref = h.edits[0]!.input.userReference;
    expect(h.orders.cancelAll('game closed', { gameID: GAME }, { sweep: true })).toBe(0);
    expect(h.sweeps).toEqual([expect.objectContaining({ gameID: GAME })]);
    h.sweeps[0]!.answer.resolve([cancelled(X, ref)]);
    await h.settle();
    expect(h.own.byReference(ref)?.status).toBe('cancelled');
    // The edit's answer after the sweep moves nothing back.
    h.edits[0]!.answer.resolve({
      status: 'accepted',
      original: original(X, 0, 100, h.own.order(first)!.userReference),
      matched: [],
      resting: restingAt(X, 100, 120, ref),
    });
    await h.settle();
    expect(h.own.byReference(ref)?.status).toBe('cancelled');
    expect(h.own.order(first)?.status).toBe('cancelled');
    expect(h.own.liveOrders(GAME)).toHaveLength(0);
    expect(projected(h)).toBe(0);
  });

  it('nothing of ours on the game (or at all): no request', () => {
    const h = editHarness();
    expect(h.orders.cancelAll('game closed', { gameID: GAME }, { sweep: true })).toBe(0);
    expect(h.orders.cancelAll('kill switch', {}, { sweep: true })).toBe(0);
    expect(h.sweeps).toHaveLength(0);
    expect(h.orders.stats.cancelRequests).toBe(0);
  });

  it("a strategy's halt never sweeps: other strategies' orders are not its to cancel", async () => {
    const h = editHarness();
    await resting(h);
    expect(h.orders.cancelAll('halt s', { strategyId: 's' }, { sweep: true })).toBe(1);
    expect(h.sweeps).toHaveLength(0);
    expect(h.cancels).toHaveLength(1);
  });
});
