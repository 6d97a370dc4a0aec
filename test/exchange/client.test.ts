import { afterEach, describe, expect, it } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import { ExchangeClient } from '../../src/exchange/client.ts';
import type { UserFeedEvent } from '../../src/exchange/socket/user-feed-events.ts';
import type { PriceFeedEvent } from '../../src/exchange/schemas/price-feed.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { clientFor } from './support-rest.ts';
import { dropSimSockets, FAST, Recorder, until } from './support-socket.ts';

let t: TestSim | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await t?.close();
  t = undefined;
});

async function exchangeFor(sim: TestSim, username: string) {
  const user = await sim.user(username);
  const client = new ExchangeClient({
    baseUrl: sim.url,
    credentials: async () => ({ username, password: user.password }),
    sockets: FAST,
    rest: { runId: username, placeRecoveryGraceMs: 300 },
  });
  closers.push(() => client.close());
  return { client, user };
}

describe('ExchangeClient: REST and the three sockets wired together', () => {
  it('opens all three sockets, and a fill shows on the orders socket answer, the user feed and the price feed', async () => {
    t = await startTestSim();
    const g = t.game();
    const [away, home] = g.participants;
    const { client: maker } = await exchangeFor(t, 'mm');
    const prices = new Recorder<PriceFeedEvent>(maker.priceFeed.events$);
    const mine = new Recorder<UserFeedEvent>(maker.userFeed.events$);
    await maker.start();
    const states = await firstValueFrom(
      maker.states$.pipe(
        filter((s) => s.price.status === 'open' && s.user.status === 'open' && s.orders.status === 'open'),
      ),
    );
    expect(states.orders.connection).toBe(1);

    const [placed] = await maker.orders.place([
      { gameID: g.id, type: 'moneyline', side: home.id, odds: -110, bet: 110, orderType: 'post' },
    ]);
    expect(placed).toMatchObject({ status: 'accepted', userReference: 'ls1:mm0' });
    if (placed?.status !== 'accepted' || !placed.resting) throw new Error('unreachable');
    const orderID = placed.resting.orderID;
    await mine.next((e) => e.type === 'orderPlaced');

    const { client: taker } = await clientFor(t, 'tk');
    closers.push(() => taker.close());
    await taker.place([{ gameID: g.id, type: 'moneyline', side: away.id, odds: 110, bet: 50 }]);

    const fill = await mine.next((e) => e.type === 'makerFill');
    expect(fill).toMatchObject({ type: 'makerFill', partial: true });
    expect(fill.type === 'makerFill' && fill.message.matched?.orderID).toBe(orderID);
    const update = await prices.next(
      (e) =>
        e.type === 'orderUpdate' &&
        e.payload.gameID === g.id &&
        e.payload.sideOrders.some((o) => o.id === orderID && o.sumUntaken < 100),
    );
    expect(update.type).toBe('orderUpdate');
    expect(maker.userFeed.cursor).not.toBeNull();
  });

  it('recovers a place lost on the orders socket through REST by its userReference', async () => {
    const time = manualTime(Date.UTC(2026, 4, 1, 18));
    t = await startTestSim({ time });
    const g = t.game({ live: true, start: Date.UTC(2026, 4, 1, 17) }); // NBA: 5 s live delay
    const [away, home] = g.participants;
    const { client: c, user } = await exchangeFor(t, 'lost');
    await c.start();
    await firstValueFrom(c.orders.state$.pipe(filter((s) => s.status === 'open')));
    const other = await t.user('other');
    t.sim.context.engine.place(other.id, [{ gameID: g.id, type: 'moneyline', side: home.id, odds: -110, bet: 50 }]);

    const pending = c.orders.place([{ gameID: g.id, type: 'moneyline', side: away.id, odds: 110, bet: 20 }]);
    await until(() => c.orders.stats.requests === 1);
    await c.orders.socket.roundTrip(); // the server holds it for the live delay
    dropSimSockets(t, time as ManualTimeSource);
    // The first lookup finds nothing; during the grace period the delay ends and it fills.
    await until(() => c.rest.stats.calls >= 3, 3_000, 'the first lookup');
    (time as ManualTimeSource).advance(5_000);
    const [entry] = await pending;
    expect(entry).toMatchObject({ status: 'recovered', userReference: 'ls1:lost0', resting: null });
    if (entry?.status !== 'recovered') throw new Error('unreachable');
    expect(entry.bets.map((b) => [b.origin, b.odds, b.userReference])).toEqual([['wager', 110, 'ls1:lost0']]);
    // Exactly one order reached the engine.
    expect(t.sim.context.engine.bets(user.id).filter((b) => b.userReference === 'ls1:lost0')).toHaveLength(1);
  });
});
