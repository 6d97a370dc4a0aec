import { worstCaseLiability, worstCaseLiabilityOfGroups } from '../money/liability.ts';
import { PnlGroups } from '../money/pnl-groups.ts';
import type { Position } from '../money/position.ts';
import type { Selection } from '../markets/types.ts';
import type { BetLedger } from './bet-ledger.ts';
import { DUST, bySeq, type OrderState } from './order-state.ts';

/**
 * What one user has on one unsettled game: matched bets and resting orders. Keeps cheap
 * upper bounds of the worst-case loss so the common place needs no exact computation;
 * the exact values are cached until the positions change.
 *
 * Both bounds rest on one fact: the worst case of a union of positions is at least the sum
 * of the parts' worst cases (a minimum of a sum is at least the sum of the minima), so the
 * loss of a union is at most the sum of the parts' losses.
 */
export class GameExposure {
  /** Matched bets (ledger indexes), oldest first. Add through `addBet`. */
  readonly bets: number[] = [];
  /** Open orders in no particular order: each holds its slot, so removal is a swap. */
  readonly #resting: OrderState[] = [];
  /** `#resting` oldest first, kept as orders rest and leave; null until first asked for, or after an order rested out of seq order. */
  #bySeq: OrderState[] | null = null;
  /** Σ max loss over bets and resting orders; ≥ the exact worst-case loss. */
  bound = 0;
  /**
   * Another bound of the exact worst-case loss, usually much tighter than `bound`: the
   * last exact loss (or a bound the liability check found) plus what each change since
   * could add (see `changed`).
   */
  #upper = 0;
  #exact: number | null = 0;
  /** Worst case over matched bets only, until a bet is added. */
  #matched: number | null = 0;
  /**
   * The first `#folded` bets, merged for the worst-case search. Bets never change and only
   * ever append, so this extends instead of starting over; every exact figure starts from a
   * copy of it and adds the resting orders after, the order `positions()` lists them in.
   */
  #betGroups: PnlGroups | null = null;
  #folded = 0;
  /**
   * Where each exact figure is worked out (the bets, then the rest), reused. Made on first
   * use: most users' exposures are never asked for an exact figure.
   */
  #work: { readonly scratch: PnlGroups } | null = null;

  constructor(readonly account: Account) {}

  addResting(order: OrderState): void {
    order.exposure = this;
    order.slot = this.#resting.length;
    this.#resting.push(order);
    // A new order rests after every other (its seq is the newest): the sorted list grows at its end, unsorted again.
    const bySeq = this.#bySeq;
    if (bySeq !== null && (bySeq.length === 0 || bySeq[bySeq.length - 1]!.seq < order.seq)) bySeq.push(order);
    else this.#bySeq = null;
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
    const bySeq = this.#bySeq;
    if (bySeq === null) return;
    // Taken out where it stands, the rest moved down: still oldest first, and no sort or copy next time.
    const i = bySeq.indexOf(order);
    if (i < 0) {
      this.#bySeq = null;
      return;
    }
    for (let j = i + 1; j < bySeq.length; j++) bySeq[j - 1] = bySeq[j]!;
    bySeq.pop();
  }

  /** Open orders, in no particular order. */
  get resting(): readonly OrderState[] {
    return this.#resting;
  }

  /** Record a matched bet of this user on the game. */
  addBet(bet: number): void {
    this.bets.push(bet);
    this.#matched = null;
  }

  /**
   * The positions changed, adding at most `maxAddedLoss` to the worst-case loss: the
   * remaining risk of an order that rested, the risk of a taker's new bet. A negative or
   * zero value adds nothing: a cancel or expiry only drops a resting order, which counted
   * only where it loses, and a maker's fill turns resting risk into a matched bet of the
   * same risk, which loses the same where the order lost and wins elsewhere.
   */
  changed(maxAddedLoss: number): void {
    this.#exact = null;
    if (maxAddedLoss > 0) this.#upper += maxAddedLoss;
  }

