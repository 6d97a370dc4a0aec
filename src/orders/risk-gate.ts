import type { OwnBook } from './own-book.ts';
import type { OwnOrder, RiskRule, TradingMode } from '../market-model/types.ts';
import { BOUND_MARGIN, restingPosition, worstCaseLiability, worstLoss } from '../money/liability.ts';
import type { Position } from '../money/position.ts';
import type { Selection } from '../markets/types.ts';
import { EVEN_ODDS, invertOdds, isValidAmericanOdds, payout } from '../odds/american.ts';
import { backsOtherSide, wouldMeet } from './self-match.ts';

export interface RiskLimits {
  /** Worst-case loss allowed per game (a positive amount). */
  readonly maxGameLiability: number;
  /** Worst-case loss allowed over all games. */
  readonly maxTotalLiability: number;
  readonly maxOrderSize: number;
  readonly maxOrdersPerGame: number;
}

export interface Candidate {
  readonly gameID: string;
  readonly selection: Selection;
  readonly odds: number;
  readonly size: number;
  /** Taker commission it may pay (0 for post and postArb): on a loss, up to this rate × its size. */
  readonly commissionRate: number;
  /** It can match (postArb, limit, fill-and-kill), so it must not meet an order of ours. */
  readonly crossing?: boolean;
}

export type RiskVerdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly rule: RiskRule;
      readonly detail: string;
    };

/** An order approved this cycle: its own odds (what it could meet of ours), and how it counts in the worst case. */
interface Approved {
  readonly selection: Selection;
  readonly odds: number;
  readonly risk: Position;
}

/** The verdict of every order that passes: one object, never written. */
const PASSES: RiskVerdict = Object.freeze({ ok: true });

const NONE: readonly Approved[] = Object.freeze([]);

/** The risks of `approved`, then `last` when given: the extras of a projected worst case, in one list. */
function risksOf(approved: readonly Approved[], last?: Position): Position[] {
  const out: Position[] = [];
  for (const a of approved) out.push(a.risk);
  if (last !== undefined) out.push(last);
  return out;
}

/**
 * The candidate filled, at the least it can make on each outcome: on a win, what its own odds
 * pay (a taker filled at a better price wins more); on a loss, for a taker, its stake plus
 * rate × stake (the commission on a loss, rate × min(stake, win), grows with the price). The
 * position at its own odds counts rate × min(stake, win at those odds) on a loss; the rest of
 * that commission is a part that only loses.
 */
function filledAtWorst(c: Candidate): Position[] {
  const at: Position = { selection: c.selection, amount: c.size, odds: c.odds, commissionRate: c.commissionRate };
  const more = c.commissionRate * Math.max(0, c.size - c.size * payout(c.odds));
  return more > 0
    ? [at, { selection: c.selection, amount: more, odds: EVEN_ODDS, commissionRate: 0, contingent: true }]
    : [at];
}

/** A game's projected worst case with this cycle's approvals: exact, or a lower bound of it. */
interface GameAfter {
  readonly gameID: string;
  value: number;
  exact: boolean;
}

/**
 * The checks every order passes before it is sent, in order, against the book as it will
 * be once the orders already approved this cycle are out: that it is an order at all (valid
 * odds, a finite positive size), trading mode, size, count per game, then the exact
 * worst-case liability per game and in total with every live order counted where it loses
 * (as the exchange counts it for a place).
 */
export class RiskGate {
  readonly #own: OwnBook;
  readonly #limits: RiskLimits;
  /** Orders approved this cycle, per game, not yet in the own book. */
  readonly #approved = new Map<string, Approved[]>();
  /** Each such game's projected worst case with its approvals. */
  readonly #projected = new Map<string, GameAfter>();
  /** Our live orders per game as the cycle began: the own book does not change until the cycle's batches are sent. */
  readonly #live = new Map<string, readonly OwnOrder[]>();

  constructor(own: OwnBook, limits: RiskLimits) {
    this.#own = own;
    this.#limits = limits;
  }

