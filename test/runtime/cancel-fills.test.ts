import { describe, expect, it } from 'vitest';
import type { MatchedBet, OrderGateway, PlaceOrderInput } from '../../src/exchange/orders/types.ts';
import { manualTime } from '../../src/shared/time.ts';
import { stepSeconds } from '../support/microtasks.ts';
import { moneylineGame, stubVenue } from '../support/stub-venue.ts';
import { instance, scripted, testRuntime } from './support.ts';

const id = (n: number) => n.toString(16).padStart(24, '0');
const GAME = id(10);
const HOME = id(2);
const ORDER_ID = id(50);

// A cancel answer said 60 of our order had matched; the user feed's makerFill never came.
// The runtime must read REST's matched bets for it, not wait on the feed for good.
describe('the runtime and a fill a cancel answer reported', () => {
  it("books it from REST's matched bets when the user feed does not deliver it", async () => {
    const time = manualTime(Date.UTC(2026, 0, 1));
    let ref = '';
    const gateway: OrderGateway = {
      place: async (orders: readonly PlaceOrderInput[]) => {
        ref = orders[0]!.userReference!;
        return [
          { status: 'accepted', userReference: ref, matched: [], resting: { orderID: ORDER_ID, offered: 50 } as never },
        ];
      },
      cancel: async (ids) =>
        ids.map((orderID) => ({
          ok: true,
          orderID,
          odds: 110,
          filled: 30,
          offered: 50,
          remaining: 20,
          gameID: GAME,
          userReference: ref,
          description: null,
        })),
      heartbeat: async () => {},
    };
    const game = moneylineGame({
      id: GAME,
      start: '2026-05-01T00:00:00.000Z',
      away: { id: id(1), longName: 'Away', shortName: 'AW' },
      home: { id: HOME, longName: 'Home', shortName: 'HO' },
      offers: [],
    });
    const { venue } = stubVenue({ games: [game], gateway });
    let betReads = 0;
    const bets = (): MatchedBet[] =>
      ref
        ? [
            {
              id: ORDER_ID,
              txID: id(700),
              type: 'moneyline',
              bet: 50,
              odds: 110,
              participantID: HOME,
              userReference: ref,
              origin: 'offer',
              risk: 30,
              win: 33,
              game: { id: GAME },
            } as unknown as MatchedBet,
          ]
        : [];
    const rest = { ...venue.rest, getUnmatched: async () => [], getMatchedBets: async () => (betReads++, bets()) };
    let quoting = true;
    const runtime = testRuntime(
      { ...venue, rest },
      [
        instance(
          scripted(() =>
            quoting
              ? [{ key: 'k', selection: { type: 'moneyline', team: 'home' }, odds: 110, size: 50, orderType: 'post' }]
              : [],
          ),
        ),
      ],
      { clock: time.clock, scheduler: time.scheduler, tickMs: 1_000 },
    );
    await runtime.start();
    const step = (ms: number) => stepSeconds(time, ms);
    await step(1_000);
    const order = runtime.own.byReference(ref)!;
    expect(order.status).toBe('resting');

    quoting = false;
    runtime.setMode('active');
    await step(1_000);
    expect(runtime.own.order(order.clientId)?.status).toBe('cancelled');
    expect(runtime.own.projectedLiability(GAME)).toBeCloseTo(-30, 9);
    expect(runtime.own.awaitedFill(order.clientId)).toBeCloseTo(30, 9);
    const readsAtCancel = betReads;

    await step(5_000);
    expect(runtime.own.fills(GAME).map((f) => f.txID)).toEqual([id(700)]);
    expect(betReads).toBeGreaterThan(readsAtCancel);
    expect(runtime.own.awaitedFill(order.clientId)).toBe(0);
    expect(runtime.own.projectedLiability(GAME)).toBeCloseTo(-30, 9);
    // Nothing awaited, nothing unknown: no more reads.
    const settled = betReads;
    await step(10_000);
    expect(betReads).toBe(settled);

    const stopping = runtime.stop(1_000);
    for (let i = 0; i < 40; i++) {
      await null;
      time.advance(50);
    }
    await stopping;
  });
});
