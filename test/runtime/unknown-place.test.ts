import { describe, expect, it } from 'vitest';
import { PlaceOutcomeUnknownError } from '../../src/exchange/errors.ts';
import type { OrderGateway, PlaceOrderInput } from '../../src/exchange/orders/types.ts';
import { PLACE_OUTCOME_GRACE_MS } from '../../src/orders/order-manager.ts';
import { manualTime } from '../../src/shared/time.ts';
import { stepSeconds } from '../support/microtasks.ts';
import { moneylineGame, stubVenue } from '../support/stub-venue.ts';
import { instance, scripted, testRuntime } from './support.ts';

const id = (n: number) => n.toString(16).padStart(24, '0');
const GAME = id(10);

// The runtime looks unknown outcomes up over REST every few seconds. Inside the grace
// period those views must not close the order; the first one after it must, or the order
// would stay unknown (and its key unquoted) for good.
describe('the runtime and an order whose place outcome is unknown', () => {
  it('keeps looking it up, closes it with the first REST view after the grace period, and only then quotes the key again', async () => {
    const time = manualTime(Date.UTC(2026, 0, 1));
    const placed: PlaceOrderInput[] = [];
    const gateway: OrderGateway = {
      // Every place loses its answer, and the lookup by userReference fails too.
      place: async (orders) => {
        placed.push(...orders);
        return orders.map((o) => ({
          status: 'unknown',
          userReference: o.userReference!,
          error: new PlaceOutcomeUnknownError([o.userReference!], new Error('socket hang up')),
        }));
      },
      cancel: async () => [],
      heartbeat: async () => {},
    };
    const game = moneylineGame({
      id: GAME,
      start: '2026-05-01T00:00:00.000Z',
      away: { id: id(1), longName: 'Away', shortName: 'AW' },
      home: { id: id(2), longName: 'Home', shortName: 'HO' },
      offers: [],
    });
    const { venue } = stubVenue({ games: [game], gateway });
    let views = 0;
    const rest = { ...venue.rest, getUnmatched: async () => (views++, []) };
    const runtime = testRuntime(
      { ...venue, rest },
      [
        instance(
          scripted(() => [
            { key: 'k', selection: { type: 'moneyline', team: 'home' }, odds: 110, size: 50, orderType: 'post' },
          ]),
        ),
      ],
      { clock: time.clock, scheduler: time.scheduler, tickMs: 1_000 },
    );
    await runtime.start();
    const step = (ms: number) => stepSeconds(time, ms);
    await step(1_000);
    expect(placed).toHaveLength(1);
    const first = runtime.own.byReference(placed[0]!.userReference!)!;
    expect(first.status).toBe('unknown');
    const viewsAtStart = views;

    await step(PLACE_OUTCOME_GRACE_MS - 5_000);
    expect(views - viewsAtStart).toBeGreaterThanOrEqual(5);
    expect(runtime.own.order(first.clientId)?.status).toBe('unknown');
    expect(runtime.own.projectedLiability(GAME)).toBeCloseTo(-50, 9);
    expect(placed).toHaveLength(1);

    await step(10_000);
    expect(runtime.own.order(first.clientId)).toMatchObject({ status: 'cancelled', closedByAbsence: true });
    expect(placed).toHaveLength(2);

    const stopping = runtime.stop(1_000);
    for (let i = 0; i < 40; i++) {
      await null;
      time.advance(50);
    }
    await stopping;
  });
});
