/**
 * Edits under small balances: over random sequences of places, edits (odds, volume, order
 * type of the account's own open orders), cancels and clock moves, no account's worst case
 * (every resting order filled where it loses, plus its bets) ever exceeds balance plus
 * credit, and a refused edit changes nothing. The edit's liability check leaves the edited
 * order's own risk out while it checks the new terms; this is the property that says it
 * puts it back.
 */
import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import type { OrderType } from '../../src/engine/index.ts';
import {
  USERS,
  abstractOrderArb,
  advanceMsArb,
  betArb,
  createHarness,
  oddsArb,
  orderTypeArb,
  runs,
  toWire,
  userArb,
  type AbstractOrder,
} from '../support/prop-engine.ts';

type Step =
  | { readonly kind: 'place'; readonly user: number; readonly orders: readonly AbstractOrder[] }
  | {
      readonly kind: 'edit';
      readonly user: number;
      readonly pick: number;
      readonly odds?: number;
      readonly volume?: number;
      readonly orderType?: OrderType;
    }
  | { readonly kind: 'cancelAll'; readonly user: number }
  | { readonly kind: 'advance'; readonly ms: number };

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      user: userArb,
      orders: fc.array(abstractOrderArb(), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        user: userArb,
        pick: fc.nat(50),
        odds: maybe(oddsArb),
        volume: maybe(betArb.map((b) => b * 4)),
        orderType: maybe(orderTypeArb),
      })
      .map(({ odds, volume, orderType, ...rest }): Step => ({
        kind: 'edit',
        ...rest,
        ...(odds !== undefined ? { odds } : {}),
        ...(volume !== undefined ? { volume } : {}),
        ...(orderType !== undefined ? { orderType } : {}),
      })),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), user: userArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: advanceMsArb }) },
);

describe('edit under small balances', () => {
  test.prop(
    [
      fc.array(stepArb, { minLength: 1, maxLength: 50, size: 'max' }),
      fc.integer({ min: 0, max: 2_000 }),
      fc.constantFrom(0, 0, 100, 500),
    ],
    { numRuns: runs(200) },
  )(
    'liability: no worst case beyond balance plus credit; a refused edit changes nothing',
    (steps, balance, creditLimit) => {
      const h = createHarness({ balance, creditLimit });
      const e = h.engine;
      steps.forEach((s, i) => {
        const userId = s.kind === 'advance' ? '' : USERS[s.user]!.id;
        const where = `step ${i} ${JSON.stringify(s)}`;
        switch (s.kind) {
          case 'place':
            e.place(userId, s.orders.map(toWire));
            break;
          case 'edit': {
            const mine = e.openOrders(userId);
            if (mine.length === 0) break;
            const target = mine[s.pick % mine.length]!;
            const before = JSON.stringify([e.openOrders(userId), e.account(userId)]);
            const out = e.edit(userId, {
              sessionID: target.id,
              orderOdds: s.odds ?? null,
              orderVolume: s.volume ?? null,
              ...(s.orderType !== undefined ? { orderType: s.orderType } : {}),
            });
            if (out.status === 'error')
              expect(
                JSON.stringify([e.openOrders(userId), e.account(userId)]),
                `${where}: refused edit ${out.error}`,
              ).toBe(before);
            break;
          }
          case 'cancelAll':
            e.cancelAll(userId);
            break;
          case 'advance':
            h.clock.advance(s.ms);
            e.advance();
            break;
        }
        for (const u of USERS) {
          const a = e.account(u.id)!;
          if (!(a.exposure <= 0)) expect.fail(`${where}: ${u.id} exposure ${a.exposure} > 0`);
          if (!(-a.exposure <= a.balance + a.creditLimit + 1e-6))
            expect.fail(`${where}: ${u.id} worst case ${-a.exposure} exceeds ${a.balance} + ${a.creditLimit}`);
        }
      });
    },
  );
});
