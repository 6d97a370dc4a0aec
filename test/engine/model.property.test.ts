/**
 * Model-based test: random command sequences (place batches of every order type, cancel /
 * cancelMany of known ids including closed ones, cancelAll, edits of open and closed
 * orders (odds, volume, order type, expiry), clock moves with expiries)
 * run against the MatchingEngine and against the naive ReferenceModel, comparing every
 * place entry (status, errorType, fills: maker order id, odds, amount, money; unmatched
 * offered), every cancel outcome, every delayed order run, every known order's state and
 * every book side (ids, listed odds, sumUntaken) after each command. Users have huge
 * balances; liability has its own property in invariants.property.test.ts.
 */
import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import type { CancelOutcome, EditEntry, OrderType, PlaceEntry, PlaceOutcome } from '../../src/engine/index.ts';
import {
  ReferenceModel,
  type EngineNames,
  type ModelCancel,
  type ModelEditInput,
  type ModelEntry,
  type ModelOrderInput,
  type ModelOutcome,
} from './reference-model.ts';
import {
  BOOK_KEYS,
  GAMES,
  LIVE_DELAY_MS,
  T0,
  USERS,
  abstractOrderArb,
  advanceMsArb,
  betArb,
  bookKeyOfAbstract,
  expirationArb,
  oddsArb,
  orderTypeArb,
  createHarness,
  gameIDOf,
  refArb,
  resolveRef,
  runs,
  toWire,
  userArb,
  type AbstractOrder,
  type Harness,
  type OrderArbOptions,
} from '../support/prop-engine.ts';

const TOL = 1e-6;

interface ModelState {
  readonly model: ReferenceModel;
  /** How many of the fixture games the sequence uses (books of the others stay empty). */
  readonly games: number;
}

type Cmd = fc.Command<ModelState, Harness>;

/** Assertions build their message only on failure: the comparisons run thousands of times per property. */
function near(actual: number, expected: number, what: string | (() => string)): void {
  if (Math.abs(actual - expected) <= TOL * Math.max(1, Math.abs(expected))) return;
  expect.fail(`${typeof what === 'string' ? what : what()}: engine ${actual} vs model ${expected}`);
}

function same<T>(actual: T, expected: T, what: () => string): void {
  if (Object.is(actual, expected)) return;
  expect(actual, what()).toEqual(expected);
}

function sameList(actual: readonly unknown[], expected: readonly unknown[], what: () => string): void {
  if (actual.length === expected.length && actual.every((x, i) => x === expected[i])) return;
  expect(actual, what()).toEqual(expected);
}

function toModelInput(o: AbstractOrder): ModelOrderInput {
  return {
    gameID: gameIDOf(o),
    bookKey: bookKeyOfAbstract(o),
    backSide: o.side,
    odds: o.odds,
    bet: o.bet,
    orderType: o.orderType,
    ...(o.expirationMinutes !== undefined ? { expirationMinutes: o.expirationMinutes } : {}),
  };
}

/** The engine's id of the order behind an accepted outcome: the rested order, else the taker order of its first fill. */
function orderIDOf(h: Harness, firstEvent: number, outcome: PlaceEntry | undefined, fallback: string): string {
  if (!outcome || outcome.status !== 'ok') return fallback;
  if (outcome.unmatched) return outcome.unmatched.orderID;
  const tx = outcome.matched[0]?.txID;
  for (let k = firstEvent; k < h.events.length; k++) {
    const ev = h.events[k]!;
    if (ev.kind === 'fill' && ev.fill.txID === tx) return ev.fill.taker.orderID;
  }
  return fallback;
}

/** How the model learns the engine's names for what one call created. */
function namesFor(h: Harness, firstEvent: number, entries: readonly PlaceEntry[] = []): EngineNames {
  return {
    orderID: (i) => orderIDOf(h, firstEvent, entries[i], `missing-order-${i}`),
    ticket: (i) => {
      const e = entries[i];
      return e?.status === 'delayed' ? e.ticket : -1;
    },
    ticketOrderID: (ticket) => {
      const ev = h.events.slice(firstEvent).find((e) => e.kind === 'delayedExecuted' && e.ticket === ticket);
      return orderIDOf(
        h,
        firstEvent,
        ev?.kind === 'delayedExecuted' ? ev.outcome : undefined,
        `missing-ticket-${ticket}`,
      );
    },
  };
}

