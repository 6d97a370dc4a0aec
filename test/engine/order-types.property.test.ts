/**
 * Order-type rules (exchange-api §3, §4.5 rules 2-5), checked on probe orders placed one at
 * a time into books built by random operation sequences. A probe's odds can be set
 * relative to the best listed price it meets and a fillOrKill's bet relative to the
 * liquidity it can reach, so the postArb band and the fillOrKill residual are hit often.
 */
import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import type { EngineEvent, ListedOrder, OrderType, PlaceEntry } from '../../src/engine/index.ts';
import {
  GAMES,
  SPREAD_HOME_LINES,
  TOTAL_LINES,
  USERS,
  abstractOrderArb,
  americanRank,
  applyOp,
  bookKeyOfAbstract,
  close,
  createHarness,
  gameIDOf,
  inPostArbBand,
  opArb,
  runs,
  snapshotBooks,
  toWire,
  userArb,
  type AbstractOrder,
  type Harness,
  type Op,
} from '../support/prop-engine.ts';

const FOK_RESIDUAL = 10;
const EPS = 1e-6;

interface Probe {
  readonly kind: 'probe';
  readonly user: number;
  readonly order: AbstractOrder;
  /** Order odds = best listed price it meets moved `oddsDelta` steps worse for it (negative: better than the book). */
  readonly oddsDelta: number | null;
  /** fillOrKill: bet = reachable liquidity + `residual`. */
  readonly residual: number | null;
  /** When set, the probe is moved onto the (target mod n)-th non-empty side it could take from. */
  readonly target: number | null;
}

/** Every (game, market, line, side) a probe can take from. */
const PLACES: readonly Pick<AbstractOrder, 'game' | 'market' | 'line' | 'side'>[] = GAMES.flatMap((_, game) =>
  (['moneyline', 'spread', 'total'] as const).flatMap((market) =>
    Array.from(
      { length: market === 'moneyline' ? 1 : market === 'spread' ? SPREAD_HOME_LINES.length : TOTAL_LINES.length },
      (_, line) => ([0, 1] as const).map((side) => ({ game, market, line, side })),
    ).flat(),
  ),
);

type Step = Op | Probe;

interface ProbeContext {
  readonly h: Harness;
  readonly probe: Probe;
  readonly order: AbstractOrder;
  readonly userId: string;
  /** The side the probe takes from, before it was placed: best first. */
  readonly takeSide: readonly ListedOrder[];
  /** Listed orders it can reach at its limit. */
  readonly crossing: readonly ListedOrder[];
  readonly capacity: number;
  readonly entry: PlaceEntry;
  readonly events: readonly EngineEvent[];
  readonly before: Snapshot;
  readonly after: Snapshot;
  readonly where: string;
}

interface Snapshot {
  readonly books: string;
  readonly user: string;
}

function fromRank(rank: number): number {
  return rank >= 0 ? rank + 100 : rank - 100;
}

function snapshot(h: Harness, userId: string): Snapshot {
  return {
    books: JSON.stringify(snapshotBooks(h)),
    user: JSON.stringify({
      account: h.engine.account(userId),
      bets: h.engine.bets(userId),
      open: h.engine.openOrders(userId),
    }),
  };
}

function check(cond: boolean, message: () => string): void {
  if (!cond) expect.fail(message());
}

function probeArb(
  orderType: OrderType,
  oddsDelta: fc.Arbitrary<number | null>,
  residual: fc.Arbitrary<number | null>,
): fc.Arbitrary<Probe> {
  return fc.record({
    kind: fc.constant('probe' as const),
    user: userArb,
    order: abstractOrderArb({ orderType: fc.constant(orderType) }),
    oddsDelta,
    residual,
    target: fc.option(fc.nat(), { freq: 4 }),
  });
}

function stepsArb(probe: fc.Arbitrary<Probe>): fc.Arbitrary<Step[]> {
  return fc.array(fc.oneof({ weight: 3, arbitrary: opArb() }, { weight: 1, arbitrary: probe as fc.Arbitrary<Step> }), {
    minLength: 1,
    maxLength: 40,
    size: 'max',
  });
}

