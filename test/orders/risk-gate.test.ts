import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { OwnBook } from '../../src/orders/own-book.ts';
import type { OwnFill, OwnOrder } from '../../src/market-model/types.ts';
import { oppositeSelection, type Selection } from '../../src/markets/types.ts';
import { worstCaseLiability } from '../../src/money/liability.ts';
import type { Position } from '../../src/money/position.ts';
import { RiskGate, type Candidate, type RiskLimits } from '../../src/orders/risk-gate.ts';
import { oddsArb, selectionArb } from '../support/money-arbitraries.ts';
import { id, listGame, setup } from './support.ts';

const HOME: Selection = { type: 'moneyline', team: 'home' };
/** The away participant's id in `listGame`'s game. */
const AWAY_ID = id(1);
const AWAY: Selection = { type: 'moneyline', team: 'away' };
const LIMITS: RiskLimits = {
  maxGameLiability: 1_000,
  maxTotalLiability: 5_000,
  maxOrderSize: 500,
  maxOrdersPerGame: 20,
};

const resting = (
  clientId: string,
  gameID: string,
  selection: Selection,
  odds: number,
  size: number,
  over: Partial<OwnOrder> = {},
): OwnOrder => ({
  clientId,
  userReference: `ls1:s:${clientId}`,
  orderID: `o-${clientId}`,
  strategyId: 's',
  intentKey: null,
  gameID,
  selection,
  odds,
  bet: size,
  filled: 0,
  remaining: size,
  status: 'resting',
  isPostArb: false,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

const makerFill = (txID: string, gameID: string, selection: Selection, odds: number, amount: number): OwnFill => ({
  txID,
  orderID: `o-${txID}`,
  gameID,
  selection,
  odds,
  amount,
  risk: amount,
  win: amount,
  origin: 'offer',
  isPostArb: false,
  strategyId: 's',
  at: 0,
});

const post = (gameID: string, selection: Selection, odds: number, size: number): Candidate => ({
  gameID,
  selection,
  odds,
  size,
  commissionRate: 0,
});

describe('risk gate: orders that are not orders', () => {
  it('refuses odds that are not American odds and sizes that are not finite and positive, under their own rule', () => {
    const gate = new RiskGate(new OwnBook({ commissionRate: () => 0.01 }), LIMITS);
    gate.begin();
    for (const odds of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 99, -50, 0, 110.5]) {
      const v = gate.check(post('g', HOME, odds, 10), 'active');
      expect(v.ok ? 'approved' : v.rule, `odds ${odds}`).toBe('invalid-order');
    }
    for (const size of [Number.NaN, Number.POSITIVE_INFINITY, 0, -10]) {
      const v = gate.check(post('g', HOME, 110, size), 'active');
      expect(v.ok ? 'approved' : v.rule, `size ${size}`).toBe('invalid-order');
    }
    // Valid ones still pass, -100 (the same price as +100) included.
    expect(gate.check(post('g', HOME, -100, 10), 'active')).toEqual({ ok: true });
    expect(gate.check(post('g', HOME, -110, 10), 'active')).toEqual({ ok: true });
  });

  it('a NaN-odds intent is refused, and the orders after it in the cycle are still held to the caps', () => {
    const { market, orders, own, placed, notices } = setup({
      limits: { maxGameLiability: 100, maxTotalLiability: 200 },
    });
    listGame(market);
    orders.cycle([
      {
        strategyId: 'a',
        gameID: 'g',
        mode: 'active',
        intents: [
          { key: 'bad', selection: HOME, odds: Number.NaN, size: 10 },
          { key: 'big1', selection: HOME, odds: 110, size: 500 },
          { key: 'big2', selection: AWAY, odds: 110, size: 500 },
        ],
      },
    ]);
    // Each 500 alone loses 500 where it loses: above the game's cap of 100.
    expect(placed).toEqual([]);
    expect(orders.stats.riskRejected).toBe(3);
    expect(notices.map((n) => (n.kind === 'risk-rejected' ? `${n.intentKey}:${n.verdict.rule}` : n.kind))).toEqual([
      'bad:invalid-order',
      'big1:game-liability',
      'big2:game-liability',
    ]);
    expect(own.projectedLiability('g')).toBe(0);
    expect(own.totalProjectedLiability()).toBe(0);
  });

  it('refuses, never passes, when a liability figure of the book is not a number', () => {
    // A resting order with NaN odds (adopted, say) makes its game's worst case NaN.
    const own = new OwnBook({ commissionRate: () => 0.01 });
    own.add(resting('bad', 'g1', HOME, Number.NaN, 10), 'test');
    expect(own.projectedLiability('g1')).toBeNaN();
    const gate = new RiskGate(own, LIMITS);
    gate.begin();
    const onGame = gate.check(post('g1', AWAY, 110, 10), 'active');
    expect(onGame.ok ? 'approved' : onGame.rule).toBe('game-liability');
    // On another game the game's figure is fine; the total over all games is NaN.
    const elsewhere = gate.check(post('g2', AWAY, 110, 10), 'active');
    expect(elsewhere.ok ? 'approved' : elsewhere.rule).toBe('total-liability');
  });
});

describe('risk gate in reducing mode: no fills of ours can leave the worst case below the matched one', () => {
  it('reduce-only orders from two cycles and three strategies: only as much as hedges is sent', () => {
    const { market, orders, own, clock, placed, notices } = setup();
    listGame(market);
    // Matched: home 100 at +100, worst case -100 (away wins).
    own.addFill(makerFill('t1', 'g', HOME, 100, 100));
    const hedge = { key: 'r', selection: AWAY, odds: 100, size: 150 };
    orders.cycle([
      { strategyId: 'a', gameID: 'g', mode: 'reducing', intents: [hedge] },
      { strategyId: 'b', gameID: 'g', mode: 'reducing', intents: [hedge] },
    ]);
    clock.advance(5_000);
    orders.cycle([{ strategyId: 'c', gameID: 'g', mode: 'reducing', intents: [hedge] }]);
    // Each alone lowers the worst case to -50; one sent, the others (this cycle's approval, then a live order) would take it to -200 and -350.
    expect(placed.map((o) => `${o.side === AWAY_ID ? 'away' : 'home'} ${o.bet}@${o.odds}`)).toEqual(['away 150@100']);
    expect(notices.map((n) => (n.kind === 'risk-rejected' ? `${n.strategyId}:${n.verdict.rule}` : n.kind))).toEqual([
      'b:reducing',
      'c:reducing',
    ]);
    const filled = placed.map((o): Position => ({ selection: AWAY, amount: o.bet, odds: o.odds, commissionRate: 0 }));
    expect(worstCaseLiability([...own.positions('g'), ...filled])).toBeGreaterThanOrEqual(-100);
    expect(own.projectedLiability('g')).toBeCloseTo(-100, 9);
  });

  it('refuses an order that hedges only if another of ours fills too', () => {
    // Matched: home 100 at +100 (home wins +100, away wins -100, a tie refunds).
    const own = new OwnBook({ commissionRate: () => 0.01 });
    own.addFill(makerFill('t1', 'g', HOME, 100, 100));
    const gate = new RiskGate(own, LIMITS);
    gate.begin();
    const noDraw: Selection = { type: 'moneyline1x2', outcome: 'draw', yes: false };
    // Wins 198 unless a tie, where it loses 99: lowers the worst case to -99.
    expect(gate.check(post('g', noDraw, 200, 99), 'reducing')).toEqual({ ok: true });
    // Away 150 at +100: -50 alone; with the no-draw bet, filled or not, still no worse than -100.
    expect(gate.check(post('g', AWAY, 100, 150), 'reducing')).toEqual({ ok: true });
    // A second away 150 lowers the matched worst case alone, and with all three filled the
    // worst case is -99; but if both away orders fill and the no-draw bet does not, home
    // winning costs 200.
    const v = gate.check(post('g', AWAY, 100, 150), 'reducing');
    expect(v.ok ? 'approved' : v.rule).toBe('reducing');
    const filled = (selection: Selection, odds: number, amount: number): Position => ({
      selection,
      amount,
      odds,
      commissionRate: 0,
    });
    expect(
      worstCaseLiability([
        ...own.positions('g'),
        filled(noDraw, 200, 99),
        filled(AWAY, 100, 150),
        filled(AWAY, 100, 150),
      ]),
    ).toBeCloseTo(-99, 9);
    expect(worstCaseLiability([...own.positions('g'), filled(AWAY, 100, 150), filled(AWAY, 100, 150)])).toBeCloseTo(
      -200,
      9,
    );
  });

  const stake = fc.integer({ min: 1, max: 30_000 }).map((c) => c / 100);
  test.prop(
    [
      fc.array(fc.record({ selection: selectionArb, odds: oddsArb, amount: stake }), { minLength: 1, maxLength: 3 }),
      fc.array(fc.record({ hedge: fc.nat(2), other: selectionArb, odds: oddsArb, remaining: stake }), { maxLength: 3 }),
      fc.array(fc.record({ hedge: fc.nat(2), other: selectionArb, odds: oddsArb, size: stake }), {
        minLength: 1,
        maxLength: 6,
      }),
    ],
    { numRuns: 200 },
  )(
    'once it approves an order, whichever of our live orders and approved orders fill, whole or in part, the worst case is not below the matched one',
    (fills, rest, candidates) => {
      // Mostly the other side of a matched bet (a hedge), some anything.
      const pick = (c: { hedge: number; other: Selection }) =>
        c.hedge < fills.length ? oppositeSelection(fills[c.hedge]!.selection) : c.other;
      const own = new OwnBook({ commissionRate: () => 0.01 });
      fills.forEach((f, i) => own.addFill(makerFill(`t${i}`, 'g', f.selection, f.odds, f.amount)));
      const live = rest.map((r): Position => ({
        selection: pick(r),
        amount: r.remaining,
        odds: r.odds,
        commissionRate: 0,
      }));
      live.forEach((p, i) => own.add(resting(`c${i}`, 'g', p.selection, p.odds, p.amount), 'test'));
      const before = worstCaseLiability(own.positions('g'));
      const gate = new RiskGate(own, { ...LIMITS, maxGameLiability: 1e9, maxTotalLiability: 1e9 });
      gate.begin();
      const approved: Position[] = [];
      for (const c of candidates) {
        const selection = pick(c);
        if (gate.check(post('g', selection, c.odds, c.size), 'reducing').ok)
          approved.push({ selection, amount: c.size, odds: c.odds, commissionRate: 0 });
      }
      if (approved.length === 0) return;
      // Fills of any part of each order: the worst case is concave in them, so the corners
      // (each order filled whole or not at all) are where it is lowest.
      const orders = [...live, ...approved];
      for (let mask = 0; mask < 1 << orders.length; mask++) {
        const some = orders.filter((_, i) => (mask >> i) & 1);
        expect(worstCaseLiability([...own.positions('g'), ...some])).toBeGreaterThanOrEqual(before - 1e-9);
      }
    },
  );
});

describe("risk gate: the commission on a taker's loss, counted at its most", () => {
  const OVER: Selection = { type: 'total', ou: 'over', line: 200.5 };

  it('a limit order in flight counts stake plus rate × stake where it loses, until the exchange says it rests', () => {
    // Game cap 150. A limit taking home at -200 for 100: filled at -200 a loss costs 100.50
    // (1 % of the lesser of stake and win), filled at a better price, +150 say, 101.
    const { market, orders, own, placed, notices } = setup({ limits: { maxGameLiability: 150 } });
    listGame(market);
    orders.cycle([
      {
        strategyId: 'a',
        gameID: 'g',
        mode: 'active',
        intents: [{ key: 't', selection: HOME, odds: -200, size: 100, orderType: 'limit' }],
      },
    ]);
    expect(placed.map((o) => `${o.orderType} ${o.bet}@${o.odds}`)).toEqual(['limit 100@-200']);
    expect(own.projectedLiability('g')).toBeCloseTo(-101, 9);
    expect(own.projectedLowerBound('g')).toBeLessThanOrEqual(own.projectedLiability('g'));
    // A post that loses 49.80 on its own: 150.80 in all, above the cap.
    orders.cycle([
      { strategyId: 'b', gameID: 'g', mode: 'active', intents: [{ key: 'p', selection: OVER, odds: 110, size: 49.8 }] },
    ]);
    expect(notices.map((n) => (n.kind === 'risk-rejected' ? `${n.intentKey}:${n.verdict.rule}` : n.kind))).toEqual([
      'p:game-liability',
    ]);
    expect(placed).toHaveLength(1);
    // 49 fits: 101 + 49 = 150.
    orders.cycle([
      { strategyId: 'c', gameID: 'g', mode: 'active', intents: [{ key: 'p', selection: OVER, odds: 110, size: 49 }] },
    ]);
    expect(placed.map((o) => `${o.orderType} ${o.bet}@${o.odds}`)).toEqual(['limit 100@-200', 'post 49@110']);
    // The place answer: nothing matched, it rests, as a maker, paying no commission.
    const ref = placed[0]!.userReference!;
    orders.onResult({
      kind: 'placed',
      clientIds: [ref.split(':')[2]!],
      entries: [
        {
          status: 'accepted',
          userReference: ref,
          matched: [],
          resting: { orderID: id(1001), wagerRequestID: 'b'.repeat(24), offered: 100 } as never,
        },
      ],
    });
    expect(own.projectedLiability('g')).toBeCloseTo(-149, 9);
  });

  it('the same for a fillAndKill and a fillOrKill in flight; a post or postArb counts its stake only', () => {
    for (const [orderType, loss] of [
      ['fillAndKill', -101],
      ['fillOrKill', -101],
      ['limit', -101],
      ['post', -100],
    ] as const) {
      const { market, orders, own } = setup();
      listGame(market);
      orders.cycle([
        {
          strategyId: 'a',
          gameID: 'g',
          mode: 'active',
          intents: [{ key: 't', selection: HOME, odds: -200, size: 100, orderType }],
        },
      ]);
      expect(own.projectedLiability('g'), orderType).toBeCloseTo(loss, 9);
    }
    // A post sent as postArb: it takes, but pays no taker fee.
    const { market, orders, own, placed } = setup();
    listGame(market, [{ id: id(7), team: 'home', odds: -199, size: 500 }]);
    orders.cycle([
      { strategyId: 'a', gameID: 'g', mode: 'active', intents: [{ key: 't', selection: HOME, odds: -200, size: 100 }] },
    ]);
    expect(placed.map((o) => o.orderType)).toEqual(['postArb']);
    expect(own.projectedLiability('g')).toBeCloseTo(-100, 9);
  });

  it('a taking candidate is counted at stake plus rate × stake, whatever its odds', () => {
    const take = (odds: number, size: number): Candidate => ({
      gameID: 'g',
      selection: HOME,
      odds,
      size,
      commissionRate: 0.01,
      crossing: true,
    });
    const gate = new RiskGate(new OwnBook({ commissionRate: () => 0.01 }), { ...LIMITS, maxGameLiability: 100.9 });
    gate.begin();
    // At its own odds the loss would cost 100.50; at a better price up to 101.
    const v = gate.check(take(-200, 100), 'active');
    expect(v.ok ? 'approved' : v.rule).toBe('game-liability');
    expect(gate.check(take(-200, 99.9), 'active')).toEqual({ ok: true });
  });

  it('in reducing mode, a taker whose fill at a better price would leave the worst case lower is refused', () => {
    // Matched: away 100 at +100, worst case -100 (home wins).
    const own = new OwnBook({ commissionRate: () => 0.01 });
    own.addFill(makerFill('t1', 'g', AWAY, 100, 100));
    const gate = new RiskGate(own, LIMITS);
    gate.begin();
    const take = (size: number): Candidate => ({
      gameID: 'g',
      selection: HOME,
      odds: -200,
      size,
      commissionRate: 0.01,
      crossing: true,
    });
    // Home at -200 for 198.5: a loss (away wins) costs 198.5 + 0.99 at -200, but 198.5 + 1.985
    // at +100 or better: 100 - 200.485, below -100.
    const v = gate.check(take(198.5), 'reducing');
    expect(v.ok ? 'approved' : v.rule).toBe('reducing');
    expect(gate.check(take(198), 'reducing')).toEqual({ ok: true });
  });
});
