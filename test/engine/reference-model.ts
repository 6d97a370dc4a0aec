/**
 * A deliberately naive reference model of the exchange's matching rules, written from the
 * spec (exchange-api §3, §4.5; feeds-and-semantics §3-§4), not from the engine:
 *
 * - every order ever placed lives in one flat array; a book side is recomputed on each
 *   read by filtering the open orders and sorting by (taker payout desc, arrival asc);
 * - a maker backing side X is listed on the OTHER side's list at the sign-flipped odds;
 * - a taker of side S at odds o meets listed orders on S paying at least payout(o), best
 *   price first, then earliest; fills execute at the resting order's listed odds;
 * - money of a fill: taker stake s at listed odds L wins s·payout(L) and the maker risks
 *   exactly that; the taker pays commission (its rate, 0 for postArb), the maker none.
 *
 * - live games (exchange-api §4.5 rule 7): an order that would match waits its league's
 *   delay, then is placed afresh against the book as it is then; one that would not
 *   match is placed at once. Due work (expiries, delayed orders) runs at the start of each
 *   call, earliest first, first scheduled first at equal times.
 *
 * - edit (feeds-and-semantics §9): the edited order's new terms (odds, volume, order type
 *   left out = unchanged; expiry in minutes from the edit) pass the checks of a place of
 *   the same selection. An unfilled order is amended under its own id: it keeps its place
 *   in the queue only when odds, type and expiry stay and the volume does not grow;
 *   otherwise it takes the book as a new arrival would and rests at the back. A partly
 *   filled order is cancelled and a new order placed for the whole new volume, keeping the
 *   original's expiry unless the edit gives one. A crossing edit on a live game waits the
 *   delay, then runs against the order and the book as they are then.
 *
 * It knows nothing about ids: the test hands it the engine's id of each executed order
 * and the engine's ticket number of each delayed one.
 * Liability is out of scope (tests give users huge balances).
 */

export type ModelOrderType = 'limit' | 'post' | 'postArb' | 'fillAndKill' | 'fillOrKill';
export type ModelStatus = 'open' | 'filled' | 'cancelled' | 'expired';

export interface ModelOrderInput {
  readonly gameID: string;
  readonly bookKey: string;
  /** The side the order backs: 0 = home / over / yes, 1 = away / under / no. */
  readonly backSide: 0 | 1;
  readonly odds: number;
  readonly bet: number;
  readonly orderType: ModelOrderType;
  readonly expirationMinutes?: number;
}

export interface ModelOrder {
  readonly id: string;
  readonly userId: string;
  readonly gameID: string;
  readonly bookKey: string;
  readonly backSide: 0 | 1;
  /** The list it rests on: the other side. */
  readonly listedSide: 0 | 1;
  /** Own odds, normalised (-100 → +100). */
  odds: number;
  /** What a taker of the listed side receives. */
  listedOdds: number;
  orderType: ModelOrderType;
  bet: number;
  filled: number;
  remaining: number;
  status: ModelStatus;
  seq: number;
  expiresAt: number | null;
  /** Bumped when an edit sets a new expiry: only the newest expiry timer closes the order. */
  expiryGen: number;
}

/** An edit: fields left out keep the order's. */
export interface ModelEditInput {
  readonly orderID: string;
  readonly odds?: number;
  readonly volume?: number;
  readonly orderType?: ModelOrderType;
  readonly expiryMinutes?: number;
}

export interface ModelFill {
  readonly amount: number;
  readonly odds: number;
  readonly makerOrderID: string;
  readonly makerRisk: number;
  readonly risk: number;
  readonly win: number;
  readonly winWithoutCommission: number;
}

export type ModelOutcome =
  | {
      readonly status: 'ok';
      readonly orderID: string;
      readonly matched: readonly ModelFill[];
      readonly unmatched: { readonly offered: number; readonly odds: number } | null;
      /** Set on an edit's outcome. */
      readonly edit?: { readonly mode: 'amended' | 'replaced'; readonly originalId: string };
    }
  | {
      readonly status: 'error';
      readonly errorType: 'validation_error' | 'rejected_order_type_rules';
      readonly error: string;
      /** Set when an edit named no order it could change. */
      readonly code?: 'invalid_id' | 'not_found' | 'not_yours' | 'not_open';
    };

