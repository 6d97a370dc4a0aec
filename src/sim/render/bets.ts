import type { BetView, EngineGame, GradeVersion } from '../../engine/types.ts';
import { formatMoney } from '../../money/rounding.ts';
import { renderGame, type WireGame } from './game.ts';
import { iso } from './time.ts';

/**
 * Market fields of a bet as REST bet reads spell them (exchange-api §2.6, §2.7):
 * `participantID` for moneyline and spread, `spread`, `total` + `OU` (the bet's own
 * side), and `market` + `side` for moneyline1x2.
 */
export interface WireBetSelection {
  participantID?: string | null;
  spread?: number;
  total?: number;
  OU?: 'over' | 'under';
  market?: string;
  side?: 'yes' | 'no';
}

export function betSelectionFields(bet: BetView, options: { nullParticipant?: boolean } = {}): WireBetSelection {
  const s = bet.selection;
  switch (s.type) {
    case 'moneyline':
      return { participantID: bet.wire.side };
    case 'spread':
      return { participantID: bet.wire.side, spread: s.line };
    case 'total':
      return { ...(options.nullParticipant ? { participantID: null } : {}), total: s.line, OU: s.ou };
    case 'moneyline1x2':
      return {
        ...(options.nullParticipant ? { participantID: null } : {}),
        market: bet.wire.market ?? '',
        side: s.yes ? 'yes' : 'no',
      };
  }
}

/** An open (matched, ungraded) bet, exchange-api §2.6. */
export interface WireMatchedBet extends WireBetSelection {
  id: string;
  txID: string;
  type: string;
  bet: number;
  odds: number;
  userReference?: string;
  createdAt: string;
  matchedTime: string;
  origin: 'offer' | 'wager';
  risk: string;
  win: string;
  graded: false;
  closed: false;
  adminRefund: false;
  game: WireGame;
}

/**
 * `orderStake` is the original stake of the order the bet came from (the `bet` field);
 * when the order is no longer known the fill's own stake stands in.
 */
export function renderMatchedBet(game: EngineGame, bet: BetView, orderStake: number | undefined): WireMatchedBet {
  const out: WireMatchedBet = {
    id: bet.id,
    txID: bet.txID,
    type: bet.wire.type,
    bet: orderStake ?? bet.money.amount,
    odds: bet.money.odds,
    ...betSelectionFields(bet),
    createdAt: iso(bet.createdAt),
    matchedTime: iso(bet.matchedAt),
    origin: bet.origin,
    risk: formatMoney(bet.money.risk),
    win: formatMoney(bet.money.win),
    graded: false,
    closed: false,
    adminRefund: false,
    game: renderGame(game, { withFutures: true }),
  };
  if (bet.userReference !== null) out.userReference = bet.userReference;
  return out;
}

/** The embedded game of a graded row when the game cannot be loaded (exchange-api §2.1). */
export interface WireGameLoadError {
  _id: string;
  error: string;
}

/** A graded row, exchange-api §2.7: one settlement version of one fill, from the caller's side. */
export interface WireGradedRow extends Omit<WireBetSelection, 'spread' | 'total'> {
  /** Null on an offer-side row whose market has no spread (the published offer row requires the field). */
  spread?: number | null;
  total?: number | null;
  /** Offer-side rows: how much of the posted order's full volume was filled, 0–1. */
  takenRatio?: number;
  game: WireGame | WireGameLoadError;
  id: string;
  type: string;
  bet: number;
  txID: string;
  closed: false;
  ticketNumber: string;
  odds: number;
  fee: string;
  risk: string;
  win: string;
  origin: 'offer' | 'wager';
  cancelled: false;
  outcome: string;
  graded: true;
  createdAt: string;
  matchedTime: string;
  settledAt: string;
  adminRefund: boolean;
  wagerRequestID: string | null;
  userReference: string | null;
  isPostArb?: true;
  platform: string;
  result: string;
}

/**
 * One graded row for `grade` (a version of `bet`). `id` is the order id, `ticketNumber`
 * the bet id; money is the fill's (risk with commission on a loss, win net of it), `fee`
 * and `result` the ones of this settlement version. An offer-side row (the caller posted
 * the order) also carries `spread` and `total` (null where they do not apply) and, when
 * `takenRatio` is known, the filled fraction of the posted order, as the published
 * offer-side row has them.
 */
export function renderGradedRow(
  game: EngineGame | undefined,
  bet: BetView,
  grade: GradeVersion,
  takenRatio?: number,
): WireGradedRow {
  const out: WireGradedRow = {
    game: game ? renderGame(game, { withFuturesSide: true }) : { _id: bet.gameID, error: 'game not found' },
    id: bet.orderID,
    type: bet.wire.type,
    bet: bet.money.amount,
    txID: bet.txID,
    closed: false,
    ticketNumber: bet.id,
    odds: bet.money.odds,
    fee: formatMoney(grade.fee),
    risk: formatMoney(bet.money.risk),
    win: formatMoney(bet.money.win),
    origin: bet.origin,
    cancelled: false,
    outcome: grade.outcome,
    graded: true,
    createdAt: iso(bet.createdAt),
    matchedTime: iso(bet.matchedAt),
    settledAt: iso(grade.settledAt),
    adminRefund: grade.adminRefund,
    wagerRequestID: bet.wagerRequestID,
    userReference: bet.userReference,
    platform: 'api',
    result: formatMoney(grade.result),
    ...betSelectionFields(bet, { nullParticipant: true }),
  };
  if (bet.isPostArb) out.isPostArb = true;
  if (bet.origin === 'offer') {
    out.spread ??= null;
    out.total ??= null;
    if (takenRatio !== undefined) out.takenRatio = takenRatio;
  }
  return out;
}
