import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import type { OwnOrder } from '../../src/market-model/types.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../../src/markets/types.ts';
import { americanDistance } from '../../src/odds/american.ts';
import { planGame, sameSelection, type Plan, type PlanInput } from '../../src/orders/plan.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';

/** The planner spelt plainly, by book keys and sets of keys: what planGame must decide, order for order. */
function referencePlan(input: PlanInput): Plan {
  const same = (a: Selection, b: Selection) => bookKeyOf(a) === bookKeyOf(b) && sideIndexOf(a) === sideIndexOf(b);
  const serves = (o: OwnOrder, i: QuoteIntent) =>
    same(o.selection, i.selection) &&
    americanDistance(o.odds, i.odds) <= (i.toleranceCents ?? 0) + 1e-9 &&
    Math.abs(o.remaining - i.size) <= (i.sizeTolerance ?? 0) * i.size + 1e-9;
  const byKey = new Map<string, QuoteIntent>();
  for (const i of input.intents) byKey.set(i.key, i);
  const cancels: OwnOrder[] = [];
  const covered = new Set<string>();
  const candidates = new Map<string, OwnOrder>();
  let kept = 0;
  for (const o of input.orders) {
    const key = o.intentKey;
    const intent = key === null ? undefined : byKey.get(key);
    if (['pending-place', 'pending-cancel', 'unknown'].includes(o.status)) {
      if (key !== null && o.status !== 'pending-cancel') covered.add(key);
      continue;
    }
    if (intent && !covered.has(intent.key) && serves(o, intent)) {
      covered.add(intent.key);
      kept++;
      continue;
    }
    cancels.push(o);
    if (
      intent &&
      o.orderID !== null &&
      (o.status === 'resting' || o.status === 'partly-filled') &&
      same(o.selection, intent.selection) &&
      !candidates.has(intent.key)
    )
      candidates.set(intent.key, o);
  }
  const places: QuoteIntent[] = [];
  const replaceable = new Map<string, OwnOrder>();
  for (const i of byKey.values()) {
    if (covered.has(i.key) || input.blockedKeys.has(i.key)) continue;
    places.push(i);
    const o = candidates.get(i.key);
    if (o !== undefined) replaceable.set(i.key, o);
  }
  return { cancels, places, kept, replaceable };
}

// Few keys, selections and prices, so keys repeat, orders meet their intents and miss them.
const selectionArb: fc.Arbitrary<Selection> = fc.oneof(
  fc.constantFrom<'home' | 'away'>('home', 'away').map((team): Selection => ({ type: 'moneyline', team })),
  fc
    .tuple(fc.constantFrom<'home' | 'away'>('home', 'away'), fc.constantFrom(-0.5, -0, 0, 0.5, 1.25))
    .map(([team, line]): Selection => ({ type: 'spread', team, line })),
  fc
    .tuple(fc.constantFrom<'over' | 'under'>('over', 'under'), fc.constantFrom(0, 0.5, 210.5))
    .map(([ou, line]): Selection => ({ type: 'total', ou, line })),
  fc
    .tuple(fc.constantFrom<'home' | 'away' | 'draw'>('home', 'away', 'draw'), fc.boolean())
    .map(([outcome, yes]): Selection => ({ type: 'moneyline1x2', outcome, yes })),
);
const keyArb = fc.constantFrom('a', 'b', 'c', 'd');
const oddsArb = fc.constantFrom(-110, 100, 105, 110, 120);
const intentArb: fc.Arbitrary<QuoteIntent> = fc.record(
  {
    key: keyArb,
    selection: selectionArb,
    odds: oddsArb,
    size: fc.constantFrom(10, 50, 100),
    toleranceCents: fc.constantFrom(0, 5),
    sizeTolerance: fc.constantFrom(0, 0.5),
  },
  { requiredKeys: ['key', 'selection', 'odds', 'size'] },
);
const STATUSES: OwnOrder['status'][] = ['pending-place', 'resting', 'partly-filled', 'pending-cancel', 'unknown'];
const orderArb = fc
  .record({
    key: fc.option(keyArb),
    selection: selectionArb,
    odds: oddsArb,
    remaining: fc.constantFrom(10, 50, 75, 100),
    status: fc.constantFrom(...STATUSES),
    hasID: fc.boolean(),
  })
  .map((o, n = 0): OwnOrder => ({
    clientId: `c${n}`,
    userReference: `r${n}`,
    orderID: o.hasID ? `o${o.key}${o.odds}` : null,
    strategyId: 's',
    intentKey: o.key,
    gameID: 'g',
    selection: o.selection,
    odds: o.odds,
    bet: 100,
    filled: 100 - o.remaining,
    remaining: o.remaining,
    status: o.status,
    isPostArb: false,
    createdAt: 0,
    updatedAt: 0,
  }));

describe('planGame', () => {
  test.prop([
    fc.array(intentArb, { maxLength: 6 }),
    fc.array(orderArb, { maxLength: 8 }),
    fc.uniqueArray(keyArb, { maxLength: 2 }),
  ])('plans what the plain planner plans: the same cancels, places, kept and edits', (intents, orders, blocked) => {
    const input: PlanInput = { strategyId: 's', gameID: 'g', intents, orders, blockedKeys: new Set(blocked) };
    const got = planGame(input);
    const want = referencePlan(input);
    expect(got.cancels).toEqual(want.cancels);
    expect(got.cancels.every((o, n) => o === want.cancels[n])).toBe(true);
    expect(got.places.every((i, n) => i === want.places[n])).toBe(true);
    expect(got.places.length).toBe(want.places.length);
    expect(got.kept).toBe(want.kept);
    expect([...got.replaceable]).toEqual([...want.replaceable]);
  });

  // Past a few intents keys are found through a map instead of in place: both ways plan alike.
  const manyKeysArb = fc.integer({ min: 0, max: 24 }).map((k) => `k${k}`);
  test.prop([
    fc.array(
      fc.tuple(intentArb, manyKeysArb).map(([i, key]) => ({ ...i, key })),
      { minLength: 10, maxLength: 40 },
    ),
    fc.array(
      fc.tuple(orderArb, fc.option(manyKeysArb)).map(([o, key]) => ({ ...o, intentKey: key })),
      { maxLength: 30 },
    ),
    fc.uniqueArray(manyKeysArb, { maxLength: 4 }),
  ])('plans many intents as the plain planner does', (intents, orders, blocked) => {
    const input: PlanInput = { strategyId: 's', gameID: 'g', intents, orders, blockedKeys: new Set(blocked) };
    const got = planGame(input);
    const want = referencePlan(input);
    expect(got.cancels.length).toBe(want.cancels.length);
    expect(got.cancels.every((o, n) => o === want.cancels[n])).toBe(true);
    expect(got.places.length).toBe(want.places.length);
    expect(got.places.every((i, n) => i === want.places[n])).toBe(true);
    expect(got.kept).toBe(want.kept);
    expect([...got.replaceable]).toEqual([...want.replaceable]);
  });

  test.prop([selectionArb, selectionArb])('sameSelection is the same book and side', (a, b) => {
    expect(sameSelection(a, b)).toBe(bookKeyOf(a) === bookKeyOf(b) && sideIndexOf(a) === sideIndexOf(b));
    expect(sameSelection(a, { ...a })).toBe(true);
  });
});