/** Run the steps; each probe is placed alone and handed to `verify` with what the book looked like before. */
function runProbes(steps: readonly Step[], verify: (c: ProbeContext) => void): void {
  const h = createHarness();
  steps.forEach((step, i) => {
    if (step.kind !== 'probe') {
      applyOp(h, step);
      return;
    }
    // Run due work now, so the place call itself changes nothing but the probe's effect.
    h.engine.advance();
    const userId = USERS[step.user]!.id;
    let base = step.order;
    if (step.target !== null) {
      const nonEmpty = PLACES.filter((p) => h.engine.bookSide(gameIDOf(p), bookKeyOfAbstract(p), p.side).length > 0);
      if (nonEmpty.length > 0) base = { ...base, ...nonEmpty[step.target % nonEmpty.length]! };
    }
    const gameID = gameIDOf(base);
    const key = bookKeyOfAbstract(base);
    const takeSide = h.engine.bookSide(gameID, key, base.side);
    const best = takeSide[0];
    const odds = step.oddsDelta !== null && best ? fromRank(americanRank(best.listedOdds) - step.oddsDelta) : base.odds;
    const own = odds === -100 ? 100 : odds;
    const crossing = takeSide.filter((l) => americanRank(l.listedOdds) >= americanRank(own));
    const capacity = crossing.reduce((s, l) => s + l.sumUntaken, 0);
    // Bets stay whole cents, as a client sends them (sub-cent bets: see the dust property).
    const bet = step.residual === null ? base.bet : Math.max(0.01, Math.round((capacity + step.residual) * 100) / 100);
    const order: AbstractOrder = { ...base, odds, bet };
    const before = snapshot(h, userId);
    const first = h.events.length;
    const entry = h.engine.place(userId, [toWire(order)])[0]!;
    verify({
      h,
      probe: step,
      order,
      userId,
      takeSide,
      crossing,
      capacity,
      entry,
      events: h.events.slice(first),
      before,
      after: snapshot(h, userId),
      where:
        `step ${i}: ${userId} places ${JSON.stringify(order)} into ` +
        `${JSON.stringify(takeSide.map((l) => [l.order.id, l.listedOdds, l.sumUntaken]))}\n → ${JSON.stringify(entry)}`,
    });
  });
}

function expectRejected(c: ProbeContext, message: string | null): void {
  check(
    c.entry.status === 'error' && c.entry.errorType === 'rejected_order_type_rules',
    () => `${c.where}: expected rejected_order_type_rules`,
  );
  if (message !== null && c.entry.status === 'error') check(c.entry.error === message, () => `${c.where}: message`);
  check(
    c.events.length === 0,
    () => `${c.where}: a rejected order emitted ${JSON.stringify(c.events.map((e) => e.kind))}`,
  );
  if (c.after.books !== c.before.books)
    expect(c.after.books, `${c.where}: books changed by a rejected order`).toBe(c.before.books);
  if (c.after.user !== c.before.user)
    expect(c.after.user, `${c.where}: account/bets/open orders changed by a rejected order`).toBe(c.before.user);
}

function okEntry(c: ProbeContext): Extract<PlaceEntry, { status: 'ok' }> {
  if (c.entry.status !== 'ok') expect.fail(`${c.where}: expected an accepted order`);
  return c.entry;
}

const matchedStake = (e: Extract<PlaceEntry, { status: 'ok' }>): number => e.matched.reduce((s, f) => s + f.amount, 0);

/** The order placed by the probe, from its fills (fillAndKill / fillOrKill never rest). */
function takerOrderIDOf(c: ProbeContext): string | undefined {
  for (const e of c.events) if (e.kind === 'fill') return e.fill.taker.orderID;
  return undefined;
}

