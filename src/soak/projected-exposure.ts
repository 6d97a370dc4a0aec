import { worstCaseLiability } from '../money/liability.ts';
import type { Position } from '../money/position.ts';

/**
 * One reading of the account's projected worst case, taken right after a change of its
 * positions on one game: that game's figure and the sum over every unsettled game (both ≤ 0).
 */
export interface ExposureSample {
  readonly at: number;
  readonly gameId: string;
  readonly game: number;
  readonly total: number;
}

interface GamePositions {
  readonly bets: Position[];
  /** Resting orders by id, each as the contingent position it is while any of it may fill. */
  readonly resting: Map<string, Position>;
  value: number;
}

/**
 * The account's projected worst case per game and in total, as the exchange holds it against
 * the balance: matched bets as they settle, every resting order counted only where it loses
 * (an adversary fills exactly the orders that lose at each score), by the exact functions of
 * src/money. Fed event by event: the changes one event makes (a fill turns part of a resting
 * order into a bet) are applied together, then read once, so every state the account passes
 * through is read and no half-applied one is.
 */
export class ProjectedExposure {
  readonly #games = new Map<string, GamePositions>();
  readonly samples: ExposureSample[] = [];
  #total = 0;

  /** A matched bet of the account (a fill side), in its own view. Read at the next `read`. */
  addBet(gameId: string, position: Position): void {
    this.#game(gameId).bets.push({ ...position, contingent: false });
  }

  /** An order of the account rests (or rests on with less after a fill) with `amount` of its stake; 0: it no longer rests. Read at the next `read`. */
  rest(gameId: string, orderId: string, position: Omit<Position, 'contingent' | 'commissionRate'>): void {
    const g = this.#game(gameId);
    if (position.amount > 0) g.resting.set(orderId, { ...position, commissionRate: 0, contingent: true });
    else g.resting.delete(orderId);
  }

  /** The order no longer rests (cancelled, expired, filled). Read at the next `read`. */
  unrest(gameId: string, orderId: string): void {
    this.#games.get(gameId)?.resting.delete(orderId);
  }

  /** Work out the game's figure and the total after this event's changes, and keep them as a sample. */
  read(gameId: string, at: number): void {
    this.#sample(gameId, at);
  }

  /** The game was graded: its bets are money now, and its orders expired with it. */
  settle(gameId: string, at: number): void {
    const g = this.#games.get(gameId);
    if (!g) return;
    this.#games.delete(gameId);
    this.#total = this.#sum();
    this.samples.push({ at, gameId, game: 0, total: this.#total + 0 });
  }

  /** The projected worst case on the game now (≤ 0). */
  game(gameId: string): number {
    return this.#games.get(gameId)?.value ?? 0;
  }

  get total(): number {
    return this.#total + 0;
  }

  #game(gameId: string): GamePositions {
    let g = this.#games.get(gameId);
    if (!g) this.#games.set(gameId, (g = { bets: [], resting: new Map(), value: 0 }));
    return g;
  }

  /** Summed afresh each time: a running sum would drift by the rounding of every change. */
  #sum(): number {
    let t = 0;
    for (const g of this.#games.values()) t += g.value;
    return t;
  }

  #sample(gameId: string, at: number): void {
    const g = this.#game(gameId);
    const value = worstCaseLiability([...g.bets, ...g.resting.values()]);
    g.value = value;
    this.#total = this.#sum();
    this.samples.push({ at, gameId, game: value, total: this.#total + 0 });
  }
}
