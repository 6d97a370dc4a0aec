import { MarketModel } from '../../src/market-model/market-model.ts';
import { OwnBook } from '../../src/orders/own-book.ts';
import type { OwnOrder } from '../../src/market-model/types.ts';
import type {
  CancelEntry,
  EditEntry,
  EditOrderInput,
  OrderGateway,
  PlaceEntry,
  PlaceOrderInput,
} from '../../src/exchange/orders/types.ts';
import {
  OrderManager,
  type GatewayResult,
  type OrderManagerNotice,
  type StrategyWork,
} from '../../src/orders/order-manager.ts';
import type { RiskLimits } from '../../src/orders/risk-gate.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { moneylineGame, type MoneylineOffer } from '../support/stub-venue.ts';

export const id = (n: number) => n.toString(16).padStart(24, '0');

/** Game 'g' in the market model, pre-game, with `offers` on its moneyline. */
export function listGame(market: MarketModel, offers: readonly MoneylineOffer[] = []): void {
  market.applySnapshot(
    moneylineGame({
      id: 'g',
      start: '2030-05-01T00:00:00.000Z',
      away: { id: id(1), longName: 'Away', shortName: 'AW' },
      home: { id: id(2), longName: 'Home', shortName: 'HO' },
      offers,
    }),
    0,
  );
}

/**
 * An order manager on a manual clock whose gateway never answers; `sent` counts what it was
 * asked to send, `placed` keeps each order sent and `notices` what it told the runtime.
 */
export function setup(options: { limits?: Partial<RiskLimits> } = {}) {
  const clock = new ManualClock(1_000);
  const own = new OwnBook({ commissionRate: () => 0.01 });
  const market = new MarketModel(own.ownOrderIDs());
  const never = () => new Promise<never>(() => undefined);
  const sent = { places: 0, cancels: 0 };
  const placed: PlaceOrderInput[] = [];
  const notices: OrderManagerNotice[] = [];
  const gateway: OrderGateway = {
    place: (orders) => ((sent.places += orders.length), placed.push(...orders), never()),
    cancel: (ids) => ((sent.cancels += ids.length), never()),
    heartbeat: never,
  };
  const orders = new OrderManager({
    own,
    market,
    gateway,
    limits: {
      maxGameLiability: 1_000,
      maxTotalLiability: 5_000,
      maxOrderSize: 500,
      maxOrdersPerGame: 20,
      ...options.limits,
    },
    usePostArb: true,
    clock,
    logger: silentLogger(),
    runId: 'r',
    deliver: () => undefined,
    notify: (n) => notices.push(n),
    commissionRate: () => 0.01,
  });
  const order = (clientId: string, status: OwnOrder['status'], orderID: string | null): OwnOrder =>
    own.add(
      {
        clientId,
        userReference: `ls1:s:${clientId}`,
        orderID,
        strategyId: 's',
        intentKey: 'k',
        gameID: 'g',
        selection: { type: 'moneyline', team: 'home' },
        odds: 110,
        bet: 50,
        filled: 0,
        remaining: 50,
        status,
        isPostArb: false,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      },
      'test',
    );
  return { clock, own, market, orders, order, sent, placed, notices };
}

export const GAME = id(10);
export const AWAY = id(1);
export const HOME = id(2);

/**
 * An order manager on a real own book and a market model holding game GAME (a moneyline,
 * `offers` listed), on a manual clock, with a gateway that never answers: `placed` and
 * `cancelled` keep what it was asked to send.
 */
export function harness(
  limits: RiskLimits = { maxGameLiability: 1_000, maxTotalLiability: 5_000, maxOrderSize: 500, maxOrdersPerGame: 20 },
  offers: MoneylineOffer[] = [],
) {
  const clock = new ManualClock(1_000);
  const own = new OwnBook({ commissionRate: () => 0.01 });
  const market = new MarketModel(own.ownOrderIDs());
  market.applySnapshot(
    moneylineGame({
      id: GAME,
      start: '2030-05-01T00:00:00.000Z',
      away: { id: AWAY, longName: 'Away', shortName: 'AW' },
      home: { id: HOME, longName: 'Home', shortName: 'HO' },
      offers,
    }),
    0,
  );
  const placed: PlaceOrderInput[] = [];
  const cancelled: string[] = [];
  /** The signal each place was sent with: a halt aborts it to withdraw a place still waiting. */
  const signals: (AbortSignal | undefined)[] = [];
  const never = () => new Promise<never>(() => undefined);
  const gateway: OrderGateway = {
    place: (o, options) => (placed.push(...o), signals.push(options?.signal), never()),
    cancel: (ids) => (cancelled.push(...ids), never()),
    heartbeat: never,
  };
  const orders = new OrderManager({
    own,
    market,
    gateway,
    limits,
    usePostArb: true,
    clock,
    logger: silentLogger(),
    runId: 'r',
    deliver: () => undefined,
    notify: () => undefined,
    commissionRate: () => 0.01,
  });
  return { clock, own, market, orders, placed, cancelled, signals };
}

