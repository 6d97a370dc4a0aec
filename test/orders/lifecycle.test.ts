import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OwnOrderStatus } from '../../src/market-model/types.ts';
import {
  LIFECYCLE_STATES,
  ORDER_EVENT_KINDS,
  TRANSITIONS,
  type LifecycleState,
  type OrderEventKind,
  type TransitionCell,
} from '../../src/orders/lifecycle.ts';
import { OwnBook } from '../../src/orders/own-book.ts';
import { restingOrder } from '../market-model/support.ts';

const CLOSED: readonly OwnOrderStatus[] = ['cancelled', 'filled', 'expired', 'rejected'];

/** The table written out cell by cell, as the order manager's rules say it: every cell checked. */
function expected(state: LifecycleState, event: OrderEventKind): TransitionCell {
  if ((CLOSED as readonly string[]).includes(state)) return event === 'cancel-sent' ? 'illegal' : 'stays';
  if (event === 'cancel-sent') return state === 'resting' || state === 'partly-filled' ? 'pending-cancel' : 'illegal';
  if (event === 'refused') return state === 'pending-place' || state === 'unknown' ? 'rejected' : 'illegal';
  if (event === 'partly-filled' && state === 'pending-cancel') return 'pending-cancel';
  const to: Record<Exclude<OrderEventKind, 'cancel-sent' | 'refused'>, OwnOrderStatus> = {
    rests: 'resting',
    'rests-partly-filled': 'partly-filled',
    'partly-filled': 'partly-filled',
    filled: 'filled',
    cancelled: 'cancelled',
    'outcome-unknown': 'unknown',
    'missing-with-bets': 'filled',
    missing: 'cancelled',
  };
  return to[event];
}

describe('the order lifecycle table', () => {
  it('has a cell for every state and event, each as the rules say', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...LIFECYCLE_STATES].sort());
    for (const state of LIFECYCLE_STATES) {
      expect(Object.keys(TRANSITIONS[state]).sort()).toEqual([...ORDER_EVENT_KINDS].sort());
      for (const event of ORDER_EVENT_KINDS)
        expect([state, event, TRANSITIONS[state][event]]).toEqual([state, event, expected(state, event)]);
    }
  });

  it('never moves an order back to pending-place, nor anywhere from a closed status', () => {
    for (const state of LIFECYCLE_STATES)
      for (const event of ORDER_EVENT_KINDS) expect(TRANSITIONS[state][event]).not.toBe('pending-place');
  });
});

const EVENT = fc.record({
  kind: fc.constantFrom(...ORDER_EVENT_KINDS),
  remaining: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
});

describe('the own book applying random event sequences', () => {
  it('reaches only the states the table allows, counts every refused event, and keeps a closed order closed', () => {
    fc.assert(
      fc.property(fc.array(EVENT, { maxLength: 40 }), (events) => {
        const illegal: string[] = [];
        const book = new OwnBook({ commissionRate: () => 0.01, onIllegalTransition: (e) => illegal.push(e.code) });
        const order = restingOrder(0, 0, {});
        book.add({ ...order, status: 'pending-place', orderID: null }, 'test');
        let state: LifecycleState = 'pending-place';
        let refused = 0;
        for (const [i, e] of events.entries()) {
          const cell = TRANSITIONS[state][e.kind];
          const before = book.order(order.clientId)!;
          const after = book.apply(
            order.clientId,
            e.kind === 'cancel-sent' || e.kind === 'outcome-unknown'
              ? { kind: e.kind }
              : { kind: e.kind, amounts: e.remaining === undefined ? {} : { remaining: e.remaining } },
            i,
            'test',
          );
          if (cell === 'illegal') {
            refused++;
            expect(after).toBe(before);
          } else if (cell === 'stays') {
            expect(after.status).toBe(before.status);
            expect(after.closedByAbsence).toBeUndefined();
          } else {
            expect(after.status).toBe(cell);
            expect(after.closedByAbsence === true).toBe(e.kind === 'missing' || e.kind === 'missing-with-bets');
          }
          state = after.closedByAbsence ? 'closed-as-missing' : after.status;
          // Never a state outside the table, never pending-place again once it moved.
          expect(LIFECYCLE_STATES).toContain(state);
          if (i > 0 || cell !== 'illegal')
            expect(after.status === 'pending-place').toBe(before.status === 'pending-place' && cell === 'illegal');
        }
        expect(book.lifecycle.illegal).toBe(refused);
        expect(illegal).toEqual(Array(refused).fill('LS_ERR_ILLEGAL_TRANSITION'));
      }),
      { numRuns: 300 },
    );
  });
});
