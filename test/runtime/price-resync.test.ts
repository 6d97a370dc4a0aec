import { BehaviorSubject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionStates } from '../../src/exchange/client.ts';
import type { OrderbookGame } from '../../src/exchange/schemas/exchange.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import { manualTime } from '../../src/shared/time.ts';
import { moneylineGame, stubVenue, type MoneylineOffer } from '../support/stub-venue.ts';
import { flushMicrotasks } from '../support/microtasks.ts';
import { instance, listedIds, scripted, testRuntime } from './support.ts';

const id = (n: number) => n.toString(16).padStart(24, '0');
const GAME = id(1);
const HOME = { id: id(2), longName: 'Home', shortName: 'HO' };
const AWAY = { id: id(3), longName: 'Away', shortName: 'AW' };
const game = (offers: readonly MoneylineOffer[]): OrderbookGame =>
  moneylineGame({ id: GAME, start: '2099-01-01T00:00:00.000Z', away: AWAY, home: HOME, offers });
const offer = (n: number, odds: number): MoneylineOffer => ({ id: id(100 + n), team: 'home', odds, size: 50 });

const socket = (status: SocketState['status'], connection: number): SocketState => ({
  status,
  attempt: 0,
  lastError: null,
  since: 0,
  connection,
  retryInMs: null,
});
const states = (price: SocketState): ConnectionStates => ({
  price,
  user: socket('open', 1),
  orders: socket('open', 1),
});

function setup(overrides: Parameters<typeof testRuntime>[2] = {}, leagues: readonly string[] = []) {
  let board = [game([offer(1, 120)])];
  const reads: Array<(g: OrderbookGame[]) => void> = [];
  let deferReads = false;
  let readCount = 0;
  let failNext = 0;
  const { venue, prices } = stubVenue({ games: [] });
  const states$ = new BehaviorSubject(states(socket('open', 1)));
  const runtime = testRuntime(
    {
      ...venue,
      states$,
      rest: {
        ...venue.rest,
        getOrderbook: () => {
          readCount++;
          if (failNext > 0) {
            failNext--;
            return Promise.reject(new Error('503'));
          }
          return deferReads ? new Promise<OrderbookGame[]>((r) => reads.push(r)) : Promise.resolve(board);
        },
      },
    },
    [
      instance(
        scripted(() => []),
        { interest: { leagues, sports: [], gameIDs: [], marketTypes: [] } },
      ),
    ],
    overrides,
  );
  return {
    runtime,
    prices,
    setBook: (g: OrderbookGame) => (board = [g]),
    setBoard: (gs: OrderbookGame[]) => (board = gs),
    deferReads: () => (deferReads = true),
    reads,
    readCount: () => readCount,
    failReads: (n: number) => (failNext = n),
    drop: () => states$.next(states(socket('reconnecting', 1))),
    reopen: (connection: number) => states$.next(states(socket('open', connection))),
  };
}