/**
 * Answers the first place `h` sent as accepted and resting whole under `orderID` (as the
 * exchange's place answer does); returns the order's client id and reference.
 */
export function restFirstPlaced(
  h: Pick<ReturnType<typeof harness>, 'placed' | 'own' | 'orders'>,
  orderID: string,
): { clientId: string; ref: string } {
  const ref = h.placed[0]!.userReference!;
  const clientId = h.own.byReference(ref)!.clientId;
  h.orders.onResult({
    kind: 'placed',
    clientIds: [clientId],
    entries: [{ status: 'accepted', userReference: ref, matched: [], resting: { orderID, offered: 100 } as never }],
  });
  return { clientId, ref };
}

/** Strategy `s` wants 100 on home of GAME at `odds` (+110 by default), key 'k', a post order. */
export const work = (odds = 110): StrategyWork[] => [
  {
    strategyId: 's',
    gameID: GAME,
    mode: 'active',
    intents: [{ key: 'k', selection: { type: 'moneyline', team: 'home' }, odds, size: 100, orderType: 'post' }],
  },
];

/** A promise the test settles. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/**
 * `harness` with a venue that edits and cancels everything in one request: each request is
 * kept with a deferred answer the test settles, and `settle()` hands what the gateway
 * delivered to the order manager (as the runtime's loop does).
 */
export function editHarness(options: { limits?: RiskLimits; offers?: MoneylineOffer[]; edit?: boolean } = {}) {
  const clock = new ManualClock(1_000);
  const own = new OwnBook({ commissionRate: () => 0.01 });
  const market = new MarketModel(own.ownOrderIDs());
  market.applySnapshot(
    moneylineGame({
      id: GAME,
      start: '2030-05-01T00:00:00.000Z',
      away: { id: AWAY, longName: 'Away', shortName: 'AW' },
      home: { id: HOME, longName: 'Home', shortName: 'HO' },
      offers: options.offers ?? [],
    }),
    0,
  );
  const places: { orders: readonly PlaceOrderInput[]; answer: ReturnType<typeof deferred<PlaceEntry[]>> }[] = [];
  const cancels: { ids: readonly string[]; answer: ReturnType<typeof deferred<CancelEntry[]>> }[] = [];
  const edits: {
    input: EditOrderInput;
    signal: AbortSignal | undefined;
    answer: ReturnType<typeof deferred<EditEntry>>;
  }[] = [];
  const sweeps: { gameID: string | null; answer: ReturnType<typeof deferred<CancelEntry[]>> }[] = [];
  const delivered: GatewayResult[] = [];
  const gateway: OrderGateway = {
    place: (o) => {
      const answer = deferred<PlaceEntry[]>();
      places.push({ orders: o, answer });
      return answer.promise;
    },
    cancel: (ids) => {
      const answer = deferred<CancelEntry[]>();
      cancels.push({ ids, answer });
      return answer.promise;
    },
    heartbeat: () => new Promise<never>(() => undefined),
    cancelAllOfAccount: () => {
      const answer = deferred<CancelEntry[]>();
      sweeps.push({ gameID: null, answer });
      return answer.promise;
    },
    cancelAllOfGame: (gameID) => {
      const answer = deferred<CancelEntry[]>();
      sweeps.push({ gameID, answer });
      return answer.promise;
    },
  };
  if (options.edit !== false) {
    gateway.edit = (input, o) => {
      const answer = deferred<EditEntry>();
      edits.push({ input, signal: o?.signal, answer });
      return answer.promise;
    };
  }
  const notices: OrderManagerNotice[] = [];
  const limits = options.limits ?? {
    maxGameLiability: 1_000,
    maxTotalLiability: 5_000,
    maxOrderSize: 500,
    maxOrdersPerGame: 20,
  };
  const orders = new OrderManager({
    own,
    market,
    gateway,
    limits,
    usePostArb: true,
    clock,
    logger: silentLogger(),
    runId: 'r',
    deliver: (r) => delivered.push(r),
    notify: (n) => notices.push(n),
    commissionRate: () => 0.01,
  });
  /** Let settled answers reach `delivered`, then hand them to the order manager in order. */
  const settle = async () => {
    await new Promise((r) => setImmediate(r));
    for (const r of delivered.splice(0)) orders.onResult(r);
  };
  return { clock, own, market, orders, places, cancels, edits, sweeps, notices, settle };
}
