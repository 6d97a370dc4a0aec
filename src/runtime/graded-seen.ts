/**
 * What the runtime last counted of each graded row, by txID, so a newer version of a row (a
 * regrade or refund) adds only its difference to realised P&L and commission.
 *
 * A row is kept `retentionMs` of market time after it was last counted (default 7 days:
 * the exchange regrades within days, not weeks) and never more than `maxRows` rows (default
 * 100,000, the oldest counted go first), so a bot running for weeks holds a bounded memory.
 * A newer version of a row forgotten by then counts in full, as a new row would.
 */
export interface GradedSeenLimits {
  readonly retentionMs?: number;
  readonly maxRows?: number;
}

export const GRADED_SEEN_DEFAULTS = { retentionMs: 7 * 86_400_000, maxRows: 100_000 } as const;

interface Counted {
  readonly result: number;
  readonly fee: number;
  readonly at: number;
}

export class GradedSeen {
  /** In the order rows were last counted: a row counted again moves to the end. */
  readonly #rows = new Map<string, Counted>();
  readonly #retentionMs: number;
  readonly #maxRows: number;

  constructor(limits: GradedSeenLimits = {}) {
    this.#retentionMs = limits.retentionMs ?? GRADED_SEEN_DEFAULTS.retentionMs;
    this.#maxRows = limits.maxRows ?? GRADED_SEEN_DEFAULTS.maxRows;
  }

  get size(): number {
    return this.#rows.size;
  }

  /** Count the row's latest version at `now`: what it adds to realised P&L and to commission paid. */
  count(txID: string, result: number, fee: number, now: number): { readonly result: number; readonly fee: number } {
    const prev = this.#rows.get(txID);
    if (prev) this.#rows.delete(txID);
    this.#rows.set(txID, { result, fee, at: now });
    this.#prune(now);
    return { result: result - (prev?.result ?? 0), fee: fee - (prev?.fee ?? 0) };
  }

  #prune(now: number): void {
    const horizon = now - this.#retentionMs;
    for (const [txID, row] of this.#rows) {
      if (this.#rows.size <= this.#maxRows && row.at >= horizon) return;
      this.#rows.delete(txID);
    }
  }
}
