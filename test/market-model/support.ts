import type { OrderEventKind } from '../../src/orders/lifecycle.ts';
import type { OwnBook } from '../../src/orders/own-book.ts';
import type { OwnFill, OwnOrder, OwnOrderStatus } from '../../src/market-model/types.ts';
import type { Selection } from '../../src/markets/types.ts';

/** Own-book fixtures: orders and fills of ours, and generated operations applied to a book. */

/** The statuses a generated update moves an order to, picked by index. */
export const STATUSES: OwnOrderStatus[] = [
  'resting',
  'partly-filled',
  'pending-cancel',
  'cancelled',
  'filled',
  'unknown',
];

/** The lifecycle event that moves an order to each of STATUSES (where the table allows it). */
const EVENT_OF: Partial<Record<OwnOrderStatus, OrderEventKind>> = {
  resting: 'rests',
  'partly-filled': 'rests-partly-filled',
  'pending-cancel': 'cancel-sent',
  cancelled: 'cancelled',
  filled: 'filled',
  unknown: 'outcome-unknown',
};

const HOME: Selection = { type: 'moneyline', team: 'home' };

/**
 * Our order `n` (client id c<n>, reference r<n>, exchange id o<n>) of strategy 's', resting
 * and unfilled since `at`: by default 10 at 110 on the home moneyline of game 'g'. With
 * `taker`, an order sent to take whose place answer is still on its way: pending-place, no
 * exchange id yet.
 */
export function restingOrder(
  n: number,
  at = 0,
  o: { gameID?: string; selection?: Selection; odds?: number; bet?: number; taker?: boolean } = {},
): OwnOrder {
  const { gameID = 'g', selection = HOME, odds = 110, bet = 10 } = o;
  const order: OwnOrder = {
    clientId: `c${n}`,
    userReference: `r${n}`,
    orderID: `o${n}`,
    strategyId: 's',
    intentKey: null,
    gameID,
    selection,
    odds,
    bet,
    filled: 0,
    remaining: bet,
    status: 'resting',
    isPostArb: false,
    createdAt: at,
    updatedAt: at,
  };
  return o.taker === true ? { ...order, orderID: null, status: 'pending-place', mayTake: true } : order;
}

/** A maker fill of 10 at 110 (risk 10, win 11) on the home moneyline of game 'g', of order 'x' and no strategy; `over` sets what a test varies. */
export function ownFill(over: Partial<OwnFill> & Pick<OwnFill, 'txID'>): OwnFill {
  return {
    orderID: 'x',
    gameID: 'g',
    selection: HOME,
    odds: 110,
    amount: 10,
    risk: 10,
    win: 11,
    origin: 'offer',
    isPostArb: false,
    strategyId: null,
    at: 0,
    ...over,
  };
}

/** The default fill (ownFill) of restingOrder(n), booked at `at`: txID t<n>. */
export const orderFill = (n: number, at: number): OwnFill =>
  ownFill({ txID: `t${n}`, orderID: `o${n}`, strategyId: 's', at });

/** One generated operation on the book: games are g<game>, selections picked by index, statuses from STATUSES. */
export type BookOp =
  | { kind: 'add'; game: number; sel: number; odds: number; bet: number; taker?: boolean }
  | { kind: 'update'; pick: number; status: number; frac: number; absent?: boolean }
  | {
      kind: 'fill';
      game: number;
      sel: number;
      odds: number;
      amount: number;
      taker: boolean;
      postArb?: boolean;
      owner?: number;
    }
  | { kind: 'await'; pick: number; frac: number }
  | { kind: 'settle'; game: number };

/** `applier`'s operations, and its two steps of an add apart: an order made (restingOrder(n)) and an order added. */
export interface BookOps {
  (o: BookOp): void;
  /** The order the next add would place, not added: n counts it. */
  make(o: Omit<Extract<BookOp, { kind: 'add' }>, 'kind'>): OwnOrder;
  /** Adds an order (made by `make`): updates and awaits may pick it from then on. */
  add(order: OwnOrder): void;
}

/**
 * Applies generated operations to `book` in turn: an add places restingOrder(n) (n counting
 * adds and fills), an update moves one of the added orders, picked by `pick`, to a status with
 * `frac` of its bet remaining (an order without an exchange id gets it then, unless the status
 * is unknown: the exchange answered), or closes it as missing (`absent`), a fill books one
 * (taker or maker) of order 'x' (or counts it to an added order, `owner`), an await says
 * `frac` of an added order's bet matched, a settle settles.
 */
export function applier(book: OwnBook, selections: readonly Selection[]): BookOps {
  const ids: string[] = [];
  let n = 0;
  const make = (o: Omit<Extract<BookOp, { kind: 'add' }>, 'kind'>) =>
    restingOrder(n++, 0, {
      gameID: `g${o.game}`,
      selection: selections[o.sel]!,
      odds: o.odds,
      bet: o.bet,
      taker: o.taker ?? false,
    });
  const add = (order: OwnOrder) => {
    book.add(order, 'test');
    ids.push(order.clientId);
  };
  const apply = (o: BookOp) => {
    if (o.kind === 'add') {
      add(make(o));
    } else if (o.kind === 'update' && ids.length > 0) {
      const id = ids[o.pick % ids.length]!;
      // `absent`: closed by inference, which a later update (evidence) may take back to live.
      if (o.absent) book.apply(id, { kind: 'missing', amounts: { remaining: 0 } }, 1, 'test');
      else {
        const status = STATUSES[o.status]!;
        const answered = book.order(id)!.orderID === null && status !== 'unknown' ? { orderID: `o${id.slice(1)}` } : {};
        book.apply(
          id,
          { kind: EVENT_OF[status]!, amounts: { remaining: book.order(id)!.bet * o.frac, ...answered } },
          1,
          'test',
        );
      }
    } else if (o.kind === 'fill') {
      const owner = o.owner === undefined || ids.length === 0 ? undefined : ids[o.owner % ids.length];
      book.addFill(
        ownFill({
          txID: `t${n++}`,
          gameID: `g${o.game}`,
          selection: selections[o.sel]!,
          odds: o.odds,
          amount: o.amount,
          risk: o.amount,
          win: o.amount,
          origin: o.taker ? 'wager' : 'offer',
          isPostArb: o.postArb ?? false,
        }),
        owner,
      );
    } else if (o.kind === 'await' && ids.length > 0) {
      const id = ids[o.pick % ids.length]!;
      book.awaitFills(id, book.order(id)!.bet * o.frac, 1);
    } else if (o.kind === 'settle') {
      book.settle(`g${o.game}`);
    }
  };
  return Object.assign(apply, { make, add });
}
