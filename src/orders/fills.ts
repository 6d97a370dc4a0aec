import type { OwnFill } from '../market-model/types.ts';
import type { MatchedBet } from '../exchange/schemas/bets.ts';
import type { PlacedFill } from '../exchange/schemas/orders.ts';
import type { FeedMatched } from '../exchange/schemas/user-feed.ts';
import type { Selection } from '../markets/types.ts';
import { selectionFromWire, type ParticipantIds } from '../markets/wire-selection.ts';
import { payout } from '../odds/american.ts';

/** A fill from the place answer (we were the taker); money at full precision. */
export function fillFromPlace(
  f: PlacedFill,
  gameID: string,
  selection: Selection,
  strategyId: string | null,
  isPostArb: boolean,
  now: number,
): OwnFill {
  return {
    txID: f.txID,
    orderID: f.orderID,
    gameID,
    selection,
    odds: f.odds,
    amount: f.amount,
    risk: f.risk,
    win: f.win,
    origin: 'wager',
    isPostArb,
    strategyId,
    at: now,
  };
}

/** A fill from the user feed, in the receiver's (our) view; null when the side names nothing on the game. */
export function fillFromFeed(
  m: FeedMatched,
  gameID: string,
  p: ParticipantIds,
  origin: 'offer' | 'wager',
  strategyId: string | null,
  now: number,
): OwnFill | null {
  const selection = selectionFromWire(p, {
    type: m.type,
    side: m.side,
    number: m.number ?? null,
    market: m.market ?? null,
  });
  if (!selection) return null;
  return {
    txID: m.txID,
    orderID: m.orderID,
    gameID,
    selection,
    odds: m.odds,
    amount: m.amount,
    risk: m.risk,
    win: m.win,
    origin,
    isPostArb: m.isPostArb === true,
    strategyId,
    at: now,
  };
}

/**
 * A fill from getMatchedBets (start-up and reconciliation): money is the 2-decimal REST read;
 * the stake is recovered from risk (a maker's risk is its stake; a commissioned taker's
 * includes commission on a loss; a postArb taker pays none). The bet does not say whether
 * it was a postArb: `isPostArb` when the caller knows (its own order), else read from the
 * money (a postArb taker's win is its risk × payout; a commissioned one's is ~2c less).
 */
export function fillFromBet(
  b: MatchedBet,
  p: ParticipantIds,
  commissionRate: number,
  strategyId: string | null,
  now: number,
  isPostArb?: boolean,
): OwnFill | null {
  const side = b.type === 'total' ? (b.OU ?? '') : b.type === 'moneyline1x2' ? (b.side ?? '') : (b.participantID ?? '');
  const number = b.type === 'spread' ? (b.spread ?? null) : b.type === 'total' ? (b.total ?? null) : null;
  const selection = selectionFromWire(p, { type: b.type, side, number, market: b.market ?? null });
  if (!selection || !b.game) return null;
  const taker = b.origin === 'wager';
  const postArb = taker && (isPostArb ?? looksPostArb(b.risk, b.win, b.odds, commissionRate));
  const amount = taker && !postArb ? stakeFromTakerRisk(b.risk, b.win, commissionRate) : b.risk;
  return {
    txID: b.txID,
    orderID: b.id,
    gameID: b.game.id,
    selection,
    odds: b.odds,
    amount,
    risk: b.risk,
    win: b.win,
    origin: b.origin,
    isPostArb: postArb,
    strategyId,
    at: now,
  };
}

/** Whether a taker's (risk, win) fit a commission-free fill better than a commissioned one. */
function looksPostArb(risk: number, win: number, odds: number, c: number): boolean {
  const p = payout(odds);
  const free = Math.abs(win - risk * p);
  const charged = Math.abs(win - stakeFromTakerRisk(risk, win, c) * p * (1 - c));
  return free < charged;
}

/** risk = amount + c·min(amount, wwc) and win = wwc·(1 − c) (feeds §4) → amount. */
function stakeFromTakerRisk(risk: number, win: number, c: number): number {
  const wwc = c < 1 ? win / (1 - c) : win;
  const a1 = risk / (1 + c); // when amount ≤ wwc
  return a1 <= wwc + 1e-9 ? a1 : risk - c * wwc;
}