  /** Start a cycle. Orders about to be cancelled still count: the cancel may lose the race with a fill. */
  begin(): void {
    // Most cycles check nothing: clearing an empty map would still make it new storage.
    if (this.#approved.size > 0) this.#approved.clear();
    if (this.#projected.size > 0) this.#projected.clear();
    if (this.#live.size > 0) this.#live.clear();
  }

  /**
   * The liability checks use the exact worst case only when they must: a lower bound
   * (the game's figure so far plus the new order's own worst loss) that clears both limits
   * proves the exact figure clears them too, and the verdict is the same either way.
   */
  check(c: Candidate, mode: TradingMode): RiskVerdict {
    // Every figure below is a comparison, and NaN compares false: an order with NaN odds or
    // size would pass them all and then poison the book's liability. Refused first, whatever else holds.
    if (!isValidAmericanOdds(c.odds) || !Number.isFinite(c.size) || !(c.size > 0)) {
      return {
        ok: false,
        rule: 'invalid-order',
        detail: `odds ${c.odds} (American odds: an integer, at least 100 from zero) and size ${c.size} (finite and above 0) make no order`,
      };
    }
    if (c.crossing) {
      const met = this.#ownMet(c);
      if (met !== null)
        return { ok: false, rule: 'self-match', detail: `a crossing order at ${c.odds} would meet ${met}` };
    }
    if (mode === 'halted') return { ok: false, rule: 'halted', detail: 'trading is halted: cancels only' };
    if (c.size > this.#limits.maxOrderSize)
      return {
        ok: false,
        rule: 'max-order-size',
        detail: `size ${c.size} above the maximum ${this.#limits.maxOrderSize}`,
      };
    const approved = this.#approved.get(c.gameID) ?? NONE;
    const count = this.#own.liveCountOf(c.gameID) + approved.length;
    if (count + 1 > this.#limits.maxOrdersPerGame)
      return {
        ok: false,
        rule: 'max-orders-per-game',
        detail: `${count} orders already live or approved on the game (max ${this.#limits.maxOrdersPerGame})`,
      };
    // Where it loses, a taker's commission counted at its most (see restingPosition).
    const position = restingPosition(c.selection, c.size, c.odds, c.commissionRate);
    // The game's exact projected worst case with this order, when already worked out.
    let exact: number | undefined;
    if (mode === 'reducing') {
      // An order whose fill lowers the worst case of what is matched...
      const matched = this.#own.positions(c.gameID);
      const before = worstCaseLiability(matched);
      const alone = worstCaseLiability([...matched, ...filledAtWorst(c)]);
      if (!(alone > before + 1e-9))
        return {
          ok: false,
          rule: 'reducing',
          detail: `reducing: the order would not lower the worst case (${before.toFixed(2)} → ${alone.toFixed(2)})`,
        };
      // ...and that, whatever else of ours fills, cannot leave it worse than it is. At each
      // score the P&L is linear in the amounts our orders fill, so the worst case is a
      // minimum of linear functions of them: its lowest point over every way they may fill
      // (any part of each) is at a corner, some orders filled whole and the rest not at all.
      // The worst corner at each score fills exactly the orders that lose there, which is
      // what the projected worst case counts (every live order of ours on the game and this
      // cycle's approvals where they lose, plus this one). "All of them filled" is only one
      // corner: orders that each hedge and together hedge may leave a part that does not.
      exact = this.#own.projectedLiability(c.gameID, risksOf(approved, position));
      if (!(exact >= before - 1e-9))
        return {
          ok: false,
          rule: 'reducing',
          detail: `reducing: with our other orders on the game it could leave the worst case at ${exact.toFixed(2)}, below the matched ${before.toFixed(2)}`,
        };
    }
    const sofar = this.#projected.get(c.gameID);
    const bound = (sofar?.value ?? this.#own.projectedLowerBound(c.gameID)) + worstLoss(position);
    // What the game's figure becomes once this order passes: exact, or bounded.
    let value = exact ?? bound;
    let isExact = exact !== undefined;
    // The other games' bound walks every game: worked out once per check, when first needed.
    let others: number | undefined;
    if (
      isExact ||
      !(
        bound >= -this.#limits.maxGameLiability + BOUND_MARGIN &&
        bound + (others ??= this.#othersLowerBound(c.gameID)) >= -this.#limits.maxTotalLiability + BOUND_MARGIN
      )
    ) {
      if (!isExact) {
        value = this.#own.projectedLiability(c.gameID, risksOf(approved, position));
        isExact = true;
      }
      // Written so that a figure that is not a number (a poisoned book) refuses, never passes.
      if (!(value >= -this.#limits.maxGameLiability - 1e-9)) {
        return {
          ok: false,
          rule: 'game-liability',
          detail: `worst case on the game would be ${value.toFixed(2)} (cap -${this.#limits.maxGameLiability})`,
        };
      }
      // Every other game as it stands plus what this cycle approved there: exactly, unless
      // a lower bound of it, with this game's exact figure, already clears the limit.
      if (!(value + (others ??= this.#othersLowerBound(c.gameID)) >= -this.#limits.maxTotalLiability + BOUND_MARGIN)) {
        const total =
          this.#own.totalProjectedLiability() -
          this.#own.projectedLiability(c.gameID) +
          value +
          this.#approvedElsewhere(c.gameID);
        if (!(total >= -this.#limits.maxTotalLiability - 1e-9)) {
          return {
            ok: false,
            rule: 'total-liability',
            detail: `worst case over all games would be ${total.toFixed(2)} (cap -${this.#limits.maxTotalLiability})`,
          };
        }
      }
    }
    const entry: Approved = { selection: c.selection, odds: c.odds, risk: position };
    if (approved === NONE) this.#approved.set(c.gameID, [entry]);
    else (approved as Approved[]).push(entry);
    if (sofar === undefined) this.#projected.set(c.gameID, { gameID: c.gameID, value, exact: isExact });
    else {
      sofar.value = value;
      sofar.exact = isExact;
    }
    return PASSES;
  }

  /**
   * A lower bound of the worst case over every game but the candidate's: each with this
   * cycle's approvals (as checked) or as it stands (bounded).
   */
  #othersLowerBound(gameID: string): number {
    let total = 0;
    for (const after of this.#projected.values()) if (after.gameID !== gameID) total += after.value;
    for (const g of this.#own.unsettledGameIDs())
      if (g !== gameID && !this.#projected.has(g)) total += this.#own.projectedLowerBound(g);
    return total;
  }

  /**
   * The odds at which our own open orders, and this cycle's approvals, backing the other
   * side of `selection`'s book are listed for takers of `selection`: what a post backing it
   * would meet of ours. Read from our own book, as `#ownMet` is.
   */
  ownListedAgainst(gameID: string, selection: Selection): number[] {
    const out: number[] = [];
    for (const o of this.#liveOn(gameID))
      if (o.remaining > 0 && backsOtherSide(o.selection, selection)) out.push(invertOdds(o.odds));
    for (const p of this.#approved.get(gameID) ?? NONE)
      if (backsOtherSide(p.selection, selection)) out.push(invertOdds(p.odds));
    return out;
  }

  #liveOn(gameID: string): readonly OwnOrder[] {
    let live = this.#live.get(gameID);
    if (live === undefined) this.#live.set(gameID, (live = this.#own.liveOrders(gameID)));
    return live;
  }

  /**
   * An order of ours a crossing candidate could meet, described; null if none. Read from our
   * own book (and this cycle's approvals), not the price feed, whose copy of a new order may
   * not be flagged ours yet. Orders about to be cancelled count: the cancel may lose the race.
   */
  #ownMet(c: Candidate): string | null {
    for (const o of this.#liveOn(c.gameID)) {
      if (o.remaining > 0 && wouldMeet(o, c.selection, c.odds))
        return `our own order ${o.orderID ?? o.clientId} (${o.odds})`;
    }
    for (const p of this.#approved.get(c.gameID) ?? NONE)
      if (wouldMeet(p, c.selection, c.odds)) return `our own order at ${p.odds} sent this cycle`;
    return null;
  }

  /** How much worse this cycle's approvals made the other games, exactly: Σ (after − before). */
  #approvedElsewhere(gameID: string): number {
    let d = 0;
    for (const after of this.#projected.values()) {
      const g = after.gameID;
      if (g === gameID) continue;
      if (!after.exact) {
        after.value = this.#own.projectedLiability(g, risksOf(this.#approved.get(g) ?? NONE));
        after.exact = true;
      }
      d += after.value - this.#own.projectedLiability(g);
    }
    return d;
  }
}
