/**
 * Invariants of the MatchingEngine over random operation sequences: stake conservation
 * across place / fill / cancel / expiry, books never crossed at rest, determinism, and
 * (with small balances) that resting plus matched worst-case loss never exceeds what an
 * account can cover.
 */
import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import type { EngineEvent, Fill, OrderView } from '../../src/engine/index.ts';
import {
  BOOK_KEYS,
  GAMES,
  USERS,
  americanRank,
  applyOp,
  close,
  createHarness,
  opsArb,
  payoutOf,
  runs,
  snapshotBooks,
  type Harness,
  type Op,
  type OpResult,
} from '../support/prop-engine.ts';

const FOK_RESIDUAL = 10;

function fail(message: string): never {
  expect.fail(message);
}

function check(cond: boolean, message: () => string): void {
  if (!cond) fail(message());
}

/** Run ops one by one, handing each op, its result and the events it produced to `after`. */
function run(
  h: Harness,
  ops: readonly Op[],
  after: (op: Op, result: OpResult, events: readonly EngineEvent[], step: number) => void,
): void {
  ops.forEach((op, step) => {
    const first = h.events.length;
    const result = applyOp(h, op);
    after(op, result, h.events.slice(first), step);
  });
}

const at = (step: number, op: Op): string => `step ${step} ${JSON.stringify(op)}`;

// ------------------------------------------------------------------ conservation

function checkFillMirror(f: Fill, where: string): void {
  const t = f.taker.money;
  const m = f.maker.money;
  const w = (): string => `${where} fill ${f.txID}: taker ${JSON.stringify(t)} maker ${JSON.stringify(m)}`;
  // What one side risks is exactly what the other wins (before commission).
  check(close(m.amount, t.winWithoutCommission), () => `${w()}: maker amount ≠ taker winWithoutCommission`);
  check(close(m.winWithoutCommission, t.amount), () => `${w()}: maker winWithoutCommission ≠ taker amount`);
  check(t.amount > 0 && m.amount > 0, () => `${w()}: empty fill`);
  // Fills execute at the maker's listed price: the two odds are each other's inverse.
  check(t.odds === (Math.abs(m.odds) === 100 ? 100 : -m.odds), () => `${w()}: taker odds are not the maker's inverse`);
  // Makers pay no commission; the taker pays its rate unless postArb.
  check(m.risk === m.amount && m.win === m.winWithoutCommission, () => `${w()}: maker charged commission`);
  const rate = f.isPostArb ? 0 : USERS.find((u) => u.id === f.taker.userId)!.commissionRate;
  check(close(t.win, t.winWithoutCommission * (1 - rate)), () => `${w()}: taker win at rate ${rate}`);
  check(
    close(t.risk, t.amount + rate * Math.min(t.amount, t.winWithoutCommission)),
    () => `${w()}: taker risk at rate ${rate}`,
  );
}

/** bet = filled + remaining for an order that is open or was closed by cancel / expiry. */
function checkOrderBalance(o: OrderView, where: string): void {
  const w = (): string => `${where}: order ${JSON.stringify(o)}`;
  check(
    o.filled >= 0 && o.remaining >= 0 && o.filled <= o.bet * (1 + 1e-9) + 1e-9,
    () => `${w()}: amounts out of range`,
  );
  switch (o.status) {
    case 'open':
      check(o.remaining > 0, () => `${w()}: open with nothing remaining`);
      check(close(o.filled + o.remaining, o.bet), () => `${w()}: filled + remaining ≠ bet`);
      break;
    case 'filled':
      check(o.remaining === 0 && close(o.filled, o.bet), () => `${w()}: filled order with a residual`);
      break;
    case 'cancelled':
    case 'expired':
      if (o.closeReason === 'fillAndKill' || o.closeReason === 'fillOrKill') {
        // The unfilled rest of a kill order is discarded, never rested.
        check(o.remaining === 0 && o.filled < o.bet, () => `${w()}: killed order`);
        if (o.closeReason === 'fillOrKill')
          check(o.bet - o.filled <= FOK_RESIDUAL + 1e-6, () => `${w()}: fillOrKill residual above 10`);
      } else {
        check(close(o.filled + o.remaining, o.bet), () => `${w()}: filled + remaining-at-close ≠ bet`);
      }
      break;
  }
}