/** Delayed orders the engine ran during the call (events since `firstEvent`) against those the model ran. */
function compareExecuted(m: ReferenceModel, h: Harness, firstEvent: number, where: string): void {
  const actual: { ticket: number; userId: string; outcome: PlaceOutcome }[] = [];
  for (const e of h.events.slice(firstEvent)) if (e.kind === 'delayedExecuted') actual.push(e);
  const expected = m.takeExecuted();
  sameList(
    actual.map((e) => `${e.ticket}:${e.userId}`),
    expected.map((e) => `${e.ticket}:${e.userId}`),
    () => `${where}: delayed orders run (ticket:user)`,
  );
  expected.forEach((e, i) => compareEntry(actual[i]!.outcome, e.outcome, `${where}: delayed ticket ${e.ticket}`));
}

function compareEntry(actual: PlaceEntry | undefined, expected: ModelEntry | ModelOutcome, where: string): void {
  if (!actual) expect.fail(`${where}: engine returned no entry`);
  const a = actual;
  same(
    a.status,
    expected.status,
    () => `${where}: status\n engine ${JSON.stringify(a)}\n model  ${JSON.stringify(expected)}`,
  );
  if (a.status === 'error' && expected.status === 'error') {
    same(a.errorType, expected.errorType, () => `${where}: errorType`);
    if (expected.code !== undefined)
      same((a as { code?: string }).code, expected.code, () => `${where}: edit refusal code`);
    // exchange-api §7.3 names these messages; the postArb one is not spelled out there.
    if (expected.errorType === 'rejected_order_type_rules' && !expected.error.startsWith('postArb'))
      same(a.error, expected.error, () => `${where}: message`);
    return;
  }
  if (a.status === 'delayed' && expected.status === 'delayed') {
    same(a.executeAt, expected.executeAt, () => `${where}: executeAt`);
    return;
  }
  if (a.status !== 'ok' || expected.status !== 'ok') return;
  same(a.edit?.mode, expected.edit?.mode, () => `${where}: edit mode`);
  same(a.edit?.original.id, expected.edit?.originalId, () => `${where}: edited order`);
  same(
    a.matched.length,
    expected.matched.length,
    () => `${where}: fill count\n engine ${JSON.stringify(a.matched)}\n model  ${JSON.stringify(expected.matched)}`,
  );
  expected.matched.forEach((m, k) => {
    const f = a.matched[k]!;
    const w = (): string => `${where} fill ${k}\n engine ${JSON.stringify(f)}\n model  ${JSON.stringify(m)}`;
    same(f.orderID, m.makerOrderID, () => `${w()}: maker order id`);
    same(f.odds, m.odds, () => `${w()}: odds`);
    near(f.amount, m.amount, () => `${w()}: amount`);
    near(f.winWithoutCommission, m.winWithoutCommission, () => `${w()}: winWithoutCommission`);
    near(f.win, m.win, () => `${w()}: win`);
    near(f.risk, m.risk, () => `${w()}: risk`);
  });
  if (expected.unmatched === null) {
    same(a.unmatched, null, () => `${where}: unmatched should be null`);
  } else {
    if (!a.unmatched) expect.fail(`${where}: engine rests nothing, model rests ${JSON.stringify(expected.unmatched)}`);
    same(a.unmatched.orderID, expected.orderID, () => `${where}: unmatched id`);
    same(a.unmatched.odds, expected.unmatched.odds, () => `${where}: unmatched odds`);
    near(a.unmatched.offered, expected.unmatched.offered, () => `${where}: offered`);
  }
}

