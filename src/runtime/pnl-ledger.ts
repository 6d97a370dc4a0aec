import type { GradedRow } from '../exchange/schemas/bets.ts';
import { GradedSeen } from './graded-seen.ts';

/** The commission rate the runtime prices with until the account says its own. */
const DEFAULT_COMMISSION_RATE = 0.01;

/**
 * The account's money as the graded rows tell it: realised P&L and commission paid since
 * start, and the commission rate the account is charged (the own book, the views and the
 * order manager price with it). A regraded row adds only its difference (GradedSeen).
 */
export class PnlLedger {
  #commissionRate = DEFAULT_COMMISSION_RATE;
  #realized = 0;
  #commissionPaid = 0;
  readonly #seen = new GradedSeen();

  get commissionRate(): number {
    return this.#commissionRate;
  }

  /** The rate the account reported; none reported keeps the one in use. */
  setCommissionRate(rate: number | null | undefined): void {
    this.#commissionRate = rate ?? this.#commissionRate;
  }

  get realized(): number {
    return this.#realized;
  }

  get commissionPaid(): number {
    return this.#commissionPaid;
  }

  /** Count graded rows at `now`; `settled` hears each row's game, which no longer counts as risk. */
  count(rows: readonly GradedRow[], now: () => number, settled: (gameID: string) => void): void {
    for (const r of rows) {
      const added = this.#seen.count(r.txID, r.result ?? 0, r.fee, now());
      this.#realized += added.result;
      this.#commissionPaid += added.fee;
      if ('id' in r.game && r.game.id) settled(r.game.id);
    }
  }
}
