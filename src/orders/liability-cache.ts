import {
  addResting,
  restingPosition,
  worstCaseLiability,
  worstCaseLiabilityOfGroups,
  worstLoss,
} from '../money/liability.ts';
import { PnlGroups, RecentRegions } from '../money/pnl-groups.ts';
import type { Position } from '../money/position.ts';
import type { OwnFill, OwnOrder } from '../market-model/types.ts';
import { commissionOf, positionOf, type AwaitedFill } from './fill-ledger.ts';
import { DUST, restingOf } from './order-store.ts';

/** What the liability of a game is worked out from: the order store's and the fill ledger's records, read as kept. */
export interface LiabilitySources {
  /** The game's live orders, in the order they were added. */
  live(gameID: string): Iterable<OwnOrder>;
  /** The game's fills in booking order; only ever appended to. */
  fills(gameID: string): readonly OwnFill[];
  /** The game's fills reported matched and not booked yet. */
  awaited(gameID: string): ReadonlyMap<string, AwaitedFill>;
}

/**
 * `amount` of a live order where it loses. An order sent to take may still match as a taker,
 * paying commission at `rate`, until the exchange has answered for it: once it has an order id
 * what is left of it rests, as a maker (or it is done).
 */
function contingentOf(o: OwnOrder, amount: number, rate: number): Position {
  return restingPosition(o.selection, amount, o.odds, o.mayTake === true && o.orderID === null ? rate : 0);
}

interface GameLiability {
  /** Projected worst case (matched + live orders), null when it must be recomputed. */
  projected: number | null;
  /**
   * A lower bound of the projected worst case at all times: the last exact figure, deepened
   * by each change since by the most it could lose (a new or larger live order, a fill);
   * a smaller or closed order only lifts the exact figure. Valid while the commission rate
   * is `floorRate` (fills' positions depend on it); NaN after a settlement.
   */
  floor: number;
  floorRate: number;
  /**
   * The game's fills merged for the worst-case search, the first `matchedCount` of them
   * with the commission rate `matchedRate`. Fills only append, so this extends; other sets
   * start as copies of it and never add to it.
   */
  matched: PnlGroups | null;
  matchedCount: number;
  matchedRate: number;
  /** The worst case of `matched` with the rate `matchedWorstRate`, null until asked after a fill. */
  matchedWorst: number | null;
  matchedWorstRate: number;
  /**
   * What the projected worst case starts from: `matched` (unless settled) plus every live
   * order where it loses, in `live` order, while `baseValid` (until any change `#touch`
   * sees). Its storage is reused when it is made again.
   */
  base: PnlGroups | null;
  baseValid: boolean;
  /** The commission rate `base` was made with (#touch does not see the rate change). */
  baseRate: number;
  /** Sets searched on this game, whose regions a new set with the same selections reuses. */
  readonly recent: RecentRegions;
  /** Where `base` plus extras is worked out: reused by every such query, never kept. */
  scratch: PnlGroups | null;
}

/**
 * The exact worst-case liability per game, kept so the hot path rarely searches: the
 * matched worst case (fills), the projected one (fills plus live orders and awaited fills
 * where they lose, as the exchange checks a place), their total over unsettled games, and
 * a cheap lower bound (the floor) between exact figures. Whoever changes an order or a fill
 * says so (`orderChanged`, `fillBooked`, `awaitedChanged`): that invalidates the game's
 * figures and deepens its floor. Games come and go with `openGame` / `forgetGame`.
 */
export class LiabilityCache {
  readonly #games = new Map<string, GameLiability>();
  /** Games graded: their bets no longer count towards liability. */
  readonly #settled = new Set<string>();
  /** Σ projected over unsettled games, valid for the games whose `projected` is set. */
  #projectedTotal = 0;
  readonly #commissionRate: () => number;
  readonly #sources: LiabilitySources;

