import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeClient } from '../../src/exchange/client.ts';
import { BehaviorSubject } from 'rxjs';
import type { ConnectionStates } from '../../src/exchange/client.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import { FeedsNotOpenError } from '../../src/runtime/errors.ts';
import type { Venue } from '../../src/runtime/venue.ts';
import { manualTime } from '../../src/shared/time.ts';
import { stubVenue } from '../support/stub-venue.ts';
import { capturedLogger } from '../exchange/support-rest.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { instance, listedIds, scripted, simClient, testRuntime } from './support.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The client as a venue, some of its REST reads replaced. */
function withRest(
  exchange: ExchangeClient,
  reads: Partial<Pick<Venue['rest'], 'getOrderbook' | 'getUnmatched' | 'getMatchedBets'>>,
): Venue {
  const rest = exchange.rest;
  return {
    ...exchange,
    rest: {
      login: () => rest.login(),
      getMe: () => rest.getMe(),
      getOrderbook: (f) => rest.getOrderbook(f),
      getUnmatched: () => rest.getUnmatched(),
      getMatchedBets: () => rest.getMatchedBets(),
      gradedWalker: (o) => rest.gradedWalker(o),
      place: (o) => rest.place(o),
      cancel: (ids) => rest.cancel(ids),
      heartbeat: (s) => rest.heartbeat(s),
      ...reads,
    },
  };
}

/**
 * A fresh process reads its account over REST, then follows the user feed. What happens
 * between the two must not be lost: a fill there, never seen, leaves the own book with an
 * order the exchange has filled and a position it does not know (liability understated).
 */
describe('start-up: the account changes while it is read over REST', () => {
  it('a fill between the REST read and the first feed message reaches the own book', async () => {
    t = await startTestSim();
    const sim = t;
    const g = sim.game();
    const home = g.participants[1].id;
    const maker = await sim.user('maker');
    const taker = await sim.user('taker');
    const placed = await sim.http('POST', '/session/v3/place', {
      token: maker.token,
      body: {
        orders: [
          {
            gameID: g.id,
            type: 'moneyline',
            side: home,
            odds: 120,
            bet: 40,
            orderType: 'post',
            userReference: 'ls1:other:old0',
          },
        ],
      },
    });
    expect(placed.status).toBe(200);
    const orderID = sim.sim.context.engine.openOrders(maker.id)[0]!.id;

    const exchange = simClient(sim, maker);
    // Both REST answers are read (open orders, then bets) before the order is taken; the take happens before the runtime has them.
    const venue = withRest(exchange, {
      getMatchedBets: async () => {
        const bets = await exchange.rest.getMatchedBets();
        const took = await sim.http('POST', '/session/v3/place', {
          token: taker.token,
          body: {
            orders: [
              {
                gameID: g.id,
                type: 'moneyline',
                side: g.participants[0].id,
                odds: -120,
                bet: 48,
                orderType: 'fillOrKill',
              },
            ],
          },
        });
        expect(took.status).toBe(200);
        expect(sim.sim.context.engine.openOrders(maker.id)).toEqual([]);
        return bets;
      },
    });
    const log = capturedLogger('info');
    const runtime = testRuntime(venue, [instance(scripted(() => []))], {
      tickMs: 100,
      runId: 'new',
      logger: log.logger,
    });
    await runtime.start();
    try {
      // The REST read said "resting, 40 left"; the feed's message of the fill must correct it.
      await vi.waitFor(() => expect(runtime.own.byOrderID(orderID)).toMatchObject({ status: 'filled', remaining: 0 }), {
        timeout: 5_000,
        interval: 20,
      });
      expect(runtime.own.liveOrders(g.id)).toEqual([]);
      expect(runtime.status().fills).toBe(1);
      // The fill's message came while REST was read: held, then applied on top of the REST state.
      expect(JSON.parse(log.lines.find((l) => l.includes('model loaded'))!).heldFeedEvents).toBeGreaterThanOrEqual(1);
    } finally {
      await runtime.stop(3_000);
      await exchange.close();
    }
  });

  it("a price change between the orderbook read and the price feed's first message reaches the book model", async () => {
    t = await startTestSim();
    const sim = t;
    const g = sim.game();
    const bot = await sim.user('bot');
    const other = await sim.user('other');
    const exchange = simClient(sim, bot);
    let posted = '';
    const venue = withRest(exchange, {
      getOrderbook: async (f) => {
        const book = await exchange.rest.getOrderbook(f);
        const res = await sim.http('POST', '/session/v3/place', {
          token: other.token,
          body: {
            orders: [
              { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: 135, bet: 25, orderType: 'post' },
            ],
          },
        });
        expect(res.status).toBe(200);
        posted = sim.sim.context.engine.openOrders(other.id)[0]!.id;
        return book;
      },
    });
    const runtime = testRuntime(venue, [instance(scripted(() => []))], { tickMs: 100 });
    await runtime.start();
    try {
      await vi.waitFor(() => expect(listedIds(runtime, g.id)).toContain(posted), { timeout: 5_000, interval: 20 });
    } finally {
      await runtime.stop(3_000);
      await exchange.close();
    }
  });

  it("feeds that do not open fail the start with a stable code, on the runtime's clock", async () => {
    const { venue } = stubVenue({ games: [] });
    const connecting: SocketState = {
      status: 'connecting',
      attempt: 3,
      lastError: new Error('ECONNREFUSED'),
      since: 0,
      connection: 0,
      retryInMs: 1_000,
    };
    const open: SocketState = {
      ...connecting,
      status: 'open',
      attempt: 0,
      lastError: null,
      connection: 1,
      retryInMs: null,
    };
    const time = manualTime(0);
    const runtime = testRuntime(
      { ...venue, states$: new BehaviorSubject<ConnectionStates>({ price: open, user: connecting, orders: open }) },
      [],
      { clock: time.clock, scheduler: time.scheduler, feedsOpenTimeoutMs: 5_000 },
    );
    const started = runtime.start().then(
      () => null,
      (e: unknown) => e,
    );
    // Past login and getMe (stub answers, a few microtasks): waiting on the feeds now.
    await new Promise((r) => setImmediate(r));
    time.advance(4_999);
    expect(await Promise.race([started, Promise.resolve('pending')])).toBe('pending');
    time.advance(1);
    const err = await started;
    expect(err).toBeInstanceOf(FeedsNotOpenError);
    expect(err).toMatchObject({
      code: 'LS_ERR_FEEDS_NOT_OPEN',
      message: 'the feeds did not open within 5000 ms: user feed connecting (ECONNREFUSED)',
    });
  });
});
