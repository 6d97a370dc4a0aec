import { describe, expect, it } from 'vitest';
import { PlaceOutcomeUnknownError } from '../../src/exchange/errors.ts';
import type { UnmatchedOrder } from '../../src/exchange/orders/types.ts';
import type { UserFeedMessageEvent } from '../../src/exchange/socket/index.ts';
import { PLACE_OUTCOME_GRACE_MS } from '../../src/orders/order-manager.ts';
import { GAME, HOME, harness, id, work } from './support.ts';

const ORDER_ID = id(99);

/** The user feed's "order placed" for our order `ref`, resting in full. */
function orderPlaced(ref: string): UserFeedMessageEvent {
  return {
    type: 'orderPlaced',
    messageID: '1-1',
    source: 'live',
    message: { gameID: GAME },
    order: {
      orderID: ORDER_ID,
      userReference: ref,
      offered: 100,
      remaining: 100,
      filled: 0,
      odds: 110,
      type: 'moneyline',
      side: HOME,
    },
  } as unknown as UserFeedMessageEvent;
}

/** The REST listing of our order `ref`, resting in full. */
function listed(ref: string): UnmatchedOrder {
  return {
    id: ORDER_ID,
    type: 'moneyline',
    bet: 100,
    odds: 110,
    participantID: HOME,
    filled: 0,
    offered: 100,
    remaining: 100,
    userReference: ref,
    game: { id: GAME },
  } as unknown as UnmatchedOrder;
}

/** Place the intent, and lose its answer: the order's outcome is unknown. */
function placeUnknown(h: ReturnType<typeof harness>) {
  h.orders.cycle(work());
  expect(h.placed).toHaveLength(1);
  const ref = h.placed[0]!.userReference!;
  const clientId = h.own.byReference(ref)!.clientId;
  h.clock.advance(1_000);
  h.orders.onResult({
    kind: 'placed',
    clientIds: [clientId],
    entries: [
      {
        status: 'unknown',
        userReference: ref,
        error: new PlaceOutcomeUnknownError([ref], new Error('socket hang up')),
      },
    ],
  });
  expect(h.own.order(clientId)?.status).toBe('unknown');
  return { ref, clientId };
}

const reconcile = (h: ReturnType<typeof harness>, unmatched: readonly UnmatchedOrder[] = []) =>
  h.orders.reconcile(unmatched, [], { cancelForeign: false, gameLookup: () => true, asOf: h.clock.now() });