function compareCancel(actual: CancelOutcome | undefined, expected: ModelCancel, where: string): void {
  if (!actual) expect.fail(`${where}: engine returned no outcome`);
  const a = actual;
  same(
    a.success,
    expected.success,
    () => `${where}: success\n engine ${JSON.stringify(a)}\n model  ${JSON.stringify(expected)}`,
  );
  if (!a.success && !expected.success) {
    same(a.code, expected.code, () => `${where}: code`);
    if (expected.order)
      same(a.order?.status, expected.order.status, () => `${where}: status of the uncancellable order`);
    return;
  }
  if (a.success && expected.success) {
    same(a.order.id, expected.order.id, () => `${where}: id`);
    same(a.order.status, 'cancelled', () => `${where}: status`);
    near(a.order.remaining, expected.order.remaining, () => `${where}: remaining at cancellation`);
    near(a.order.filled, expected.order.filled, () => `${where}: filled at cancellation`);
  }
}

/** After every command: every book side, every known order, every user's open orders. */
function compareState(m: ReferenceModel, h: Harness, after: string, games: number): void {
  for (const g of GAMES.slice(0, games)) {
    for (const key of BOOK_KEYS) {
      for (const side of [0, 1] as const) {
        const where = (): string => `after ${after}: book ${g.id.slice(-4)} ${key} side ${side}`;
        const actual = h.engine
          .bookSide(g.id, key, side)
          .map((l) => ({ id: l.order.id, listedOdds: l.listedOdds, sumUntaken: l.sumUntaken }));
        const expected = m.bookSide(g.id, key, side);
        const ok =
          actual.length === expected.length &&
          expected.every((l, k) => actual[k]!.id === l.id && actual[k]!.listedOdds === l.listedOdds);
        if (!ok) {
          expect(
            actual.map((l) => [l.id, l.listedOdds]),
            `${where()}: ids and listed odds\n model ${JSON.stringify(expected)}`,
          ).toEqual(expected.map((l) => [l.id, l.listedOdds]));
        }
        expected.forEach((l, k) =>
          near(actual[k]!.sumUntaken, l.sumUntaken, () => `${where()}: sumUntaken of ${l.id}`),
        );
      }
    }
  }
  for (const o of m.orders) {
    const v = h.engine.order(o.id);
    if (!v) expect.fail(`after ${after}: order ${o.id} unknown to the engine`);
    same(v.status, o.status, () => `after ${after}: status of ${o.id}`);
    near(v.filled, o.filled, () => `after ${after}: filled of ${o.id}`);
    if (o.status === 'open') near(v.remaining, o.remaining, () => `after ${after}: remaining of ${o.id}`);
  }
  for (const u of USERS) {
    const expected = m.orders
      .filter((o) => o.userId === u.id && o.status === 'open')
      .sort((a, b) => a.seq - b.seq)
      .map((o) => o.id);
    sameList(
      h.engine.openOrders(u.id).map((o) => o.id),
      expected,
      () => `after ${after}: open orders of ${u.id}`,
    );
  }
}

class PlaceCommand implements Cmd {
  constructor(
    readonly user: number,
    readonly orders: readonly AbstractOrder[],
  ) {}
  check(): boolean {
    return true;
  }
  run(s: ModelState, h: Harness): void {
    const userId = USERS[this.user]!.id;
    const firstEvent = h.events.length;
    const entries = h.engine.place(userId, this.orders.map(toWire));
    same(entries.length, this.orders.length, () => `${this}: entry count`);
    const expected = s.model.place(userId, this.orders.map(toModelInput), namesFor(h, firstEvent, entries));
    compareExecuted(s.model, h, firstEvent, String(this));
    expected.forEach((e, i) => compareEntry(entries[i], e, `${this} entry ${i}`));
    compareState(s.model, h, String(this), s.games);
  }
  toString(): string {
    return `place(${USERS[this.user]!.id}, ${JSON.stringify(this.orders)})`;
  }
}