  /** An upper bound of `exactLoss()` (up to float rounding), computed without it. */
  upperLoss(): number {
    if (this.#exact !== null) return this.#exact;
    return this.#upper < this.bound ? this.#upper : this.bound;
  }

  /**
   * `loss` is the exact loss of these positions plus a contingent one (a liability check's
   * new order): a position that counts only where it loses can only deepen the worst case,
   * so `loss` bounds the loss without it too.
   */
  noteLossWithExtra(loss: number): void {
    if (this.#exact === null && loss < this.#upper) this.#upper = loss;
  }

  /** Bets, then resting orders oldest first: the list the grouped sums stand for (what tests compare them with). */
  positions(): Position[] {
    const out: Position[] = [];
    const ledger = this.account.ledger;
    for (const b of this.bets) out.push(ledger.position(b));
    for (const o of this.#oldestFirst()) {
      if (o.remaining > DUST)
        out.push({
          selection: o.line.selection,
          amount: o.remaining,
          odds: o.odds,
          commissionRate: 0,
          contingent: true,
        });
    }
    return out;
  }

  /** The bets, merged. Other sets copy it and never add to it. */
  #bets(): PnlGroups {
    const groups = (this.#betGroups ??= new PnlGroups());
    const ledger = this.account.ledger;
    for (; this.#folded < this.bets.length; this.#folded++)
      groups.add(ledger.position(this.bets[this.#folded] as number));
    return groups;
  }

  /** `positions()` plus `extra`, merged for the worst-case search without making the positions; valid until the next call. */
  #groups(extra?: Position): PnlGroups {
    const groups = this.#scratchSet().scratch;
    groups.copyFrom(this.#bets());
    for (const o of this.#oldestFirst())
      if (o.remaining > DUST) groups.addMoney(o.line.selection, o.remaining, o.odds, 0, true);
    if (extra) groups.add(extra);
    return groups;
  }

  /** The resting orders oldest first, as they rested: the liability sums floats, so the order is part of the result. */
  #oldestFirst(): readonly OrderState[] {
    return (this.#bySeq ??= this.#resting.slice().sort(bySeq));
  }

  #scratchSet(): { readonly scratch: PnlGroups } {
    return (this.#work ??= { scratch: new PnlGroups() });
  }

  /** Exact worst-case loss of `positions()` plus `extra` as a non-negative number (not cached). */
  lossWith(extra: Position): number {
    return -worstCaseLiabilityOfGroups(this.#groups(extra));
  }

  /** Exact worst-case loss as a non-negative number. */
  exactLoss(): number {
    if (this.#exact === null) {
      this.#exact = -worstCaseLiabilityOfGroups(this.#groups());
      this.#upper = this.#exact;
    }
    return this.#exact;
  }

  /** Worst case over matched bets only: what getGameLiability reports (≤ 0). */
  matchedLiability(): number {
    this.#matched ??= worstCaseLiabilityOfGroups(this.#bets());
    return this.#matched;
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

  exposureOf(gameID: string): GameExposure {
    let g = this.games.get(gameID);
    if (!g) {
      g = new GameExposure(this);
      this.games.set(gameID, g);
    }
    return g;
  }

  /** The game's positions changed: `delta` is the change of its Σ max loss (see GameExposure.changed). */
  adjustBound(g: GameExposure, delta: number): void {
    g.bound += delta;
    this.totalBound += delta;
    g.changed(delta);
  }

  /** Σ exact worst-case loss over unsettled games (a non-negative number). */
  exactExposure(): number {
    let total = 0;
    for (const g of this.games.values()) total += g.exactLoss();
    return total;
  }

  /**
   * Whether a new order of `amount` on `gameID` keeps the worst case (every
   * resting order filled where it loses) within balance plus credit. The new order is
   * counted at its largest possible loss: stake plus full commission, since it may fill
   * at a better price than its limit.
   */
  canAfford(gameID: string, selection: Selection, amount: number, commissionRate: number): boolean {
    const capacity = this.balance + this.creditLimit + 1e-9;
    // Largest loss of the new order: its stake plus commission at a payout of at least 1.
    const extraBound = amount * (1 + commissionRate);
    if (this.totalBound + extraBound <= capacity) return true;
    // The same check with each game's tighter bound. The exact figure below is a sum over
    // games, and the new order is one more part of its game, adding at most extraBound: the
    // sum of the bounds bounds it. The bounds and the exact figure round differently, so a
    // bound that passes by less than the slack (orders of magnitude above any rounding of
    // these sums) is left to the exact computation: the answer is always the exact one.
    let upper = extraBound;
    for (const g of this.games.values()) upper += g.upperLoss();
    if (upper + 1e-6 * Math.max(1, Math.abs(capacity), upper) <= capacity) return true;
    const target = this.games.get(gameID);
    let others = 0;
    for (const [id, g] of this.games) if (id !== gameID) others += g.exactLoss();
    const extra: Position = { selection, amount, odds: 100, commissionRate, contingent: true };
    const worstHere = target ? target.lossWith(extra) : -worstCaseLiability([extra]);
    target?.noteLossWithExtra(worstHere);
    return others + worstHere <= capacity;
  }

  /** Forget a settled game: its bets no longer tie up balance. */
  release(gameID: string): void {
    const g = this.games.get(gameID);
    if (!g) return;
    this.totalBound -= g.bound;
    this.games.delete(gameID);
  }
}
