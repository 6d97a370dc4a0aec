import type { Runtime, RuntimeStatus } from './runtime.ts';
import { consensusFair } from '../strategy/fair.ts';
import { bookKeyOf, sideIndexOf } from '../markets/types.ts';
import { formatMoney } from '../money/rounding.ts';
import { strategyErrorLines, type StrategyErrorReport } from './strategy-errors.ts';

/** What a run did, for the end-of-run report. */
export interface RunSummary {
  readonly seconds: number;
  /** How long the run lasted on the exchange's clock (paper runs faster than the wall). */
  readonly exchangeSeconds: number;
  readonly ordersSent: number;
  /** Requests sent: place batches, cancel batches (a cancel of everything counts one), edits (one order each). */
  readonly requests: { readonly place: number; readonly cancel: number; readonly edit: number };
  readonly cancelsSent: number;
  readonly riskRejected: number;
  readonly exchangeRejected: number;
  readonly postArbSent: number;
  readonly fills: number;
  readonly makerVolume: number;
  readonly takerVolume: number;
  /** Commission charged on graded fills. */
  readonly commissionPaid: number;
  /** Commission our open taker fills will pay if they lose or win (charged at grading). */
  readonly commissionAccrued: number;
  /** Graded P&L (the exchange's `result`, net of fees). */
  readonly settledPnl: number;
  /** Expected value of the open bets at the book's consensus fair prices. */
  readonly markedPnl: number;
  /** Most negative projected worst case seen (≤ 0). */
  readonly maxLiability: number;
  readonly openOrdersAtEnd: number;
  /** Times the exchange's heartbeat switch fired on us, and the orders it cancelled. */
  readonly heartbeatLapses: number;
  readonly heartbeatCancels: number;
  /** Failed quote() calls and malformed intents, by strategy, kind and distinct error. */
  readonly strategyErrors: StrategyErrorReport;
}

/**
 * Open bets marked to fair: each fill's expected value with the win probability of its
 * side from the book's consensus (margin removed); pushes are ignored, so half and quarter
 * lines are marked as if they could only win or lose. Fills on books without a consensus
 * are marked at zero.
 */
export function markToFair(rt: Runtime): number {
  let total = 0;
  for (const gameID of rt.own.gameIDs()) {
    const game = rt.market.game(gameID);
    for (const f of rt.own.fills(gameID)) {
      const p0 = consensusFair(game?.books.get(bookKeyOf(f.selection)));
      if (p0 === null) continue;
      const p = sideIndexOf(f.selection) === 0 ? p0 : 1 - p0;
      total += p * f.win - (1 - p) * f.risk;
    }
  }
  return total;
}

export function summarize(
  rt: Runtime,
  status: RuntimeStatus,
  maxLiability: number,
  seconds: number,
  openAtEnd: number,
  exchangeSeconds = seconds,
): RunSummary {
  let accrued = 0;
  for (const g of rt.own.gameIDs())
    for (const f of rt.own.fills(g))
      if (f.origin === 'wager' && !f.isPostArb) accrued += Math.max(0, f.risk - f.amount);
  return {
    seconds,
    exchangeSeconds,
    ordersSent: status.orders.placesSent,
    requests: {
      place: status.orders.placeRequests,
      cancel: status.orders.cancelRequests,
      edit: status.orders.editRequests,
    },
    cancelsSent: status.orders.cancelsSent,
    riskRejected: status.orders.riskRejected,
    exchangeRejected: status.orders.exchangeRejected,
    postArbSent: status.orders.postArb,
    fills: status.fills,
    makerVolume: status.makerVolume,
    takerVolume: status.takerVolume,
    commissionPaid: status.commissionPaid,
    commissionAccrued: accrued,
    settledPnl: status.realizedPnl,
    markedPnl: markToFair(rt),
    maxLiability: Math.min(maxLiability, status.worstCase),
    openOrdersAtEnd: openAtEnd,
    heartbeatLapses: status.heartbeatLapses,
    heartbeatCancels: status.heartbeatCancels,
    strategyErrors: rt.strategyErrors.report(),
  };
}

export function renderSummary(s: RunSummary): string {
  return [
    `run summary (${s.seconds.toFixed(0)} s)`,
    `  orders sent       ${s.ordersSent} (${s.postArbSent} as postArb), cancels ${s.cancelsSent}, refused ` +
      `by risk ${s.riskRejected}, rejected by the exchange ${s.exchangeRejected}`,
    `  requests          place ${s.requests.place}, cancel ${s.requests.cancel}, edit ${s.requests.edit}: ` +
      `${perHour(s.requests.place + s.requests.cancel + s.requests.edit, s.exchangeSeconds)} per hour of exchange time`,
    `  fills             ${s.fills}: maker volume ${formatMoney(s.makerVolume)}, taker volume ${formatMoney(s.takerVolume)}`,
    `  commission        ${formatMoney(s.commissionPaid)} paid on graded fills, ${formatMoney(s.commissionAccrued)} accrued on open taker fills`,
    `  P&L               settled ${formatMoney(s.settledPnl)}, open bets marked to fair ${formatMoney(s.markedPnl)}`,
    `  max liability     ${formatMoney(s.maxLiability)} (worst case over every score, resting orders included)`,
    `  open orders left  ${s.openOrdersAtEnd}`,
    `  heartbeat lapses  ${
      s.heartbeatLapses === 0
        ? 'none'
        : `${s.heartbeatLapses}: the exchange cancelled ${s.heartbeatCancels} of our orders for a lapsed heartbeat`
    }`,
    ...(s.strategyErrors.total === 0
      ? ['  strategy errors   none']
      : strategyErrorLines(s.strategyErrors, '  strategy errors   ')),
  ].join('\n');
}

function perHour(n: number, seconds: number): string {
  return seconds > 0 ? Math.round((n * 3_600) / seconds).toLocaleString('en-US') : 'n/a';
}

export function statusLine(st: RuntimeStatus, elapsedSeconds: number, marked: number): string {
  return (
    `t+${elapsedSeconds.toFixed(0).padStart(3)}s  ${st.mode.padEnd(8)} games ${st.quotedGames}/${st.games} quoted  open orders ${st.openOrders}  ` +
    `fills ${st.fills} (maker ${formatMoney(st.makerVolume)}, taker ${formatMoney(st.takerVolume)})  P&L ` +
    `settled ${formatMoney(st.realizedPnl)} marked ${formatMoney(marked)}  worst case ${formatMoney(st.worstCase)}` +
    (st.heartbeatLapses > 0
      ? `  HEARTBEAT LAPSED ×${st.heartbeatLapses}: ${st.heartbeatCancels} orders cancelled by the exchange`
      : '') +
    strategyErrorsClause(st.strategyErrors)
  );
}

/** `  STRATEGY ERRORS 1,204 (broken 1,200, flaky 4)`, or nothing while there are none. */
function strategyErrorsClause(e: RuntimeStatus['strategyErrors']): string {
  if (e.total === 0) return '';
  const per = Object.entries(e.byStrategy)
    .filter(([, n]) => n > 0)
    .map(([id, n]) => `${id} ${n.toLocaleString('en-US')}`);
  return `  STRATEGY ERRORS ${e.total.toLocaleString('en-US')} (${per.join(', ')})`;
}
