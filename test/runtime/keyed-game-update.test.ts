import { describe, expect, it } from 'vitest';
import type { OrderGateway, PlaceOrderInput } from '../../src/exchange/orders/types.ts';
import { createPriceFrameParser } from '../../src/exchange/socket/price-parse.ts';
import { manualTime } from '../../src/shared/time.ts';
import { keyedGameUpdate, keyedOfferIds, HOME, listed } from '../exchange/support-game-shapes.ts';
import { stepSeconds } from '../support/microtasks.ts';
import { stubVenue } from '../support/stub-venue.ts';
import { instance, listedIds, scripted, testRuntime } from './support.ts';

const GAME = 'cc0000000000000000000001';
const ORDER_ID = 'cc00000000000000000000f1';

/**
 * A game the exchange lists mid-session arrives as a gameUpdate whose spread and total
 * collections are keyed by the line (feeds §8). The frames go through the price feed's real
 * parser (as the socket client does: an event when it parses, a counted skip when it does
 * not), into a runtime on a stub venue that started with an empty board.
 */
describe('the runtime and a gameUpdate with line-keyed collections', () => {
  it('knows and quotes a game listed mid-session, applies its side updates, and cancels its orders on marketClosed', async () => {
    const time = manualTime(Date.UTC(2026, 10, 27, 12));
    const places: PlaceOrderInput[][] = [];
    const cancels: string[][] = [];
    const gateway: OrderGateway = {
      place: async (orders) => {
        places.push([...orders]);
        return orders.map((o) => ({
          status: 'accepted' as const,
          userReference: o.userReference ?? null,
          matched: [],
          resting: {
            orderID: ORDER_ID,
            wagerRequestID: ORDER_ID,
            offered: o.bet,
            odds: o.odds,
            type: o.type,
            side: o.side,
          },
        }));
      },
      cancel: async (ids) => {
        cancels.push([...ids]);
        return ids.map((orderID) => ({
          ok: true as const,
          orderID,
          odds: 110,
          filled: 0,
          offered: 0,
          remaining: 50,
          gameID: GAME,
          userReference: null,
          description: null,
        }));
      },
      heartbeat: async () => {},
    };
    const { venue, prices } = stubVenue({ games: [], gateway });
    const parse = createPriceFrameParser('fast');
    let skipped = 0;
    const send = (frame: unknown): void => {
      const out = parse(JSON.stringify(frame));
      if (out.ok) prices.next(out.event);
      else skipped++;
    };
    const runtime = testRuntime(
      venue,
      [
        instance(
          scripted((v) =>
            v.game.id === GAME
              ? [
                  {
                    key: 'home',
                    selection: { type: 'moneyline', team: 'home' },
                    odds: 110,
                    size: 50,
                    orderType: 'post',
                  },
                ]
              : [],
          ),
        ),
      ],
      {
        clock: time.clock,
        scheduler: time.scheduler,
        tickMs: 1_000,
      },
    );
    await runtime.start();
    const step = (ms: number) => stepSeconds(time, ms);
    await step(1_000);
    expect(runtime.market.has(GAME)).toBe(false);

    send(['gameUpdate', keyedGameUpdate({ id: GAME, start: '2026-11-28T20:00:00.000Z' })]);
    expect(skipped).toBe(0);
    expect(runtime.market.game(GAME)).toMatchObject({ id: GAME, ended: false, mainTotal: 221.5 });

    // Its side updates now land: a total's, labelled with the market's name and a side name.
    const ids = keyedOfferIds(GAME);
    send([
      'orderUpdate',
      {
        epoch: 5,
        gameID: GAME,
        sport: 'basketball',
        league: 'NBA',
        type: 'total',
        participantID: null,
        market: 'main',
        side: 'under',
        OU: 'under',
        total: 221.5,
        sideOrders: [
          listed(
            GAME,
            { type: 'total', OU: 'under', total: 221.5, spread: null, market: 'main', side: 'under' },
            { id: ids.under!, odds: -110, bet: 40 },
          ),
        ],
      },
    ]);
    expect(listedIds(runtime, GAME)).toContain(ids.under);

    await step(2_000);
    expect(places.flat()).toHaveLength(1);
    expect(places[0]![0]).toMatchObject({ gameID: GAME, type: 'moneyline', side: HOME, odds: 110, bet: 50 });
    const order = runtime.own.byReference(places[0]![0]!.userReference!)!;
    expect(order.status).toBe('resting');

    send(['gameUpdate', keyedGameUpdate({ id: GAME, start: '2026-11-28T20:00:00.000Z', messageType: 'marketClosed' })]);
    expect(skipped).toBe(0);
    expect(runtime.market.game(GAME)?.ended).toBe(true);
    await step(2_000);
    expect(cancels.flat()).toEqual([ORDER_ID]);
    expect(runtime.own.order(order.clientId)?.status).toBe('cancelled');
    // Closed: nothing new is placed on it.
    expect(places.flat()).toHaveLength(1);

    const stopping = runtime.stop(1_000);
    for (let i = 0; i < 40; i++) {
      await null;
      time.advance(50);
    }
    await stopping;
  });
});
