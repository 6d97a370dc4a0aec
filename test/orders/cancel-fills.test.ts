import { describe, expect, it } from 'vitest';
import type { CancelEntry, MatchedBet } from '../../src/exchange/orders/types.ts';
import type { UserFeedMessageEvent } from '../../src/exchange/socket/index.ts';
import type { RiskLimits } from '../../src/orders/risk-gate.ts';
import { GAME, HOME, harness, id, restFirstPlaced, work } from './support.ts';

const ORDER_ID = id(50);
/** A game cap that holds one 100 order at +110 on home, and 20 more. */
const LIMITS: RiskLimits = { maxGameLiability: 120, maxTotalLiability: 5_000, maxOrderSize: 500, maxOrdersPerGame: 20 };

/** Our 100 on home at +110, accepted and resting; then the strategy moves its price, and the cancel goes out. */
function restingThenCancelling() {
  const h = harness(LIMITS);
  h.orders.cycle(work(110));
  const { clientId, ref } = restFirstPlaced(h, ORDER_ID);
  expect(h.own.projectedLiability(GAME)).toBeCloseTo(-100, 9);
  h.clock.advance(10);
  h.orders.cycle(work(120));
  expect(h.cancelled).toEqual([ORDER_ID]);
  expect(h.placed).toHaveLength(1);
  return { h, ref, clientId };
}

/** The exchange's answer to that cancel: `filled` of the 100 had matched before it. */
const cancelAnswer = (ref: string, filled: number): CancelEntry => ({
  ok: true,
  orderID: ORDER_ID,
  odds: 110,
  filled,
  offered: 100,
  remaining: 100 - filled,
  gameID: GAME,
  userReference: ref,
  description: null,
});

/** The user feed's maker fill of `amount` of our order (txID `tx`), `remaining` left resting. */
function makerFill(ref: string, tx: string, amount: number, remaining: number): UserFeedMessageEvent {
  const fill = {
    txID: tx,
    orderID: ORDER_ID,
    userReference: ref,
    type: 'moneyline',
    side: HOME,
    odds: 110,
    amount,
    risk: amount,
    win: amount * 1.1,
  };
  const order = {
    orderID: ORDER_ID,
    userReference: ref,
    type: 'moneyline',
    side: HOME,
    odds: 110,
    offered: 100,
    remaining,
    filled: amount,
  };
  return {
    type: 'makerFill',
    messageID: '1-2',
    source: 'live',
    message: { gameID: GAME },
    fill,
    order,
    partial: remaining > 0,
  } as unknown as UserFeedMessageEvent;
}

/** The same fill as REST's getMatchedBets lists it (2-decimal money; its id is the bet's, found by userReference). */
function bet(ref: string, tx: string, amount: number): MatchedBet {
  return {
    id: id(800),
    txID: tx,
    type: 'moneyline',
    bet: 100,
    odds: 110,
    participantID: HOME,
    userReference: ref,
    origin: 'offer',
    risk: amount,
    win: Math.round(amount * 110) / 100,
    game: { id: GAME },
  } as unknown as MatchedBet;
}

// A cancel answer saying 60 of the order had matched set it cancelled with nothing booked:
// the user feed's makerFill had not arrived yet. The 60 left the worst case (projected 0),
// and the risk gate let a new 100 out on the same side: the real worst case was -160 under
// a cap of 120.
describe('a cancel answer that reports fills the book has not booked yet', () => {
  it('keeps them in the worst case where they lose, so the risk gate refuses what would breach the cap', () => {
    const { h, ref, clientId } = restingThenCancelling();
    h.orders.onResult({ kind: 'cancelled', clientIds: [clientId], entries: [cancelAnswer(ref, 60)] });
    expect(h.own.order(clientId)).toMatchObject({ status: 'cancelled', remaining: 0, filled: 60 });
    expect(h.own.fills(GAME)).toHaveLength(0);
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-60, 9);
    expect(h.own.projectedLowerBound(GAME)).toBeLessThanOrEqual(-60 + 1e-9);

    h.clock.advance(5_000);
    const summary = h.orders.cycle(work(120));
    expect(summary.riskRejected).toBe(1);
    expect(h.placed).toHaveLength(1);
    expect(h.own.awaitedFill(clientId)).toBeCloseTo(60, 9);
  });

  it('books the fill once when the user feed delivers it: the provisional amount gives way to the position', () => {
    const { h, ref, clientId } = restingThenCancelling();
    h.orders.onResult({ kind: 'cancelled', clientIds: [clientId], entries: [cancelAnswer(ref, 60)] });
    h.orders.onUserFeed(makerFill(ref, id(700), 60, 40));
    expect(h.own.fills(GAME)).toHaveLength(1);
    expect(h.own.awaitedFill(clientId)).toBe(0);
    expect(h.own.order(clientId)?.status).toBe('cancelled');
    // Home loses: -60 once, not -120.
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-60, 9);
    // A second delivery of the same fill changes nothing.
    h.orders.onUserFeed(makerFill(ref, id(700), 60, 40));
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-60, 9);
    // The cap holds 60 more on home, and not 100.
    h.clock.advance(5_000);
    expect(h.orders.cycle(work(120)).riskRejected).toBe(1);
  });

  it('gives way fill by fill when several make it up', () => {
    const { h, ref, clientId } = restingThenCancelling();
    h.orders.onResult({ kind: 'cancelled', clientIds: [clientId], entries: [cancelAnswer(ref, 60)] });
    h.orders.onUserFeed(makerFill(ref, id(701), 25, 75));
    expect(h.own.awaitedFill(clientId)).toBeCloseTo(35, 9);
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-60, 9);
    h.orders.onUserFeed(makerFill(ref, id(702), 35, 40));
    expect(h.own.awaitedFill(clientId)).toBe(0);
    expect(h.own.fills(GAME)).toHaveLength(2);
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-60, 9);
  });

  it('awaits nothing when the feed delivered the fill before the answer', () => {
    const { h, ref, clientId } = restingThenCancelling();
    h.orders.onUserFeed(makerFill(ref, id(703), 60, 40));
    h.orders.onResult({ kind: 'cancelled', clientIds: [clientId], entries: [cancelAnswer(ref, 60)] });
    expect(h.own.awaitedFill(clientId)).toBe(0);
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-60, 9);
  });

  it("is booked from REST's matched bets at a reconciliation when the feed never delivers, and not again when it does", () => {
    const { h, ref, clientId } = restingThenCancelling();
    h.orders.onResult({ kind: 'cancelled', clientIds: [clientId], entries: [cancelAnswer(ref, 60)] });
    h.clock.advance(3_000);
    h.orders.reconcile([], [bet(ref, id(704), 60)], {
      cancelForeign: false,
      gameLookup: () => true,
      asOf: h.clock.now(),
    });
    expect(h.own.fills(GAME)).toHaveLength(1);
    expect(h.own.awaitedFill(clientId)).toBe(0);
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-60, 9);
    h.orders.onUserFeed(makerFill(ref, id(704), 60, 40));
    expect(h.own.fills(GAME)).toHaveLength(1);
    expect(h.own.projectedLiability(GAME)).toBeCloseTo(-60, 9);
  });

  it('stops counting once the game is graded', () => {
    const { h, ref, clientId } = restingThenCancelling();
    h.orders.onResult({ kind: 'cancelled', clientIds: [clientId], entries: [cancelAnswer(ref, 60)] });
    h.own.settle(GAME);
    expect(h.own.awaitedFill(clientId)).toBe(0);
    expect(h.own.projectedLiability(GAME)).toBe(0);
    expect(h.own.oldestAwaitedFill()).toBeUndefined();
  });
});