export type ModelEntry =
  ModelOutcome | { readonly status: 'delayed'; readonly ticket: number; readonly executeAt: number };

/** A delayed order that ran during a call, with what it did. */
export interface ModelExecuted {
  readonly ticket: number;
  readonly userId: string;
  readonly outcome: ModelOutcome;
}

/** What the model needs from the engine to name things: the id of entry i's order, the ticket of a delayed entry, the order id a ticket produced. */
export interface EngineNames {
  orderID(index: number): string;
  ticket(index: number): number;
  ticketOrderID(ticket: number): string;
}

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
}

export type ModelCancel =
  | { readonly success: true; readonly order: ModelOrder }
  | {
      readonly success: false;
      readonly code: 'invalid_id' | 'not_found' | 'not_yours' | 'not_cancellable';
      readonly order?: ModelOrder;
    };

export interface ModelListed {
  readonly id: string;
  readonly listedOdds: number;
  readonly sumUntaken: number;
}

/** Float dust: amounts at or below this are zero. */
export const MODEL_DUST = 1e-9;
export const POST_ARB_TOLERANCE = 0.01;
export const FOK_RESIDUAL = 10;

export function modelPayout(odds: number): number {
  return odds > 0 ? odds / 100 : 100 / -odds;
}

/** The sign flip of American odds, with ±100 the same price. */
export function modelInvert(odds: number): number {
  return Math.abs(odds) === 100 ? 100 : -odds;
}

function americanPosition(odds: number): number {
  return odds >= 100 ? odds - 100 : odds + 100;
}

export function modelWithinBand(orderOdds: number, listedOdds: number): boolean {
  return (
    Math.abs(americanPosition(orderOdds) - americanPosition(listedOdds)) <=
    POST_ARB_TOLERANCE * Math.abs(listedOdds) + 1e-9
  );
}

export class ReferenceModel {
  now: number;
  readonly orders: ModelOrder[] = [];
  readonly #commission: ReadonlyMap<string, number>;
  /** Live games and their delay in ms. */
  readonly #liveDelay: ReadonlyMap<string, number>;
  #seq = 0;
  #timers: Timer[] = [];
  #timerSeq = 0;
  #executed: ModelExecuted[] = [];
  #names: EngineNames | null = null;

  constructor(
    now: number,
    users: readonly { readonly id: string; readonly commissionRate: number }[],
    liveDelayMs: ReadonlyMap<string, number> = new Map(),
  ) {
    this.now = now;
    this.#commission = new Map(users.map((u) => [u.id, u.commissionRate]));
    this.#liveDelay = liveDelayMs;
  }

  /** Delayed orders that ran since the last call to this method, in execution order. */
  takeExecuted(): ModelExecuted[] {
    const out = this.#executed;
    this.#executed = [];
    return out;
  }

  /** All known order ids, in arrival order. */
  ids(): string[] {
    return this.orders.map((o) => o.id);
  }

  find(id: string): ModelOrder | undefined {
    return this.orders.find((o) => o.id === id);
  }

