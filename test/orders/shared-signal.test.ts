import { afterEach, describe, expect, it } from 'vitest';
import { MarketModel } from '../../src/market-model/market-model.ts';
import { OwnBook } from '../../src/orders/own-book.ts';
import type { OrderGateway } from '../../src/exchange/orders/types.ts';
import { OrderManager, type StrategyWork } from '../../src/orders/order-manager.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { moneylineGame } from '../support/stub-venue.ts';
import { AWAY, GAME, HOME } from './support.ts';

const warnings: Error[] = [];
const onWarning = (w: Error) => void warnings.push(w);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

/**
 * Every place the order manager sends carries the one signal a halt aborts to withdraw what
 * has not gone yet. The REST client listens to it while a place waits for the request
 * budget, so on a busy run (a 429 pause, a full window) many places listen at once: a
 * dozen places waiting made Node warn of a listener leak (MaxListenersExceededWarning, "11
 * abort listeners added to [AbortSignal]") in paper runs and the soak. The listeners are as
 * many as the places in flight, each removed when its place goes.
 */
describe('the signal shared by the places in flight', () => {
  it('takes a listener from each of many waiting places without a leak warning, and a halt still reaches them all', async () => {
    process.on('warning', onWarning);
    const clock = new ManualClock(1_000);
    const own = new OwnBook({ commissionRate: () => 0.01 });
    const market = new MarketModel((x) => own.isOurOrderID(x));
    market.applySnapshot(
      moneylineGame({
        id: GAME,
        start: '2030-05-01T00:00:00.000Z',
        away: { id: AWAY, longName: 'Away', shortName: 'AW' },
        home: { id: HOME, longName: 'Home', shortName: 'HO' },
        offers: [],
      }),
      0,
    );
    let withdrawn = 0;
    // As the REST client does while a place waits for the budget: listen, and never answer.
    const gateway: OrderGateway = {
      place: (_orders, options) => {
        options?.signal?.addEventListener('abort', () => withdrawn++, { once: true });
        return new Promise<never>(() => undefined);
      },
      cancel: () => new Promise<never>(() => undefined),
      heartbeat: () => new Promise<never>(() => undefined),
    };
    const orders = new OrderManager({
      own,
      market,
      gateway,
      limits: { maxGameLiability: 1_000, maxTotalLiability: 5_000, maxOrderSize: 500, maxOrdersPerGame: 40 },
      usePostArb: true,
      clock,
      logger: silentLogger(),
      runId: 'r',
      deliver: () => undefined,
      notify: () => undefined,
      commissionRate: () => 0.01,
    });
    // One new intent a cycle: one place each, all waiting at once.
    const intents: StrategyWork['intents'][number][] = [];
    for (let i = 0; i < 25; i++) {
      intents.push({
        key: `k${i}`,
        selection: { type: 'moneyline', team: 'home' },
        odds: 150 + i,
        size: 10,
        orderType: 'post',
      });
      orders.cycle([{ strategyId: 's', gameID: GAME, mode: 'active', intents: [...intents] }]);
    }
    expect(orders.stats.placesSent).toBe(25);
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
    orders.cancelAll('halted: test', {});
    expect(withdrawn).toBe(25);
  });
});
