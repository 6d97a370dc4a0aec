import { describe, expect, it } from 'vitest';
import { MarketModel } from '../../src/market-model/market-model.ts';
import { OwnBook } from '../../src/orders/own-book.ts';
import type { OwnFill, OwnOrder } from '../../src/market-model/types.ts';
import type { OrderbookGame } from '../../src/exchange/schemas/exchange.ts';
import type { GameUpdate } from '../../src/exchange/schemas/price-feed.ts';
import { ENDED_GAME_RETENTION_MS, ENDED_GAME_SWEEP_MS, forgettableGames } from '../../src/runtime/ended-games.ts';
import { manualTime } from '../../src/shared/time.ts';
import { moneylineGame, stubVenue } from '../support/stub-venue.ts';
import { instance, scripted, testRuntime } from './support.ts';

const id = (n: number) => n.toString(16).padStart(24, '0');

function game(n: number): OrderbookGame {
  return moneylineGame({
    id: id(n),
    start: '2026-05-01T00:00:00.000Z',
    away: { id: id(1000 + n), longName: `Away ${n}`, shortName: 'AW' },
    home: { id: id(2000 + n), longName: `Home ${n}`, shortName: 'HO' },
    offers: [{ id: id(3000 + n), team: 'home', odds: 105, size: 50 }],
  });
}

const order = (gameID: string, status: OwnOrder['status']): OwnOrder => ({
  clientId: `c-${gameID}`,
  userReference: `r-${gameID}`,
  orderID: `o-${gameID}`,
  strategyId: 's',
  intentKey: null,
  gameID,
  selection: { type: 'moneyline', team: 'home' },
  odds: 110,
  bet: 50,
  filled: 0,
  remaining: 50,
  status,
  isPostArb: false,
  createdAt: 0,
  updatedAt: 0,
});

const fill = (gameID: string): OwnFill => ({
  txID: `t-${gameID}`,
  orderID: `o-${gameID}`,
  gameID,
  selection: { type: 'moneyline', team: 'home' },
  odds: 110,
  amount: 50,
  risk: 50,
  win: 55,
  origin: 'offer',
  isPostArb: false,
  strategyId: 's',
  at: 0,
});

describe('forgetting ended games', () => {
  it('lists ended games past the retention with nothing of ours left on them', () => {
    const market = new MarketModel(() => false);
    const own = new OwnBook({ commissionRate: () => 0.01 });
    const [open, quiet, recent, resting, unsettled, settled] = [1, 2, 3, 4, 5, 6].map(
      (n) => market.applySnapshot(game(n), 0)!.id,
    ) as [string, string, string, string, string, string];
    for (const g of [quiet, resting, unsettled, settled]) market.markEnded(g, 0);
    market.markEnded(recent, ENDED_GAME_RETENTION_MS);
    own.add(order(resting, 'resting'), 'test');
    own.add(order(quiet, 'resting'), 'test');
    own.apply(`c-${quiet}`, { kind: 'cancelled', amounts: { remaining: 0 } }, 0, 'test');
    own.addFill(fill(unsettled));
    own.addFill(fill(settled));
    own.settle(settled);

    expect(forgettableGames(market, own, ENDED_GAME_RETENTION_MS - 1)).toEqual([]);
    expect(forgettableGames(market, own, ENDED_GAME_RETENTION_MS).sort()).toEqual([quiet, settled].sort());
    expect(market.game(open)).toBeDefined();
  });

  it('OwnBook.forgetGame drops a game only when no live order and no ungraded fill remains, keeping its fills booked', () => {
    const own = new OwnBook({ commissionRate: () => 0.01 });
    own.add(order('g1', 'resting'), 'test');
    own.addFill(fill('g2'));
    expect(own.forgetGame('g1')).toBe(false);
    expect(own.forgetGame('g2')).toBe(false);
    own.apply('c-g1', { kind: 'cancelled', amounts: { remaining: 0 } }, 1, 'test');
    own.settle('g2');
    expect(own.forgetGame('g1')).toBe(true);
    expect(own.forgetGame('g2')).toBe(true);
    expect([...own.gameIDs()]).toEqual([]);
    expect(own.hasFill('t-g2')).toBe(true);
    expect(own.totalProjectedLiability()).toBe(0);
  });

  it('the runtime forgets a game some time after it ended, so a long run does not keep every game it saw', async () => {
    const time = manualTime(Date.UTC(2026, 4, 1));
    const { venue, prices } = stubVenue({ games: [game(1), game(2)] });
    const runtime = testRuntime(venue, [instance(scripted(() => []))], {
      clock: time.clock,
      scheduler: time.scheduler,
    });
    await runtime.start();
    const ended = { ...game(1), ended: true, messageType: 'marketClosed' } as unknown as GameUpdate;
    prices.next({ type: 'gameUpdate', payload: ended, messageType: 'marketClosed' });
    expect(runtime.market.game(id(1))?.ended).toBe(true);

    time.advance(ENDED_GAME_RETENTION_MS - ENDED_GAME_SWEEP_MS);
    expect(runtime.market.game(id(1))).toBeDefined();
    time.advance(2 * ENDED_GAME_SWEEP_MS);
    expect(runtime.market.game(id(1))).toBeUndefined();
    expect(runtime.market.game(id(2))).toBeDefined();
    expect(runtime.status().games).toBe(1);

    const stopping = runtime.stop(1_000);
    for (let i = 0; i < 40; i++) {
      await null;
      time.advance(50);
    }
    await stopping;
  });
});