  constructor(options: { commissionRate: () => number; sources: LiabilitySources }) {
    this.#commissionRate = options.commissionRate;
    this.#sources = options.sources;
  }

  /** Start keeping the game's figures (idempotent): games are summed in the order they were opened. */
  openGame(gameID: string): void {
    if (this.#games.has(gameID)) return;
    this.#games.set(gameID, {
      projected: null,
      floor: 0,
      floorRate: this.#commissionRate(),
      matched: null,
      matchedCount: 0,
      matchedRate: 0,
      matchedWorst: null,
      matchedWorstRate: 0,
      base: null,
      baseValid: false,
      baseRate: 0,
      recent: new RecentRegions(),
      scratch: null,
    });
  }

  /** Drop the game's figures; it leaves the total. */
  forgetGame(gameID: string): void {
    this.#touch(gameID);
    this.#games.delete(gameID);
  }

  /** An order was added (`before` null) or its record replaced. */
  orderChanged(before: OwnOrder | null, after: OwnOrder): void {
    if (before !== null && after.remaining === before.remaining && after.status === before.status) return;
    this.#touch(after.gameID);
    const g = this.#games.get(after.gameID);
    if (g) this.#deepenFloor(g, after, restingOf(after) - (before === null ? 0 : restingOf(before)));
  }

  /** A fill was booked on its (open) game. */
  fillBooked(fill: OwnFill): void {
    const g = this.#games.get(fill.gameID);
    if (g) {
      g.floor += worstLoss(positionOf(fill, this.#commissionRate()));
      g.matchedWorst = null;
    }
    this.#touch(fill.gameID);
  }

  /** The order's awaited fill changed on its (open) game, by `added` more where it is larger. */
  awaitedChanged(order: OwnOrder, added: number): void {
    const g = this.#games.get(order.gameID);
    if (g) this.#deepenFloor(g, order, added);
    this.#touch(order.gameID);
  }

  /** Worst-case loss of the game's fills over every score (≤ 0; settled games included). */
  matchedWorstCase(gameID: string): number {
    const g = this.#games.get(gameID);
    if (!g) return 0;
    const rate = this.#commissionRate();
    if (g.matchedWorst === null || g.matchedWorstRate !== rate) {
      g.matchedWorst =
        this.#sources.fills(gameID).length === 0 ? 0 : worstCaseLiabilityOfGroups(this.#matched(g, gameID), g.recent);
      g.matchedWorstRate = rate;
    }
    return g.matchedWorst;
  }

  /** Worst-case loss of the matched bets on a game over every score (≤ 0): what getGameLiability reports. */
  matchedLiability(gameID: string): number {
    return this.#settled.has(gameID) ? 0 : this.matchedWorstCase(gameID);
  }

  /**
   * Worst case as the exchange checks a place: matched bets plus every live order filled
   * where it loses, plus `extra` (orders about to be sent). ≤ 0.
   */
  projectedLiability(gameID: string, extra: readonly Position[] = []): number {
    const plain = extra.length === 0;
    const g = this.#games.get(gameID);
    if (plain && g && g.projected !== null) return g.projected;
    const value = this.#computeProjected(g, gameID, extra);
    if (plain && g) {
      g.projected = value;
      g.floor = value;
      g.floorRate = this.#commissionRate();
      if (!this.#settled.has(gameID)) this.#projectedTotal += value;
    }
    return value;
  }

  /**
   * A lower bound of `projectedLiability(gameID)` that costs no worst-case search when the
   * exact figure is not cached: the matched worst case plus each live order's own worst
   * loss (a worst case of a sum is never below the sum of the parts' worst cases).
   */
  projectedLowerBound(gameID: string): number {
    const g = this.#games.get(gameID);
    if (!g) return 0;
    if (g.projected !== null) return g.projected;
    if (g.floorRate === this.#commissionRate()) return g.floor;
    let bound = this.matchedLiability(gameID);
    const rate = this.#commissionRate();
    for (const o of this.#sources.live(gameID)) bound += worstLoss(contingentOf(o, restingOf(o), rate));
    for (const a of this.#sources.awaited(gameID).values()) bound += worstLoss(a.risk);
    return bound;
  }

  /** Σ projected worst case over every unsettled game (≤ 0), kept incrementally. */
  totalProjectedLiability(): number {
    for (const [id, g] of this.#games) if (g.projected === null && !this.#settled.has(id)) this.projectedLiability(id);
    return this.#projectedTotal;
  }

  /**
   * The game was graded: its bets are money now, not risk. Matched bets that won where a
   * resting order loses leave the projection: the figure can fall, so the floor waits for
   * the next exact one.
   */
  settle(gameID: string): void {
    this.#touch(gameID);
    this.#settled.add(gameID);
    const g = this.#games.get(gameID);
    if (g) {
      g.floorRate = Number.NaN;
      // A settled game's figure is worked out afresh each time: its search sets only hold memory.
      g.base = null;
      g.baseValid = false;
      g.scratch = null;
      g.recent.clear();
    }
  }

  isSettled(gameID: string): boolean {
    return this.#settled.has(gameID);
  }

  #computeProjected(g: GameLiability | undefined, gameID: string, extra: readonly Position[]): number {
    if (g === undefined) return worstCaseLiability(extra);
    const base = this.#base(g, gameID);
    if (extra.length === 0) return worstCaseLiabilityOfGroups(base, g.recent);
    const groups = (g.scratch ??= new PnlGroups());
    groups.copyFrom(base);
    groups.addAll(extra);
    return worstCaseLiabilityOfGroups(groups, g.recent);
  }

  /** The game's fills merged, with the current commission rate. */
  #matched(g: GameLiability, gameID: string): PnlGroups {
    const rate = this.#commissionRate();
    if (g.matched === null || g.matchedRate !== rate) {
      g.matched = new PnlGroups();
      g.matchedCount = 0;
      g.matchedRate = rate;
    }
    const groups = g.matched;
    const fills = this.#sources.fills(gameID);
    for (; g.matchedCount < fills.length; g.matchedCount++) {
      const f = fills[g.matchedCount]!;
      groups.addMoney(f.selection, f.amount, f.odds, commissionOf(f, rate), false);
    }
    return groups;
  }

  /** What `#computeProjected` adds its extras to: matched (unless settled), then each live order and awaited fill where it loses. */
  #base(g: GameLiability, gameID: string): PnlGroups {
    const rate = this.#commissionRate();
    if (g.base !== null && g.baseValid && g.baseRate === rate) return g.base;
    let groups: PnlGroups;
    if (this.#settled.has(gameID)) {
      groups = new PnlGroups();
    } else {
      groups = g.base ?? new PnlGroups();
      groups.copyFrom(this.#matched(g, gameID));
    }
    // Each as contingentOf makes it, added by its parts (no position made per order).
    for (const o of this.#sources.live(gameID))
      if (o.remaining > DUST)
        addResting(groups, o.selection, o.remaining, o.odds, o.mayTake === true && o.orderID === null ? rate : 0);
    for (const a of this.#sources.awaited(gameID).values()) groups.add(a.risk);
    g.base = groups;
    g.baseValid = true;
    g.baseRate = rate;
    return groups;
  }

  /** `added` more of `o` rests (where it loses it counts in the projected worst case). */
  #deepenFloor(g: GameLiability, o: OwnOrder, added: number): void {
    if (added > 0) g.floor += worstLoss(contingentOf(o, added, this.#commissionRate()));
  }

  /** Something on the game changed: its cached projected worst case leaves the total. */
  #touch(gameID: string): void {
    const g = this.#games.get(gameID);
    if (!g) return;
    g.baseValid = false;
    if (g.projected === null) return;
    if (!this.#settled.has(gameID)) this.#projectedTotal -= g.projected;
    g.projected = null;
  }
}