// An order whose place answer was lost was closed as cancelled by the next REST view that
// did not list it, 3 s later; but the exchange holds a matching order on a live game up to
// 10 s and a request may run 15 s. When it showed up it rested untracked (never cancelled,
// not in the worst case) and the strategy placed a second one.
describe('an order whose place outcome is unknown', () => {
  it('stays unknown and counted when a REST view inside the grace period misses it, and the user feed then brings it in live', () => {
    const h = harness();
    const { ref, clientId } = placeUnknown(h);
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-100, 9);

    h.clock.advance(3_000);
    expect(reconcile(h).closed).toBe(0);
    expect(h.own.order(clientId)?.status).toBe('unknown');
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-100, 9);
    // Its key gets no second order meanwhile.
    h.orders.cycle(work());
    expect(h.placed).toHaveLength(1);

    h.clock.advance(5_000);
    h.orders.onUserFeed(orderPlaced(ref));
    expect(h.own.order(clientId)).toMatchObject({ status: 'resting', orderID: ORDER_ID, remaining: 100 });
    expect(h.own.liveOrders(GAME).map((o) => o.clientId)).toEqual([clientId]);
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-100, 9);

    // Tracked: the strategy keeps it, then cancels it when its price moves.
    h.orders.cycle(work());
    expect(h.placed).toHaveLength(1);
    h.orders.cycle(work(120));
    expect(h.cancelled).toEqual([ORDER_ID]);
  });

  it('is closed by a REST view taken once the grace period has passed with no trace of it', () => {
    const h = harness();
    const { clientId } = placeUnknown(h);
    h.clock.advance(PLACE_OUTCOME_GRACE_MS - 1);
    expect(reconcile(h).closed).toBe(0);
    expect(h.own.order(clientId)?.status).toBe('unknown');
    h.clock.advance(1);
    expect(reconcile(h).closed).toBe(1);
    expect(h.own.order(clientId)?.status).toBe('cancelled');
    expect(h.own.projectedLiability(GAME)).toBe(0);
    // Decided afresh: the intent gets a new order.
    h.orders.cycle(work());
    expect(h.placed).toHaveLength(2);
  });

  it('closed as missing, comes back live when a later REST view lists it, and its duplicate is cancelled', () => {
    // The book lists our home order to takers of away (feeds-and-semantics §3).
    const h = harness(undefined, [{ id: ORDER_ID, team: 'away', odds: -110, size: 90.91 }]);
    const listing = () =>
      h.market
        .game(GAME)!
        .books.get('moneyline')!
        .sides.flatMap((s) => s.offers)
        .find((o) => o.id === ORDER_ID)!;
    expect(listing().mine).toBe(false);
    const { ref, clientId } = placeUnknown(h);
    h.clock.advance(PLACE_OUTCOME_GRACE_MS);
    reconcile(h);
    expect(h.own.order(clientId)?.status).toBe('cancelled');
    h.orders.cycle(work());
    expect(h.placed).toHaveLength(2);
    const duplicate = h.own.byReference(h.placed[1]!.userReference!)!;
    h.orders.onResult({
      kind: 'placed',
      clientIds: [duplicate.clientId],
      entries: [
        {
          status: 'accepted',
          userReference: duplicate.userReference,
          matched: [],
          resting: { orderID: id(98), offered: 100 } as never,
        },
      ],
    });

    h.clock.advance(3_000);
    const r = h.orders.reconcile([listed(ref), { ...listed(duplicate.userReference), id: id(98) }], [], {
      cancelForeign: false,
      gameLookup: () => true,
      asOf: h.clock.now(),
    });
    expect(r.closed).toBe(0);
    expect(h.own.order(clientId)).toMatchObject({ status: 'resting', orderID: ORDER_ID, remaining: 100 });
    expect(h.own.order(clientId)?.closedByAbsence).toBeUndefined();
    expect(listing().mine).toBe(true);
    expect(h.own.liveOrders(GAME)).toHaveLength(2);
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-200, 9);
    // Two orders on one key: one of them goes.
    h.orders.cycle(work());
    expect(h.cancelled).toHaveLength(1);
  });

  it('closed as missing, comes back live on a user-feed orderPlaced', () => {
    const h = harness();
    const { ref, clientId } = placeUnknown(h);
    h.clock.advance(PLACE_OUTCOME_GRACE_MS);
    reconcile(h);
    h.clock.advance(1_000);
    h.orders.onUserFeed(orderPlaced(ref));
    expect(h.own.order(clientId)).toMatchObject({ status: 'resting', orderID: ORDER_ID, remaining: 100 });
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-100, 9);
  });

  it("no trace from the gateway's lookup: unknown and counted, so the key gets no second order, until the user feed shows it resting", () => {
    const h = harness({ maxGameLiability: 120, maxTotalLiability: 5_000, maxOrderSize: 500, maxOrdersPerGame: 20 });
    h.orders.cycle(work());
    const ref = h.placed[0]!.userReference!;
    const clientId = h.own.byReference(ref)!.clientId;
    h.orders.onResult({
      kind: 'placed',
      clientIds: [clientId],
      entries: [{ status: 'absent', userReference: ref, reason: 'no open order or bet' }],
    });
    // The recovery's own grace (11 s) is shorter than a live delay plus the request limit.
    expect(h.own.order(clientId)?.status).toBe('unknown');
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-100, 9);
    h.clock.advance(2_000);
    h.orders.cycle(work());
    expect(h.placed).toHaveLength(1);
    h.orders.onUserFeed(orderPlaced(ref));
    expect(h.own.order(clientId)).toMatchObject({ status: 'resting', orderID: ORDER_ID, remaining: 100 });
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-100, 9);
  });

  it('cancelled on the exchange’s word, then a late "no trace" from a lookup taken before: still not reopenable', () => {
    const h = harness();
    const { ref, clientId } = placeUnknown(h);
    h.orders.onUserFeed(orderPlaced(ref));
    h.orders.onUserFeed({
      type: 'orderCancelled',
      messageID: '1-2',
      source: 'live',
      message: { gameID: GAME },
      order: {
        orderID: ORDER_ID,
        userReference: ref,
        offered: 0,
        remaining: 0,
        filled: 0,
        odds: 110,
        type: 'moneyline',
        side: HOME,
      },
    } as unknown as UserFeedMessageEvent);
    h.own.apply(
      clientId,
      { kind: 'missing', amounts: { remaining: 0 } },
      h.clock.now(),
      'a late lookup found no trace',
    );
    expect(h.own.order(clientId)?.closedByAbsence).toBeUndefined();
    h.orders.reconcile([listed(ref)], [], { cancelForeign: false, gameLookup: () => true });
    expect(h.own.order(clientId)?.status).toBe('cancelled');
    expect(h.own.projectedLiability(GAME)).toBe(0);
  });

  it('once cancelled on the exchange’s word, stays cancelled whatever is listed later', () => {
    const h = harness();
    const { ref, clientId } = placeUnknown(h);
    h.orders.onUserFeed(orderPlaced(ref));
    h.orders.onUserFeed({
      type: 'orderCancelled',
      messageID: '1-2',
      source: 'live',
      message: { gameID: GAME },
      order: {
        orderID: ORDER_ID,
        userReference: ref,
        offered: 0,
        remaining: 0,
        filled: 0,
        odds: 110,
        type: 'moneyline',
        side: HOME,
      },
    } as unknown as UserFeedMessageEvent);
    expect(h.own.order(clientId)?.status).toBe('cancelled');
    h.clock.advance(1_000);
    // A REST view read before the cancel, applied after it.
    h.orders.reconcile([listed(ref)], [], { cancelForeign: false, gameLookup: () => true });
    h.orders.onUserFeed(orderPlaced(ref));
    expect(h.own.order(clientId)?.status).toBe('cancelled');
    expect(h.own.projectedLiability(GAME)).toBe(0);
  });
});
