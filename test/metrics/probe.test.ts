import { BehaviorSubject, NEVER, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AccountSnapshot, ConnectionStates } from '../../src/exchange/client.ts';
import type { CancelEntry, OrderGateway, PlaceEntry, PlaceOrderInput } from '../../src/exchange/orders/types.ts';
import type { PriceFeedEvent } from '../../src/exchange/schemas/price-feed.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import type { UserFeedEvent } from '../../src/exchange/socket/user-feed-events.ts';
import { epochAsTimeMs } from '../../src/metrics/epoch.ts';
import { instrumentVenue } from '../../src/metrics/instrument-venue.ts';
import { RuntimeProbe } from '../../src/metrics/probe.ts';
import { bucketQuantile } from '../../src/metrics/quantile.ts';
import type { Venue } from '../../src/runtime/venue.ts';

const NOW = Date.UTC(2026, 5, 1, 12);

/** A monotonic clock the test moves by hand. */
function hand(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

function orderUpdate(epoch: number): PriceFeedEvent {
  return {
    type: 'orderUpdate',
    payload: {
      epoch,
      gameID: 'a'.repeat(24),
      sport: 'basketball',
      league: 'NBA',
      type: 'moneyline',
      participantID: 'b'.repeat(24),
      sideOrders: [],
    } as never,
  };
}

function fakeVenue() {
  const calls: string[] = [];
  const gateway: OrderGateway = {
    place: async (orders: readonly PlaceOrderInput[]) => {
      calls.push(`place ${orders.length}`);
      return [] as PlaceEntry[];
    },
    cancel: async (ids: readonly string[]) => {
      calls.push(`cancel ${ids.length}`);
      return [] as CancelEntry[];
    },
    heartbeat: async () => void calls.push('heartbeat'),
  };
  const prices = new Subject<PriceFeedEvent>();
  const user = new Subject<UserFeedEvent<AccountSnapshot>>();
  const open: SocketState = { status: 'open', attempt: 0, lastError: null, since: 0, connection: 1, retryInMs: null };
  const venue: Venue = {
    rest: {
      ...gateway,
      login: async () => ({}),
      getMe: async () => ({ id: 'u', username: 'x', displayBalance: 1, commissionCharged: 0.01 }) as never,
      getOrderbook: async () => [],
      getUnmatched: async () => [],
      getMatchedBets: async () => [],
      gradedWalker: () => NEVER as never,
    },
    orders: { ...gateway, start: () => calls.push('orders start') },
    priceFeed: {
      events$: prices,
      subscribe: () => void calls.push('subscribe'),
      start: () => calls.push('price start'),
    },
    userFeed: { events$: user, recovering$: new BehaviorSubject(false), start: () => calls.push('user start') },
    states$: new BehaviorSubject<ConnectionStates>({ price: open, user: open, orders: open }),
  };
  return { venue, prices, user, calls };
}

describe('epochAsTimeMs', () => {
  it('reads µs (the simulator), ns, ms and s near the clock, and nothing else', () => {
    expect(epochAsTimeMs((NOW - 5) * 1000, NOW)).toBe(NOW - 5);
    expect(epochAsTimeMs((NOW - 5) * 1e6, NOW)).toBe(NOW - 5);
    expect(epochAsTimeMs(NOW - 5, NOW)).toBe(NOW - 5);
    expect(epochAsTimeMs((NOW - 5000) / 1000, NOW)).toBe(NOW - 5000);
    expect(epochAsTimeMs(42, NOW)).toBeNull(); // a sequence number
    expect(epochAsTimeMs(0, NOW)).toBeNull();
    expect(epochAsTimeMs(Number.NaN, NOW)).toBeNull();
  });
});

describe('bucketQuantile', () => {
  it('interpolates within the bucket holding the rank, as histogram_quantile does', () => {
    const b = [
      { le: 0.001, count: 1 },
      { le: 0.01, count: 3 },
      { le: Infinity, count: 4 },
    ];
    expect(bucketQuantile(0.25, b)).toBeCloseTo(0.001, 12);
    expect(bucketQuantile(0.5, b)).toBeCloseTo(0.0055, 12);
    expect(bucketQuantile(0.99, b)).toBe(0.01); // in +Inf: the highest finite bound
    expect(bucketQuantile(0.5, [{ le: Infinity, count: 0 }])).toBeNull();
  });
});

describe('instrumentVenue and RuntimeProbe', () => {
  it('measures a price event to the first order it leads to, once, on the probe’s monotonic time', () => {
    const t = hand();
    const ticks: number[] = [];
    const probe = new RuntimeProbe({
      clock: { now: () => NOW },
      monotonic: t.now,
      onTickToOrder: (s) => ticks.push(s),
    });
    const { venue, prices, calls } = fakeVenue();
    const v = instrumentVenue(venue, probe);
    // A stand-in for the runtime's loop: synchronous inside the subscriber, as Runtime.dispatch is.
    v.priceFeed.events$.subscribe(() => {
      t.advance(0.25);
      void v.rest.cancel(['x']);
      t.advance(0.5);
      void v.rest.place([{} as PlaceOrderInput]);
    });
    prices.next(orderUpdate(NOW * 1000));
    expect(ticks).toEqual([0.25 / 1000]);
    // Orders outside a price event's dispatch (throttled requotes, shutdown) are not tick-to-order.
    void v.rest.place([]);
    void v.orders.cancel([]);
    expect(ticks).toHaveLength(1);
    expect(calls).toEqual(['cancel 1', 'place 1', 'place 0', 'cancel 0']);
  });

  it('passes everything else through to the venue', async () => {
    const probe = new RuntimeProbe({ clock: { now: () => NOW } });
    const { venue, calls } = fakeVenue();
    const v = instrumentVenue(venue, probe);
    v.priceFeed.subscribe({ gameIDs: [], leagueIDs: ['NBA'], sportIDs: [] }, { replace: true });
    v.priceFeed.start();
    v.userFeed.start();
    v.orders.start();
    await v.rest.heartbeat(20);
    expect(await v.rest.getUnmatched()).toEqual([]);
    expect(calls).toEqual(['subscribe', 'price start', 'user start', 'orders start', 'heartbeat']);
    expect(v.states$).toBe(venue.states$);
  });

  it('reports feed lag from a time-like epoch in wall time (clock speed divided out), and idle time since the last event', () => {
    const t = hand();
    const probe = new RuntimeProbe({ clock: { now: () => NOW }, speed: 60, monotonic: t.now });
    const { venue, prices, user } = fakeVenue();
    const v = instrumentVenue(venue, probe);
    v.priceFeed.events$.subscribe();
    v.userFeed.events$.subscribe();
    expect(probe.feed('price')).toEqual({ idleSeconds: null, epochLagSeconds: null, events: 0 });
    prices.next(orderUpdate((NOW - 600) * 1000)); // 600 ms of exchange time at 60× = 10 ms of wall time
    t.advance(2_000);
    user.next({ type: 'unclassified' } as never);
    t.advance(500);
    expect(probe.feed('price')).toEqual({ idleSeconds: 2.5, epochLagSeconds: 0.01, events: 1 });
    expect(probe.feed('user')).toEqual({ idleSeconds: 0.5, epochLagSeconds: null, events: 1 });
    prices.next(orderUpdate(7)); // a sequence number: the last timed lag stands
    expect(probe.feed('price').epochLagSeconds).toBe(0.01);
  });
});