class CancelCommand implements Cmd {
  constructor(
    readonly user: number,
    readonly refs: readonly number[],
    readonly many: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  run(s: ModelState, h: Harness): void {
    const userId = USERS[this.user]!.id;
    const ids = this.refs.map((r) => resolveRef(s.model.ids(), r));
    const firstEvent = h.events.length;
    if (this.many) {
      const outcomes = h.engine.cancelMany(userId, ids);
      const expected = s.model.cancelMany(userId, ids, namesFor(h, firstEvent));
      same(outcomes.length, expected.length, () => `${this}: outcome count`);
      compareExecuted(s.model, h, firstEvent, String(this));
      expected.forEach((e, i) => compareCancel(outcomes[i], e, `${this} [${ids[i]}]`));
    } else {
      const outcome = h.engine.cancel(userId, ids[0]);
      const expected = s.model.cancel(userId, ids[0]!, namesFor(h, firstEvent));
      compareExecuted(s.model, h, firstEvent, String(this));
      compareCancel(outcome, expected, `${this} [${ids[0]}]`);
    }
    compareState(s.model, h, String(this), s.games);
  }
  toString(): string {
    return `${this.many ? 'cancelMany' : 'cancel'}(${USERS[this.user]!.id}, refs ${JSON.stringify(this.refs)})`;
  }
}

class CancelAllCommand implements Cmd {
  constructor(readonly user: number) {}
  check(): boolean {
    return true;
  }
  run(s: ModelState, h: Harness): void {
    const userId = USERS[this.user]!.id;
    const firstEvent = h.events.length;
    const outcomes = h.engine.cancelAll(userId);
    const expected = s.model.cancelAll(userId, namesFor(h, firstEvent));
    compareExecuted(s.model, h, firstEvent, String(this));
    sameList(
      outcomes.map((o) => (o.success ? o.order.id : `failed:${o.code}`)),
      expected.map((o) => (o.success ? o.order.id : `failed:${o.code}`)),
      () => `${this}: cancelled ids`,
    );
    expected.forEach((e, i) => compareCancel(outcomes[i], e, `${this} #${i}`));
    compareState(s.model, h, String(this), s.games);
  }
  toString(): string {
    return `cancelAll(${USERS[this.user]!.id})`;
  }
}

interface EditChange {
  readonly odds?: number;
  readonly volume?: number;
  readonly orderType?: OrderType;
  readonly expiryMinutes?: number;
}

class EditCommand implements Cmd {
  constructor(
    readonly user: number,
    /** Edit one of the user's own open orders (when it has any), or any known id. */
    readonly own: boolean,
    readonly ref: number,
    readonly change: EditChange,
  ) {}
  check(): boolean {
    return true;
  }
  run(s: ModelState, h: Harness): void {
    const userId = USERS[this.user]!.id;
    const mine = s.model.orders.filter((o) => o.userId === userId && o.status === 'open');
    const id =
      this.own && mine.length > 0 ? mine[Math.abs(this.ref) % mine.length]!.id : resolveRef(s.model.ids(), this.ref);
    const c = this.change;
    const firstEvent = h.events.length;
    const entry: EditEntry = h.engine.edit(userId, {
      sessionID: id,
      orderOdds: c.odds ?? null,
      orderVolume: c.volume ?? null,
      ...(c.orderType !== undefined ? { orderType: c.orderType } : {}),
      ...(c.expiryMinutes !== undefined ? { expiryChange: String(c.expiryMinutes) } : {}),
    });
    const input: ModelEditInput = { orderID: id, ...c };
    const expected = s.model.edit(userId, input, namesFor(h, firstEvent, [entry]));
    compareExecuted(s.model, h, firstEvent, String(this));
    compareEntry(entry, expected, `${this} [${id}]`);
    compareState(s.model, h, String(this), s.games);
  }
  toString(): string {
    return `edit(${USERS[this.user]!.id}, ${this.own ? 'own' : 'any'} ref ${this.ref}, ${JSON.stringify(this.change)})`;
  }
}

const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined, freq: 2 });

function editArb(odds: fc.Arbitrary<number>, orderType: fc.Arbitrary<OrderType>): fc.Arbitrary<Cmd> {
  return fc
    .tuple(
      userArb,
      fc.constantFrom(true, true, true, false),
      refArb,
      fc.record({
        odds: maybe(odds),
        volume: maybe(betArb),
        orderType: fc.option(orderType, { nil: undefined, freq: 1 }),
        expiryMinutes: maybe(expirationArb),
      }),
    )
    .map(([u, own, ref, change]): Cmd => {
      const c: { -readonly [K in keyof EditChange]: EditChange[K] } = {};
      if (change.odds !== undefined) c.odds = change.odds;
      if (change.volume !== undefined) c.volume = change.volume;
      if (change.orderType !== undefined) c.orderType = change.orderType;
      if (change.expiryMinutes !== undefined) c.expiryMinutes = change.expiryMinutes;
      return new EditCommand(u, own, ref, c);
    });
}