  /** Run due work: expiries and delayed orders whose time has come, earliest first, then first scheduled. */
  sweep(names: EngineNames): void {
    this.#names = names;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= this.now).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      due.run();
    }
  }

  #schedule(at: number, run: () => void): void {
    this.#timers.push({ at, seq: ++this.#timerSeq, run });
  }

  /** The orders a taker of `side` can take on one book: best price for the taker first, then earliest. */
  bookSide(gameID: string, bookKey: string, side: 0 | 1): ModelListed[] {
    return this.#listed(gameID, bookKey, side).map((o) => ({
      id: o.id,
      listedOdds: o.listedOdds,
      sumUntaken: o.remaining * modelPayout(o.odds),
    }));
  }

  #listed(gameID: string, bookKey: string, side: 0 | 1): ModelOrder[] {
    return this.orders
      .filter((o) => o.status === 'open' && o.gameID === gameID && o.bookKey === bookKey && o.listedSide === side)
      .sort((a, b) => modelPayout(b.listedOdds) - modelPayout(a.listedOdds) || a.seq - b.seq);
  }

  /**
   * Place a batch, entries in order. `names.orderID(i)` is the engine's id of entry i's
   * order, asked only for entries the model believes were accepted; `names.ticket(i)` the
   * engine's ticket of an entry the model believes was delayed.
   */
  place(userId: string, inputs: readonly ModelOrderInput[], names: EngineNames): ModelEntry[] {
    this.sweep(names);
    return inputs.map((input, i) =>
      this.#placeOne(
        userId,
        input,
        () => names.orderID(i),
        () => names.ticket(i),
      ),
    );
  }

  /** `ticketOf` is given for a fresh placement (which may be delayed), omitted when a delayed order runs. */
  #placeOne(userId: string, input: ModelOrderInput, idOf: () => string, ticketOf?: () => number): ModelEntry {
    const checked = this.#check(input);
    if ('status' in checked) return checked;
    const delay = this.#liveDelay.get(input.gameID);
    if (checked.crossing.length > 0 && delay !== undefined && ticketOf) {
      const ticket = ticketOf();
      return this.#delay(
        userId,
        ticket,
        delay,
        (names) => this.#placeOne(userId, input, () => names.ticketOrderID(ticket)) as ModelOutcome,
      );
    }
    const order = this.#newOrder(
      userId,
      input,
      checked.odds,
      idOf(),
      input.expirationMinutes === undefined ? null : this.now + input.expirationMinutes * 60_000,
    );
    return this.#take(order, checked.crossing);
  }

  #delay(userId: string, ticket: number, delay: number, run: (names: EngineNames) => ModelOutcome): ModelEntry {
    const executeAt = this.now + delay;
    this.#schedule(executeAt, () => this.#executed.push({ ticket, userId, outcome: run(this.#names!) }));
    return { status: 'delayed', ticket, executeAt };
  }

  /** A place's checks: valid odds and stake, then the order type's rules against the book. */
  #check(input: ModelOrderInput): ModelOutcome | { readonly odds: number; readonly crossing: ModelOrder[] } {
    if (!Number.isInteger(input.odds) || Math.abs(input.odds) < 100)
      return { status: 'error', errorType: 'validation_error', error: 'invalid odds' };
    // A stake at or below float dust could neither fill nor rest: not a stake.
    if (!(input.bet > MODEL_DUST) || !Number.isFinite(input.bet))
      return { status: 'error', errorType: 'validation_error', error: 'invalid bet' };
    const odds = input.odds === -100 ? 100 : input.odds;
    const limitPayout = modelPayout(odds);
    const crossing = this.#listed(input.gameID, input.bookKey, input.backSide).filter(
      (o) => modelPayout(o.listedOdds) >= limitPayout,
    );
    const best = crossing[0];

    switch (input.orderType) {
      case 'post':
        if (best) return reject('post order cannot have matches');
        break;
      case 'postArb':
        if (best && !modelWithinBand(odds, best.listedOdds)) return reject('postArb outside band');
        break;
      case 'fillAndKill':
        if (!best) return reject('fill and kill has no matches');
        break;
      case 'fillOrKill': {
        if (!best) return reject('fill or kill has no matches');
        let capacity = 0;
        for (const o of crossing) capacity += o.remaining * modelPayout(o.odds);
        // Spec: a residual of 10 or less counts as complete; "exactly 10" with float slack,
        // since capacity is a float sum (17.90 × 100/179 = 9.999999999999998).
        if (input.bet - capacity > FOK_RESIDUAL + 1e-9) return reject('fill or kill matched but not fully');
        break;
      }
      case 'limit':
        break;
    }
    return { odds, crossing };
  }

  #newOrder(userId: string, input: ModelOrderInput, odds: number, id: string, expiresAt: number | null): ModelOrder {
    const order: ModelOrder = {
      id,
      userId,
      gameID: input.gameID,
      bookKey: input.bookKey,
      backSide: input.backSide,
      listedSide: input.backSide === 0 ? 1 : 0,
      odds,
      listedOdds: modelInvert(odds),
      orderType: input.orderType,
      bet: input.bet,
      filled: 0,
      remaining: input.bet,
      status: 'open',
      seq: ++this.#seq,
      expiresAt,
      expiryGen: 0,
    };
    this.orders.push(order);
    return order;
  }

  /** The order takes what it crosses, best first, then rests or is closed as its type says. */
  #take(order: ModelOrder, crossing: readonly ModelOrder[]): ModelOutcome {
    const rate = order.orderType === 'postArb' ? 0 : (this.#commission.get(order.userId) ?? 0);
    const matched: ModelFill[] = [];
    for (const maker of crossing) {
      if (order.remaining <= MODEL_DUST) break;
      if (order.orderType === 'postArb' && !modelWithinBand(order.odds, maker.listedOdds)) break;
      const capacity = maker.remaining * modelPayout(maker.odds);
      let stake: number;
      let makerRisk: number;
      if (order.remaining < capacity - MODEL_DUST) {
        // The taker is the smaller side: the maker risks what the taker would win.
        stake = order.remaining;
        makerRisk = stake * modelPayout(maker.listedOdds);
        if (maker.remaining - makerRisk <= MODEL_DUST) makerRisk = maker.remaining;
      } else {
        // The maker order is used up.
        stake = capacity;
        makerRisk = maker.remaining;
      }
      maker.filled += makerRisk;
      maker.remaining = maker.remaining - makerRisk <= MODEL_DUST ? 0 : maker.remaining - makerRisk;
      if (maker.remaining === 0) maker.status = 'filled';
      order.filled += stake;
      order.remaining = order.remaining - stake <= MODEL_DUST ? 0 : order.remaining - stake;

      const wwc = stake * modelPayout(maker.listedOdds);
      matched.push({
        amount: stake,
        odds: maker.listedOdds,
        makerOrderID: maker.id,
        makerRisk,
        winWithoutCommission: wwc,
        win: wwc * (1 - rate),
        risk: stake + rate * Math.min(stake, wwc),
      });
    }

    if (order.remaining === 0) {
      order.status = 'filled';
      return { status: 'ok', orderID: order.id, matched, unmatched: null };
    }
    if (order.orderType === 'fillAndKill' || order.orderType === 'fillOrKill') {
      order.status = 'cancelled';
      return { status: 'ok', orderID: order.id, matched, unmatched: null };
    }
    this.#scheduleExpiry(order);
    return { status: 'ok', orderID: order.id, matched, unmatched: { offered: order.remaining, odds: order.odds } };
  }

  #scheduleExpiry(order: ModelOrder): void {
    if (order.expiresAt === null) return;
    const gen = ++order.expiryGen;
    this.#schedule(order.expiresAt, () => {
      if (order.status === 'open' && order.expiryGen === gen) order.status = 'expired';
    });
  }

  /**
   * Edit an order (see the header). `names.orderID(0)` names the new order of a replacing
   * edit, `names.ticket(0)` the ticket of a delayed one.
   */
  edit(userId: string, input: ModelEditInput, names: EngineNames): ModelEntry {
    this.sweep(names);
    return this.#editOne(
      userId,
      input,
      () => names.orderID(0),
      () => names.ticket(0),
    );
  }

  #editOne(userId: string, e: ModelEditInput, idOf: () => string, ticketOf: () => number): ModelEntry {
    const o = this.#editable(userId, e.orderID);
    if ('errorType' in o) return o;
    // The terms left out are the order's at the time of the request, also for a delayed edit.
    const input: ModelOrderInput = {
      gameID: o.gameID,
      bookKey: o.bookKey,
      backSide: o.backSide,
      odds: e.odds ?? o.odds,
      bet: e.volume ?? o.bet,
      orderType: e.orderType ?? o.orderType,
      ...(e.expiryMinutes !== undefined ? { expirationMinutes: e.expiryMinutes } : {}),
    };
    const checked = this.#check(input);
    if ('status' in checked) return checked;
    const delay = this.#liveDelay.get(o.gameID);
    if (checked.crossing.length > 0 && delay !== undefined) {
      const ticket = ticketOf();
      return this.#delay(userId, ticket, delay, (names) =>
        this.#editRun(userId, e, input, () => names.ticketOrderID(ticket)),
      );
    }
    return this.#editRun(userId, e, input, idOf);
  }

  #editable(userId: string, orderID: string): ModelOrder | (ModelOutcome & { readonly status: 'error' }) {
    if (!/^[0-9a-f]{24}$/.test(orderID)) return editRefused('invalid_id');
    const o = this.find(orderID);
    if (!o) return editRefused('not_found');
    if (o.userId !== userId) return editRefused('not_yours');
    if (o.status !== 'open') return editRefused('not_open');
    return o;
  }

  /** The edit carried out against the order and the book as they are now (rechecked after a delay). */
  #editRun(userId: string, e: ModelEditInput, input: ModelOrderInput, idOf: () => string): ModelOutcome {
    const o = this.#editable(userId, e.orderID);
    if ('errorType' in o) return o;
    const checked = this.#check(input);
    if ('status' in checked) return checked;
    const expiresAt = e.expiryMinutes === undefined ? o.expiresAt : this.now + e.expiryMinutes * 60_000;
    if (o.filled > MODEL_DUST) {
      o.status = 'cancelled';
      const order = this.#newOrder(userId, input, checked.odds, idOf(), expiresAt);
      const outcome = this.#take(order, checked.crossing);
      return outcome.status === 'ok' ? { ...outcome, edit: { mode: 'replaced', originalId: o.id } } : outcome;
    }
    const edit = { mode: 'amended', originalId: o.id } as const;
    if (
      checked.odds === o.odds &&
      input.orderType === o.orderType &&
      e.expiryMinutes === undefined &&
      input.bet <= o.remaining
    ) {
      o.bet = input.bet;
      o.remaining = input.bet;
      return { status: 'ok', orderID: o.id, matched: [], unmatched: { offered: o.remaining, odds: o.odds }, edit };
    }
    // Amended under its own id as a new arrival: new terms, back of the queue.
    o.odds = checked.odds;
    o.listedOdds = modelInvert(checked.odds);
    o.orderType = input.orderType;
    o.bet = input.bet;
    o.remaining = input.bet;
    o.seq = ++this.#seq;
    o.expiresAt = expiresAt;
    o.expiryGen++;
    const outcome = this.#take(o, checked.crossing);
    return outcome.status === 'ok' ? { ...outcome, edit } : outcome;
  }

  cancel(userId: string, orderID: string, names: EngineNames): ModelCancel {
    this.sweep(names);
    return this.#cancelOne(userId, orderID);
  }

  cancelMany(userId: string, orderIDs: readonly string[], names: EngineNames): ModelCancel[] {
    this.sweep(names);
    return orderIDs.map((id) => this.#cancelOne(userId, id));
  }

  /** Cancel every open order of the user, oldest first. */
  cancelAll(userId: string, names: EngineNames): ModelCancel[] {
    this.sweep(names);
    return this.orders
      .filter((o) => o.userId === userId && o.status === 'open')
      .sort((a, b) => a.seq - b.seq)
      .map((o) => this.#cancelOne(userId, o.id));
  }

  #cancelOne(userId: string, orderID: string): ModelCancel {
    if (!/^[0-9a-f]{24}$/.test(orderID)) return { success: false, code: 'invalid_id' };
    const o = this.find(orderID);
    if (!o) return { success: false, code: 'not_found' };
    if (o.userId !== userId) return { success: false, code: 'not_yours' };
    if (o.status !== 'open') return { success: false, code: 'not_cancellable', order: o };
    o.status = 'cancelled';
    return { success: true, order: o };
  }

  advance(names: EngineNames): void {
    this.sweep(names);
  }
}

function editRefused(
  code: 'invalid_id' | 'not_found' | 'not_yours' | 'not_open',
): ModelOutcome & { readonly status: 'error' } {
  return { status: 'error', errorType: 'validation_error', error: code, code };
}

function reject(error: string): ModelOutcome {
  return { status: 'error', errorType: 'rejected_order_type_rules', error };
}