describe('the price feed reconnects', () => {
  it('the books are read again: what changed while the feed was down is in the model', async () => {
    const s = setup();
    await s.runtime.start();
    expect(listedIds(s.runtime, GAME)).toEqual([id(101)]);
    s.drop();
    // While down, offer 1 was taken and offer 2 posted: the feed will never say so.
    s.setBook(game([offer(2, 115)]));
    s.reopen(2);
    await vi.waitFor(() => expect(listedIds(s.runtime, GAME)).toEqual([id(102)]));
    await vi.waitFor(() => expect(s.runtime.mode).toBe('active'));
    await s.runtime.stop(1_000);
  });

  it('a game the answer no longer lists ended while the feed was down: it is marked ended, so nothing quotes it', async () => {
    const s = setup();
    await s.runtime.start();
    expect(s.runtime.market.game(GAME)?.ended).toBe(false);
    s.drop();
    s.setBoard([]);
    s.reopen(2);
    await vi.waitFor(() => expect(s.runtime.mode).toBe('active'));
    expect(s.runtime.market.game(GAME)?.ended).toBe(true);
    await s.runtime.stop(1_000);
  });

  it('a game of a league the runtime does not read is not taken as ended for being absent', async () => {
    const s = setup({}, ['NHL']);
    await s.runtime.start();
    s.drop();
    s.setBoard([]);
    s.reopen(2);
    await vi.waitFor(() => expect(s.runtime.mode).toBe('active'));
    expect(s.runtime.market.game(GAME)?.league).toBe('NBA');
    expect(s.runtime.market.game(GAME)?.ended).toBe(false);
    await s.runtime.stop(1_000);
  });

  it('updates that arrive during the read are applied on top of it, and quoting waits for it', async () => {
    const s = setup();
    await s.runtime.start();
    s.deferReads();
    s.drop();
    s.reopen(2);
    expect(s.runtime.mode).toBe('halted');
    // The side moves after the read was sent; the answer is the state before that.
    s.prices.next({
      type: 'orderUpdate',
      payload: {
        epoch: 5,
        gameID: GAME,
        sport: 'basketball',
        league: 'NBA',
        type: 'moneyline',
        participantID: HOME.id,
        sideOrders: [{ id: id(103), sumUntaken: 50, odds: 110, bet: 50 }],
      },
    });
    expect(listedIds(s.runtime, GAME)).toEqual([id(101)]);
    await vi.waitFor(() => expect(s.reads).toHaveLength(1));
    s.reads[0]!([game([offer(2, 115)])]);
    await vi.waitFor(() => expect(listedIds(s.runtime, GAME)).toEqual([id(103)]));
    expect(s.runtime.mode).toBe('active');
    await s.runtime.stop(1_000);
  });

  it("the first connection is start-up's, and a state repeated for it reads nothing again", async () => {
    const s = setup();
    await s.runtime.start();
    expect(s.readCount()).toBe(1);
    s.reopen(1);
    await new Promise((r) => setImmediate(r));
    expect(s.readCount()).toBe(1);
    s.drop();
    s.reopen(2);
    await vi.waitFor(() => expect(s.readCount()).toBe(2));
    await s.runtime.stop(1_000);
  });

  it('a failed read is tried again a second later, halted meanwhile; stop() ends the retries', async () => {
    const time = manualTime(Date.UTC(2026, 0, 1));
    const s = setup({ clock: time.clock, scheduler: time.scheduler, tickMs: 1_000 });
    await s.runtime.start();
    s.failReads(2);
    s.setBook(game([offer(2, 115)]));
    s.drop();
    s.reopen(2);
    await vi.waitFor(() => expect(s.readCount()).toBe(2));
    await flushMicrotasks();
    expect(s.runtime.mode).toBe('halted');
    time.advance(1_000);
    await vi.waitFor(() => expect(s.readCount()).toBe(3));
    await flushMicrotasks();
    expect(s.runtime.mode).toBe('halted');
    time.advance(1_000);
    await vi.waitFor(() => expect(listedIds(s.runtime, GAME)).toEqual([id(102)]));
    expect(s.runtime.mode).toBe('active');

    // Failing again, then stopped: no read after the stop.
    s.failReads(1_000);
    s.drop();
    s.reopen(3);
    await vi.waitFor(() => expect(s.readCount()).toBe(5));
    await flushMicrotasks();
    const stopping = s.runtime.stop(1_000);
    for (let i = 0; i < 5; i++) {
      time.advance(1_000);
      await flushMicrotasks();
    }
    await stopping;
    const reads = s.readCount();
    time.advance(10_000);
    await flushMicrotasks();
    expect(s.readCount()).toBe(reads);
    expect(time.nextDueAt()).toBeUndefined();
  });

  it("a reconnect during start-up's read is read again once start-up is done", async () => {
    const s = setup();
    // The reconnect lands while start-up waits for its orderbook answer.
    s.deferReads();
    const started = s.runtime.start();
    await vi.waitFor(() => expect(s.reads).toHaveLength(1));
    s.drop();
    s.setBook(game([offer(2, 115)]));
    s.reopen(2);
    // Not now: an answer to a read sent now could land before start-up's older one.
    await flushMicrotasks();
    expect(s.reads).toHaveLength(1);
    s.reads[0]!([game([offer(1, 120)])]);
    await started;
    await vi.waitFor(() => expect(s.reads).toHaveLength(2));
    expect(s.runtime.mode).toBe('halted');
    s.reads[1]!([game([offer(2, 115)])]);
    await vi.waitFor(() => expect(listedIds(s.runtime, GAME)).toEqual([id(102)]));
    expect(s.runtime.mode).toBe('active');
    await s.runtime.stop(1_000);
  });

  it('a held update that cannot be applied does not keep the runtime halted', async () => {
    const s = setup();
    await s.runtime.start();
    s.deferReads();
    s.drop();
    s.reopen(2);
    // sideOrders missing: applying it throws inside the model.
    s.prices.next({
      type: 'orderUpdate',
      payload: {
        epoch: 5,
        gameID: GAME,
        sport: 'basketball',
        league: 'NBA',
        type: 'moneyline',
        participantID: HOME.id,
      } as never,
    });
    s.prices.next({
      type: 'orderUpdate',
      payload: {
        epoch: 6,
        gameID: GAME,
        sport: 'basketball',
        league: 'NBA',
        type: 'moneyline',
        participantID: HOME.id,
        sideOrders: [{ id: id(104), sumUntaken: 50, odds: 105, bet: 50 }],
      },
    });
    await vi.waitFor(() => expect(s.reads).toHaveLength(1));
    s.reads[0]!([game([offer(2, 115)])]);
    await vi.waitFor(() => expect(listedIds(s.runtime, GAME)).toEqual([id(104)]));
    expect(s.runtime.mode).toBe('active');
    await s.runtime.stop(1_000);
  });
});