class AdvanceCommand implements Cmd {
  constructor(
    readonly ms: number,
    readonly call: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  run(s: ModelState, h: Harness): void {
    h.clock.advance(this.ms);
    s.model.now += this.ms;
    if (this.call) {
      const firstEvent = h.events.length;
      h.engine.advance();
      s.model.advance(namesFor(h, firstEvent));
      compareExecuted(s.model, h, firstEvent, String(this));
    }
    same(h.engine.now(), s.model.now, () => `${this}: clock`);
    compareState(s.model, h, String(this), s.games);
  }
  toString(): string {
    return `advance(${this.ms}ms${this.call ? ', engine.advance()' : ', clock only'})`;
  }
}

function commandArbs(opts: OrderArbOptions): fc.Arbitrary<Cmd>[] {
  const order = abstractOrderArb(opts);
  const place = fc
    .tuple(userArb, fc.array(order, { minLength: 1, maxLength: 3 }))
    .map(([u, os]): Cmd => new PlaceCommand(u, os));
  const edit = editArb(opts.odds ?? oddsArb, opts.orderType ?? orderTypeArb);
  return [
    edit,
    edit,
    place,
    place,
    place,
    place,
    place,
    fc.tuple(userArb, refArb).map(([u, r]): Cmd => new CancelCommand(u, [r], false)),
    fc
      .tuple(userArb, fc.array(refArb, { minLength: 1, maxLength: 4 }))
      .map(([u, rs]): Cmd => new CancelCommand(u, rs, true)),
    userArb.map((u): Cmd => new CancelAllCommand(u)),
    fc.tuple(advanceMsArb, fc.boolean()).map(([ms, call]): Cmd => new AdvanceCommand(ms, call)),
  ];
}

function setup(games: number): () => { model: ModelState; real: Harness } {
  const live = new Map(
    GAMES.slice(0, games)
      .filter((g) => g.live)
      .map((g) => [g.id, LIVE_DELAY_MS] as const),
  );
  return () => ({
    model: { model: new ReferenceModel(T0, USERS, live), games },
    real: createHarness({ seed: 1, games }),
  });
}

describe('MatchingEngine vs reference model', () => {
  test.prop([fc.commands(commandArbs({}), { maxCommands: 40, size: 'max' })], { numRuns: runs(200) })(
    'model: place/cancel/cancelAll/edit/advance agree with the reference model (two games, all order types)',
    (cmds) => {
      fc.modelRun(setup(2), cmds);
    },
  );

  // Few prices on one game: long queues at one level, many ties on time priority, and
  // enough closed orders inside one level to exercise the engine's lazy compaction.
  const narrowOdds = fc.constantFrom(-110, -105, 105, 110);
  const mostlyLimit = fc.constantFrom<OrderType>(
    'limit',
    'limit',
    'limit',
    'post',
    'fillAndKill',
    'fillOrKill',
    'postArb',
  );
  test.prop(
    [
      fc.commands(commandArbs({ game: fc.constant(0), odds: narrowOdds, orderType: mostlyLimit }), {
        maxCommands: 120,
        size: 'max',
      }),
    ],
    { numRuns: runs(200) },
  )('model: deep queues at few prices agree with the reference model', (cmds) => {
    fc.modelRun(setup(1), cmds);
  });

  // A live game (NBA, 5 s delay) beside a pre-game one: crossing orders come back as
  // `delayed` and run at the start of the first call at or after their time, against the
  // book as it is then; expiries and delayed orders due together run in scheduling order.
  test.prop([fc.commands(commandArbs({ game: fc.constantFrom(2, 2, 2, 0) }), { maxCommands: 60, size: 'max' })], {
    numRuns: runs(200),
  })('model: live-game delays agree with the reference model', (cmds) => {
    fc.modelRun(setup(3), cmds);
  });
});