describe('engine invariants', () => {
  test.prop([opsArb()], { numRuns: runs(200) })(
    'conservation: the two sides of every fill mirror each other',
    (ops) => {
      const h = createHarness();
      run(h, ops, (op, _r, events, step) => {
        for (const e of events) if (e.kind === 'fill') checkFillMirror(e.fill, at(step, op));
      });
    },
  );

  test.prop([opsArb()], { numRuns: runs(200) })(
    'conservation: no stake is created or lost across place, fill, cancel and expiry',
    (ops) => {
      const h = createHarness();
      /** Σ stake matched per order id, from fill events (taker amount for the taker order, maker risk for the maker order). */
      const matchedByOrder = new Map<string, number>();
      const volumeByGame = new Map<string, number>();
      const fills: Fill[] = [];
      const add = (m: Map<string, number>, k: string, v: number): void => {
        m.set(k, (m.get(k) ?? 0) + v);
      };
      run(h, ops, (op, result, events, step) => {
        const where = at(step, op);
        for (const e of events) {
          switch (e.kind) {
            case 'fill':
              fills.push(e.fill);
              add(matchedByOrder, e.fill.taker.orderID, e.fill.taker.money.amount);
              add(matchedByOrder, e.fill.maker.orderID, e.fill.maker.money.amount);
              add(volumeByGame, e.fill.gameID, e.fill.taker.money.amount + e.fill.maker.money.amount);
              checkOrderBalance(e.fill.makerOrderAfter, `${where} makerOrderAfter`);
              check(
                close(e.fill.makerOrderAfter.filled, matchedByOrder.get(e.fill.maker.orderID)!),
                () => `${where}: maker order ${e.fill.maker.orderID} filled ≠ Σ its fills`,
              );
              break;
            case 'orderPlaced':
            case 'orderCancelled':
            case 'orderExpired':
              checkOrderBalance(e.order, `${where} ${e.kind}`);
              break;
            default:
              break;
          }
        }
        if (result.kind === 'cancel')
          for (const c of result.outcomes) if (c.success) checkOrderBalance(c.order, `${where} cancel result`);
        if (result.kind === 'place') {
          for (const entry of result.entries) {
            if (entry.status !== 'ok') continue;
            const taken = entry.matched.reduce((s, f) => s + f.amount, 0);
            const orderID = entry.unmatched?.orderID;
            if (orderID !== undefined) {
              const o = h.engine.order(orderID)!;
              check(
                close(taken + entry.unmatched!.offered, o.bet),
                () => `${where}: matched ${taken} + offered ${entry.unmatched!.offered} ≠ bet ${o.bet}`,
              );
            }
          }
        }
        // Resting amounts on the book are the orders' own remaining risk.
        for (const g of GAMES) {
          for (const key of BOOK_KEYS) {
            for (const side of [0, 1] as const) {
              for (const l of h.engine.bookSide(g.id, key, side)) {
                check(l.order.status === 'open', () => `${where}: closed order ${l.order.id} listed`);
                check(
                  close(l.sumUntaken, l.order.remaining * payoutOf(l.order.odds)),
                  () => `${where}: sumUntaken of ${l.order.id}`,
                );
              }
            }
          }
        }
      });

      // Every order ever seen: filled equals the sum of its fills, and its stake is accounted for.
      const ids = new Set<string>([...matchedByOrder.keys(), ...h.knownIds]);
      for (const id of ids) {
        const o = h.engine.order(id);
        if (!o) fail(`order ${id} unknown`);
        checkOrderBalance(o, 'final');
        check(
          close(o.filled, matchedByOrder.get(id) ?? 0),
          () => `final: order ${id} filled ${o.filled} ≠ Σ fills ${matchedByOrder.get(id) ?? 0}`,
        );
      }

      // Bets: exactly one offer and one wager per fill, carrying the fill's money; totals agree.
      const betsByTx = new Map<string, { offer: number; wager: number; amount: number }>();
      let betStake = 0;
      for (const u of USERS) {
        for (const b of h.engine.bets(u.id)) {
          betStake += b.money.amount;
          const entry = betsByTx.get(b.txID) ?? { offer: 0, wager: 0, amount: 0 };
          entry[b.origin]++;
          entry.amount += b.money.amount;
          betsByTx.set(b.txID, entry);
        }
      }
      let fillStake = 0;
      for (const f of fills) {
        fillStake += f.taker.money.amount + f.maker.money.amount;
        const e = betsByTx.get(f.txID);
        check(e !== undefined && e.offer === 1 && e.wager === 1, () => `fill ${f.txID}: bets ${JSON.stringify(e)}`);
        check(
          close(e!.amount, f.taker.money.amount + f.maker.money.amount),
          () => `fill ${f.txID}: bet stakes ≠ fill stakes`,
        );
      }
      check(betsByTx.size === fills.length, () => `${betsByTx.size} txIDs among bets, ${fills.length} fills`);
      check(close(betStake, fillStake), () => `Σ bet stakes ${betStake} ≠ Σ fill stakes ${fillStake}`);
      for (const g of GAMES) {
        check(close(h.engine.matchedVolume(g.id), volumeByGame.get(g.id) ?? 0), () => `matchedVolume of ${g.id}`);
      }
    },
  );

  test.prop([opsArb()], { numRuns: runs(200) })(
    'never crossed at rest: best resting orders of the two sides cannot match each other',
    (ops) => {
      const h = createHarness();
      run(h, ops, (op, _r, _e, step) => {
        for (const g of GAMES) {
          for (const key of BOOK_KEYS) {
            const best0 = h.engine.bookSide(g.id, key, 0)[0];
            const best1 = h.engine.bookSide(g.id, key, 1)[0];
            if (!best0 || !best1) continue;
            // A maker on side 1 (listed at L1) backs side 0 at inv(L1); it would match L0 iff
            // payout(L0) ≥ payout(inv(L1)) = 1 / payout(L1).
            const product = payoutOf(best0.listedOdds) * payoutOf(best1.listedOdds);
            check(
              product < 1 - 1e-9 && americanRank(best0.listedOdds) + americanRank(best1.listedOdds) < 0,
              () =>
                `${at(step, op)}: ${g.id} ${key} crossed at rest: ` +
                `side 0 best ${best0.listedOdds} (${best0.order.id}), ` +
                `side 1 best ${best1.listedOdds} (${best1.order.id}), product ${product}`,
            );
          }
        }
      });
    },
  );

  test.prop([opsArb(), fc.integer({ min: 1, max: 0xffff })], { numRuns: runs(200) })(
    'determinism: the same sequence on two fresh engines with the same seed gives identical results and events',
    (ops, seed) => {
      const transcript = (): string => {
        const h = createHarness({ seed });
        const results = ops.map((op) => applyOp(h, op));
        const final = {
          books: snapshotBooks(h),
          bets: USERS.map((u) => h.engine.bets(u.id)),
          open: USERS.map((u) => h.engine.openOrders(u.id)),
          accounts: USERS.map((u) => h.engine.account(u.id)),
          nextDueAt: h.engine.nextDueAt() ?? null,
        };
        return JSON.stringify({ results, events: h.events, final });
      };
      const a = transcript();
      const b = transcript();
      if (a !== b) expect(b).toBe(a);
    },
  );

  test.prop([opsArb(), fc.integer({ min: 0, max: 2_000 }), fc.constantFrom(0, 0, 100, 500)], { numRuns: runs(200) })(
    'liability: worst-case loss with resting orders never exceeds balance + credit; a rejected_liability entry changes nothing',
    (ops, balance, creditLimit) => {
      const h = createHarness({ balance, creditLimit });
      const userState = (id: string): string =>
        JSON.stringify({ a: h.engine.account(id), b: h.engine.bets(id), o: h.engine.openOrders(id) });
      ops.forEach((op, step) => {
        const where = at(step, op);
        if (op.kind === 'place') {
          // Place entry by entry, so the effect of each one is observable.
          h.engine.advance();
          for (const [i, order] of op.orders.entries()) {
            const before = { books: JSON.stringify(snapshotBooks(h)), users: USERS.map((u) => userState(u.id)) };
            const entry = applyOp(h, { kind: 'place', user: op.user, orders: [order] });
            if (
              entry.kind === 'place' &&
              entry.entries[0]!.status === 'error' &&
              entry.entries[0]!.errorType === 'rejected_liability'
            ) {
              check(
                JSON.stringify(snapshotBooks(h)) === before.books,
                () => `${where} entry ${i}: books changed by a rejected_liability entry`,
              );
              USERS.forEach((u, k) =>
                check(
                  userState(u.id) === before.users[k],
                  () => `${where} entry ${i}: ${u.id} changed by a rejected_liability entry`,
                ),
              );
            }
          }
        } else {
          applyOp(h, op);
        }
        for (const u of USERS) {
          const a = h.engine.account(u.id)!;
          check(a.exposure <= 0, () => `${where}: ${u.id} exposure ${a.exposure} > 0`);
          check(
            -a.exposure <= a.balance + a.creditLimit + 1e-6,
            () =>
              `${where}: ${u.id} worst-case loss ${-a.exposure} exceeds balance ${a.balance} + credit ${a.creditLimit}`,
          );
          for (const g of GAMES)
            check(h.engine.gameLiability(u.id, g.id) <= 0, () => `${where}: ${u.id} gameLiability on ${g.id} positive`);
        }
      });
    },
  );
});