/** The probe's own order after an accepted fillAndKill / fillOrKill: fully filled, or its rest cancelled, never open. */
function checkKilled(c: ProbeContext, reason: 'fillAndKill' | 'fillOrKill'): void {
  const id = takerOrderIDOf(c);
  if (id === undefined) expect.fail(`${c.where}: accepted ${reason} without a fill event`);
  const o = c.h.engine.order(id);
  check(
    o !== undefined && (o.status === 'filled' || (o.status === 'cancelled' && o.closeReason === reason)),
    () => `${c.where}: ${reason} order ends ${JSON.stringify(o)}`,
  );
  const listedSide = c.order.side === 0 ? 1 : 0;
  check(
    c.h.engine.bookSide(gameIDOf(c.order), bookKeyOfAbstract(c.order), listedSide).every((l) => l.order.id !== id),
    () => `${c.where}: ${reason} order listed`,
  );
}

const deltaArb = (deltas: readonly number[]): fc.Arbitrary<number | null> =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...deltas) }, { weight: 1, arbitrary: fc.constant(null) });

describe('order types', () => {
  test.prop([stepsArb(probeArb('post', deltaArb([-2, -1, 0, 1, 3]), fc.constant(null)))], { numRuns: runs(200) })(
    'post: never fills; rejected exactly when it would cross, otherwise rests whole',
    (steps) => {
      runProbes(steps, (c) => {
        check(!c.events.some((e) => e.kind === 'fill'), () => `${c.where}: post produced a fill`);
        if (c.crossing.length > 0) return expectRejected(c, 'post order cannot have matches');
        const e = okEntry(c);
        check(e.matched.length === 0, () => `${c.where}: post matched`);
        check(
          e.unmatched !== null && e.unmatched.offered === c.order.bet,
          () => `${c.where}: post did not rest its whole bet`,
        );
      });
    },
  );

  test.prop(
    [
      stepsArb(
        probeArb('fillOrKill', deltaArb([0, 1, 5, 40]), fc.constantFrom(-50, -5, 0, 5, 9.99, 10, 10.01, 15, 100, null)),
      ),
    ],
    { numRuns: runs(200) },
  )(
    'fillOrKill: all or nothing up to a residual of 10; a rejection leaves books, account and bets exactly as before',
    (steps) => {
      runProbes(steps, (c) => {
        const residual = c.order.bet - c.capacity;
        if (c.crossing.length === 0) return expectRejected(c, 'fill or kill has no matches');
        if (residual > FOK_RESIDUAL + EPS) return expectRejected(c, 'fill or kill matched but not fully');
        if (residual >= FOK_RESIDUAL - EPS) {
          // Exactly at the boundary: see the dedicated property below. Either way, nothing rests.
          if (c.entry.status === 'error') expectRejected(c, null);
          else check(okEntry(c).unmatched === null, () => `${c.where}: fillOrKill rested`);
          return;
        }
        const e = okEntry(c);
        check(e.unmatched === null, () => `${c.where}: fillOrKill rested`);
        check(
          close(matchedStake(e), Math.min(c.order.bet, c.capacity), EPS),
          () => `${c.where}: matched ${matchedStake(e)} of capacity ${c.capacity}`,
        );
        check(!c.events.some((ev) => ev.kind === 'orderPlaced'), () => `${c.where}: fillOrKill placed a resting order`);
        checkKilled(c, 'fillOrKill');
      });
    },
  );

  test.prop([stepsArb(probeArb('fillAndKill', deltaArb([-1, 0, 2, 30]), fc.constant(null)))], { numRuns: runs(200) })(
    'fillAndKill: never returns unmatched and never leaves a resting order; rejected only without liquidity',
    (steps) => {
      runProbes(steps, (c) => {
        check(
          c.entry.status !== 'ok' || c.entry.unmatched === null,
          () => `${c.where}: fillAndKill returned unmatched`,
        );
        check(!c.events.some((e) => e.kind === 'orderPlaced'), () => `${c.where}: fillAndKill placed a resting order`);
        const openBefore = JSON.parse(c.before.user).open.map((o: { id: string }) => o.id) as string[];
        const openAfter = JSON.parse(c.after.user).open.map((o: { id: string }) => o.id) as string[];
        check(
          openAfter.every((id) => openBefore.includes(id)),
          () => `${c.where}: fillAndKill left a new open order`,
        );
        if (c.crossing.length === 0) return expectRejected(c, 'fill and kill has no matches');
        const e = okEntry(c);
        check(e.matched.length > 0, () => `${c.where}: accepted fillAndKill without a fill`);
        check(
          close(matchedStake(e), Math.min(c.order.bet, c.capacity), EPS),
          () => `${c.where}: matched ${matchedStake(e)} of capacity ${c.capacity}`,
        );
        checkKilled(c, 'fillAndKill');
      });
    },
  );

  test.prop([stepsArb(probeArb('postArb', deltaArb([-2, -1, 0, 0, 1, 1, 2, 3, 10]), fc.constant(null)))], {
    numRuns: runs(200),
  })(
    'postArb: matches exactly when the best listed price is within the 1% band (else rejected), rests when nothing crosses, never pays commission',
    (steps) => {
      runProbes(steps, (c) => {
        const own = c.order.odds === -100 ? 100 : c.order.odds;
        const best = c.crossing[0];
        if (best === undefined) {
          const e = okEntry(c);
          check(e.matched.length === 0, () => `${c.where}: postArb matched without crossing`);
          check(
            e.unmatched !== null && e.unmatched.offered === c.order.bet,
            () => `${c.where}: postArb did not rest whole`,
          );
          const placed = c.events.find((ev) => ev.kind === 'orderPlaced');
          check(
            placed?.kind === 'orderPlaced' && placed.order.isPostArb,
            () => `${c.where}: resting postArb not flagged isPostArb`,
          );
          return;
        }
        if (!inPostArbBand(own, best.listedOdds)) return expectRejected(c, null);
        const e = okEntry(c);
        check(
          e.matched.length > 0 && e.matched[0]!.orderID === best.order.id,
          () => `${c.where}: postArb did not take the best resting order first`,
        );
        for (const f of e.matched) {
          check(inPostArbBand(own, f.odds), () => `${c.where}: postArb matched outside the band at ${f.odds}`);
          check(
            f.win === f.winWithoutCommission && f.risk === f.amount,
            () => `${c.where}: postArb fill charged commission ${JSON.stringify(f)}`,
          );
        }
        const reachable = c.crossing
          .filter((l) => inPostArbBand(own, l.listedOdds))
          .reduce((s, l) => s + l.sumUntaken, 0);
        check(
          close(matchedStake(e), Math.min(c.order.bet, reachable), EPS),
          () => `${c.where}: matched ${matchedStake(e)} of in-band capacity ${reachable}`,
        );
        for (const ev of c.events) {
          if (ev.kind === 'fill') {
            check(ev.fill.isPostArb, () => `${c.where}: postArb fill event not flagged`);
            check(
              ev.fill.taker.money.win === ev.fill.taker.money.winWithoutCommission,
              () => `${c.where}: postArb fill event charged commission`,
            );
          }
        }
        if (c.order.bet > reachable + EPS)
          check(
            e.unmatched !== null && close(e.unmatched.offered, c.order.bet - reachable, EPS),
            () => `${c.where}: postArb remainder did not rest`,
          );
      });
    },
  );

  /**
   * Residual exactly 10: makers whose reachable liquidity is a whole number of cents, a
   * fillOrKill for that plus 10.00. exchange-api §4.5 rule 5: "an unmatched residual of 10
   * or less counts as complete", so it must be accepted.
   *
   * Regression: this property found the engine comparing `bet - capacity > 10` on floats;
   * capacity = risk × payout(odds) is often a hair below the exact cents
   * (17.90 × 100/179 = 9.999999999999998), so about one exact-10 case in six was rejected
   * with "fill or kill matched but not fully". Fixed in the engine with a rounding allowance.
   */
  const makerArb = fc
    .record({ odds: fc.integer({ min: 101, max: 300 }).map((x) => -x), units: fc.integer({ min: 1, max: 40 }) })
    .map(({ odds, units }) => {
      // Taker capacity k cents with maker risk k·|odds|/100 a whole number of cents.
      const step = 100 / gcd(-odds, 100);
      const capacityCents = units * step;
      return { odds, capacityCents, riskCents: (capacityCents * -odds) / 100 };
    });
  test.prop([fc.array(makerArb, { minLength: 1, maxLength: 3 })], { numRuns: runs(200) })(
    'fillOrKill: a residual of exactly 10.00 counts as complete',
    (makers) => {
      const h = createHarness();
      const g = GAMES[0]!;
      for (const m of makers) {
        const r = h.engine.place('u0', [
          { gameID: g.id, type: 'moneyline', side: g.home, odds: m.odds, bet: m.riskCents / 100 },
        ]);
        expect(r[0]!.status).toBe('ok');
      }
      // The taker accepts the worst of the makers' listed prices, so it reaches all of them.
      const limit = Math.min(...makers.map((m) => -m.odds));
      const capacityCents = makers.reduce((s, m) => s + m.capacityCents, 0);
      const bet = (capacityCents + 1000) / 100;
      const [entry] = h.engine.place('u1', [
        { gameID: g.id, type: 'moneyline', side: g.away, odds: limit, bet, orderType: 'fillOrKill' },
      ]);
      expect(
        entry,
        `makers ${JSON.stringify(makers)}; fillOrKill ${bet} at +${limit}; book ` +
          `${JSON.stringify(h.engine.bookSide(g.id, 'moneyline', 1).map((l) => l.sumUntaken))}`,
      ).toMatchObject({
        status: 'ok',
        unmatched: null,
      });
    },
  );

  // The minimal case fast-check shrank the bug above to: one maker, one fillOrKill, residual exactly 10.00.
  test('fillOrKill: residual exactly 10.00 is accepted (maker -179 risking 17.90, fillOrKill 20 at +179)', () => {
    const h = createHarness();
    const g = GAMES[0]!;
    h.engine.place('u0', [{ gameID: g.id, type: 'moneyline', side: g.home, odds: -179, bet: 17.9 }]);
    // The maker can absorb exactly 17.90 × 100/179 = 10.00; the engine computes 9.999999999999998.
    const [entry] = h.engine.place('u1', [
      { gameID: g.id, type: 'moneyline', side: g.away, odds: 179, bet: 20, orderType: 'fillOrKill' },
    ]);
    expect(entry).toMatchObject({ status: 'ok', unmatched: null }); // was: rejected_order_type_rules "fill or kill matched but not fully"
  });

  /**
   * exchange-api §3: an accepted order either matches or rests (limit, post, postArb),
   * and an accepted fillAndKill / fillOrKill has matched something.
   *
   * Regression: this property found that a positive bet at or below the engine's float
   * dust (1e-9) passed validation and was answered `{status:'ok', matched:[], unmatched:null}`,
   * the order recorded as `filled` with `filled` 0 (limit / post / postArb on an empty
   * book; every type on a crossing book). The engine now rejects such bets as validation_error.
   */
  test.prop(
    [
      fc.constantFrom<OrderType>('limit', 'post', 'postArb', 'fillAndKill', 'fillOrKill'),
      fc.double({ min: 1e-12, max: 1e-9, noNaN: true }),
      fc.boolean(),
    ],
    { numRuns: runs(200) },
  )('dust bets: an accepted order always matches something or rests', (orderType, bet, withLiquidity) => {
    const h = createHarness();
    const g = GAMES[0]!;
    if (withLiquidity) h.engine.place('u1', [{ gameID: g.id, type: 'moneyline', side: g.home, odds: -120, bet: 50 }]);
    const [entry] = h.engine.place('u0', [
      { gameID: g.id, type: 'moneyline', side: g.away, odds: 110, bet, orderType },
    ]);
    if (entry!.status === 'ok') {
      expect(
        entry!.matched.length > 0 || entry!.unmatched !== null,
        `${orderType} ${bet} accepted with neither a fill nor a resting order`,
      ).toBe(true);
    } else {
      expect(entry).toMatchObject({ status: 'error', errorType: 'validation_error' });
    }
  });
});

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
