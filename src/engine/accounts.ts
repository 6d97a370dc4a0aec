import { worstCaseLiability } from '../money/liability.ts';
import type { Position } from '../money/position.ts';
import type { Selection } from '../markets/types.ts';
import type { BetLedger } from './bet-ledger.ts';
import { DUST, bySeq, type OrderState } from './order-state.ts';

/**
 * What one user has on one unsettled game: matched bets and resting orders. Keeps a
 * cheap upper bound of the worst-case loss (Σ of every position's maximum loss) so the
 * common place needs no exact computation; the exact value is cached until the
 * positions change.
 */
export class GameExposure {
  /** Matched bets (ledger indexes), oldest first. */
  readonly bets: number[] = [];
  /** Open orders in no particular order: each holds its slot, so removal is a swap. */
  readonly #resting: OrderState[] = [];
  /** Σ max loss over bets and resting orders; ≥ the exact worst-case loss. */
  bound = 0;
  #exact: number | null = 0;

  constructor(readonly account: Account) {}

  addResting(order: OrderState): void {
    order.exposure = this;
    order.slot = this.#resting.length;
    this.#resting.push(order);
  }

  removeResting(order: OrderState): void {
    const resting = this.#resting;
    const last = resting.pop()!;
    if (last !== order) {
      resting[order.slot] = last;
      last.slot = order.slot;
    }
    order.exposure = null;
    order.slot = -1;
  }

  /** Open orders, in no particular order. */
  get resting(): readonly OrderState[] {
    return this.#resting;
  }

  invalidate(): void {
    this.#exact = null;
  }

  positions(extra?: Position): Position[] {
    const out: Position[] = [];
    const ledger = this.account.ledger;
    for (const b of this.bets) out.push(ledger.position(b));
    // Oldest first, as they rested: the liability sums floats, so the order is part of the result.
    for (const o of this.#resting.slice().sort(bySeq)) {
      if (o.remaining > DUST) out.push({ selection: o.line.selection, amount: o.remaining, odds: o.odds, commissionRate: 0, contingent: true });
    }
    if (extra) out.push(extra);
    return out;
  }

  /** Exact worst-case loss as a non-negative number. */
  exactLoss(): number {
    if (this.#exact === null) this.#exact = -worstCaseLiability(this.positions());
    return this.#exact;
  }

  /** Worst case over matched bets only: what getGameLiability reports (≤ 0). */
  matchedLiability(): number {
    const ledger = this.account.ledger;
    return worstCaseLiability(this.bets.map((b) => ledger.position(b)));
  }
}

export class Account {
  readonly games = new Map<string, GameExposure>();
  /** Matched bets (ledger indexes), oldest first. */
  readonly bets: number[] = [];
  /** Σ of `bound` over games. */
  totalBound = 0;

  constructor(
    readonly id: string,
    public balance: number,
    readonly creditLimit: number,
    readonly commissionRate: number,
    readonly ledger: BetLedger,
  ) {}

  exposureOf(gameId: string): GameExposure {
    let g = this.games.get(gameId);
    if (!g) {
      g = new GameExposure(this);
      this.games.set(gameId, g);
    }
    return g;
  }

  adjustBound(g: GameExposure, delta: number): void {
    g.bound += delta;
    this.totalBound += delta;
    g.invalidate();
  }

  /** Σ exact worst-case loss over unsettled games (a non-negative number). */
  exactExposure(): number {
    let total = 0;
    for (const g of this.games.values()) total += g.exactLoss();
    return total;
  }

  /**
   * Whether a new order of `amount` on `gameId` keeps the worst case (every
   * resting order filled where it loses) within balance plus credit. The new order is
   * counted at its largest possible loss: stake plus full commission, since it may fill
   * at a better price than its limit.
   */
  canAfford(gameId: string, selection: Selection, amount: number, commissionRate: number): boolean {
    const capacity = this.balance + this.creditLimit + 1e-9;
    // Largest loss of the new order: its stake plus commission at a payout of at least 1.
    const extraBound = amount * (1 + commissionRate);
    if (this.totalBound + extraBound <= capacity) return true;
    const target = this.games.get(gameId);
    let others = 0;
    for (const [id, g] of this.games) if (id !== gameId) others += g.exactLoss();
    const extra: Position = { selection, amount, odds: 100, commissionRate, contingent: true };
    const worstHere = -worstCaseLiability([...(target ? target.positions() : []), extra]);
    return others + worstHere <= capacity;
  }

  /** Forget a settled game: its bets no longer tie up balance. */
  release(gameId: string): void {
    const g = this.games.get(gameId);
    if (!g) return;
    this.totalBound -= g.bound;
    this.games.delete(gameId);
  }
}
