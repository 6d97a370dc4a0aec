import { describe, expect, it } from 'vitest';
import type { CancelEntry, OrderGateway, PlaceEntry, PlaceOrderInput } from '../../src/exchange/orders/types.ts';
import { manualTime } from '../../src/shared/time.ts';
import type { StrategyInstance } from '../../src/runtime/strategy-instance.ts';
import { flushMicrotasks } from '../support/microtasks.ts';
import { moneylineGame, stubVenue } from '../support/stub-venue.ts';
import { instance, scripted, testRuntime } from './support.ts';

/**
 * A place answered after the runtime stopped wanting the order: a halt's cancelAll passes
 * by an order whose place is in flight, and the plan counts it as covering its intent. Once
 * the answer says it rests, its game must be looked at again, or it rests until something
 * else moves the game. The clock is virtual and the gateway answers when told, so nothing
 * but the answer itself can trigger that look (no tick, no feed event).
 */
const id = (n: number) => n.toString(16).padStart(24, '0');
const GAME = id(1);
const ORDER = id(0xd);

function deferredGateway() {
  const places: { orders: readonly PlaceOrderInput[]; answer: (e: PlaceEntry[]) => void }[] = [];
  const cancels: string[] = [];
  const gateway: OrderGateway = {
    place: (orders) => new Promise((answer) => places.push({ orders, answer })),
    cancel: async (ids) => {
      cancels.push(...ids);
      return ids.map((orderID): CancelEntry => ({
        ok: true,
        orderID,
        odds: null,
        filled: 0,
        offered: 0,
        remaining: 0,
        gameID: GAME,
        userReference: null,
        description: null,
      }));
    },
    heartbeat: async () => {},
  };
  return { gateway, places, cancels };
}

/** The exchange's answer to one place: it rests whole, under `orderID`. */
function rests(o: PlaceOrderInput, orderID: string): PlaceEntry {
  return {
    status: 'accepted',
    userReference: o.userReference ?? null,
    matched: [],
    resting: {
      orderID,
      wagerRequestID: orderID,
      offered: o.bet,
      odds: o.odds,
      type: o.type,
      side: o.side,
      userReference: o.userReference ?? undefined,
    },
  };
}

async function setup(want: { odds: number }, overrides: Partial<StrategyInstance> = {}) {
  const time = manualTime();
  const { gateway, places, cancels } = deferredGateway();
  const g = moneylineGame({
    id: GAME,
    start: '2099-01-01T00:00:00.000Z',
    away: { id: id(2), longName: 'Away', shortName: 'AW' },
    home: { id: id(3), longName: 'Home', shortName: 'HO' },
    offers: [],
  });
  const { venue } = stubVenue({ games: [g], gateway });
  const strategy = instance(
    scripted(() => [{ key: 'h', selection: { type: 'moneyline', team: 'home' }, odds: want.odds, size: 10 }]),
    overrides,
  );
  const runtime = testRuntime(venue, [strategy], { clock: time.clock, scheduler: time.scheduler, tickMs: 60_000 });
  await runtime.start();
  await flushMicrotasks();
  expect(places).toHaveLength(1);
  const answer = async () => {
    places[0]!.answer([rests(places[0]!.orders[0]!, ORDER)]);
    await flushMicrotasks();
  };
  return { runtime, time, places, cancels, answer };
}

describe('runtime: a place answered after the order stopped being wanted', () => {
  it('kill switch while the place is in flight: the order it answers resting is cancelled', async () => {
    const s = await setup({ odds: 110 });
    s.runtime.kill('test');
    await s.answer();
    expect(s.cancels).toEqual([ORDER]);
    expect(s.places).toHaveLength(1);
  });

  it('operator halt while the place is in flight: the order is cancelled at once, however long the throttle', async () => {
    const s = await setup({ odds: 110 }, { throttleMs: 600_000 });
    s.runtime.setMode('halted');
    await s.answer();
    expect(s.cancels).toEqual([ORDER]);
    expect(s.places).toHaveLength(1);
  });

  it('a strategy halted alone while its place is in flight: cancelled too', async () => {
    const s = await setup({ odds: 110 });
    s.runtime.setMode('halted', 'test');
    await s.answer();
    expect(s.cancels).toEqual([ORDER]);
  });

  it('the intent moved while the place was in flight: once answered, the stale order is replaced', async () => {
    const want = { odds: 110 };
    const s = await setup(want);
    want.odds = 150;
    // Every game looked at again: the strategy now wants +150, and the order in flight stands for its key.
    s.runtime.setMode('active');
    await flushMicrotasks();
    expect(s.places).toHaveLength(1);
    await s.answer();
    expect(s.cancels).toEqual([ORDER]);
    expect(s.places.map((p) => p.orders[0]!.odds)).toEqual([110, 150]);
  });

  it('the same under a throttle: the replacement waits out the throttle, then goes', async () => {
    const want = { odds: 110 };
    const s = await setup(want, { throttleMs: 5_000 });
    want.odds = 150;
    s.time.advance(5_000);
    s.runtime.setMode('active');
    await flushMicrotasks();
    await s.answer();
    expect(s.cancels).toEqual([]);
    s.time.advance(5_000);
    await flushMicrotasks();
    expect(s.cancels).toEqual([ORDER]);
    expect(s.places.map((p) => p.orders[0]!.odds)).toEqual([110, 150]);
  });
});
