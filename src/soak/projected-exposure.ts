import { worstCaseLiability } from '../money/liability.ts';
import type { Position } from '../money/position.ts';

/**
 * One reading of the account's projected worst case, taken right after a change of its
 * positions on one game: that game's figure and the sum over every unsettled game (both ≤ 0).
 */
export interface ExposureSample {
  readonly at: number;
  readonly gameID: string;
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
  addBet(gameID: string, position: Position): void {
    this.#game(gameID).bets.push({ ...position, contingent: false });
  }

  /** An order of the account rests (or rests on with less after a fill) with `amount` of its stake; 0: it no longer rests. Read at the next `read`. */
  rest(gameID: string, orderID: string, position: Omit<Position, 'contingent' | 'commissionRate'>): void {
    const g = this.#game(gameID);
    if (position.amount > 0) g.resting.set(orderID, { ...position, commissionRate: 0, contingent: true });
    else g.resting.delete(orderID);
  }

  /** The order no longer rests (cancelled, expired, filled). Read at the next `read`. */
  unrest(gameID: string, orderID: string): void {
    this.#games.get(gameID)?.resting.delete(orderID);
  }

  /** Work out the game's figure and the total after this event's changes, and keep them as a sample. */
  read(gameID: string, at: number): void {
    this.#sample(gameID, at);
  }

  /** The game was graded: its bets are money now, and its orders expired with it. */
  settle(gameID: string, at: number): void {
    const g = this.#games.get(gameID);
    if (!g) return;
    this.#games.delete(gameID);
    this.#total = this.#sum();
    this.samples.push({ at, gameID, game: 0, total: this.#total + 0 });
  }

  /** The projected worst case on the game now (≤ 0). */
  game(gameID: string): number {
    return this.#games.get(gameID)?.value ?? 0;
  }

  get total(): number {
    return this.#total + 0;
  }

  #game(gameID: string): GamePositions {
    let g = this.#games.get(gameID);
    if (!g) this.#games.set(gameID, (g = { bets: [], resting: new Map(), value: 0 }));
    return g;
  }

  /** Summed afresh each time: a running sum would drift by the rounding of every change. */
  #sum(): number {
    let t = 0;
    for (const g of this.#games.values()) t += g.value;
    return t;
  }

  #sample(gameID: string, at: number): void {
    const g = this.#game(gameID);
    const value = worstCaseLiability([...g.bets, ...g.resting.values()]);
    g.value = value;
    this.#total = this.#sum();
    this.samples.push({ at, gameID, game: value, total: this.#total + 0 });
  }
}
