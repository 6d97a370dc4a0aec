import {
  addResting,
  restingPosition,
  worstCaseLiability,
  worstCaseLiabilityOfGroups,
  worstLoss,
} from '../money/liability.ts';
import { PnlGroups } from '../money/pnl-groups.ts';
import type { Position } from '../money/position.ts';
import type { OwnFill, OwnOrder } from '../market-model/types.ts';
import { commissionOf, positionOf, type AwaitedFill } from './fill-ledger.ts';
import { DUST, isLive, restingOf } from './order-store.ts';
import { sameSelection } from './plan.ts';

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
  return restingPosition(o.selection, amount, o.odds, takesAsTaker(o) ? rate : 0);
}

/** Whether a live order still counts its loss with taker commission (see `contingentOf`). */
function takesAsTaker(o: OwnOrder): boolean {
  return o.mayTake === true && o.orderID === null;
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
   * Orders the floor already counts, where they lose: it was set to the exact worst case
   * with these added (`projectedLiability` with extras), which no set of them makes worse.
   * A new live order that counts exactly as one of them uses it up instead of deepening
   * the floor again. Empty whenever the floor is set from anything else.
   */
  credits: Position[];
  /**
   * Live orders added since the floor was last set, by client id, with the worst loss each
   * deepened it by: an order that rests less, or no longer, takes back what it added (the
   * floor stands for the figure it was set from plus each of these at its most).
   */
  readonly since: Map<string, number>;
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
  /**
   * How many of the game's live orders `base` has looked at, in `live` order. While
   * `baseExtends`, the only changes since are new live orders, which the live orders list
   * after these: `base` is brought up to date by adding them, which is exactly what making
   * it afresh would add, in the same order (no awaited fill comes after them).
   */
  baseLive: number;
  baseExtends: boolean;
  /** Whether `base` holds no awaited fill (it was made with none). */
  baseLiveOnly: boolean;
  /** The commission rate `base` was made with (#touch does not see the rate change). */
  baseRate: number;
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
  /**
   * Unsettled games whose `projected` is not set: while none, the total is whole and reading it
   * walks no game. At the total-liability cap the risk gate reads it on every refusal, some
   * 1.8M times over the 1.7M-event recording, with hundreds of games open.
   */
  #uncached = 0;
  readonly #commissionRate: () => number;
  readonly #sources: LiabilitySources;

  constructor(options: { commissionRate: () => number; sources: LiabilitySources }) {
    this.#commissionRate = options.commissionRate;
    this.#sources = options.sources;
  }

  /** Start keeping the game's figures (idempotent): games are summed in the order they were opened. */
  openGame(gameID: string): void {
    if (this.#games.has(gameID)) return;
    if (!this.#settled.has(gameID)) this.#uncached++;
    this.#games.set(gameID, {
      projected: null,
      floor: 0,
      floorRate: this.#commissionRate(),
      credits: [],
      since: new Map(),
      matched: null,
      matchedCount: 0,
      matchedRate: 0,
      matchedWorst: null,
      matchedWorstRate: 0,
      base: null,
      baseValid: false,
      baseLive: 0,
      baseExtends: false,
      baseLiveOnly: false,
      baseRate: 0,
      scratch: null,
    });
  }

  /** Drop the game's figures; it leaves the total. */
  forgetGame(gameID: string): void {
    this.#touch(gameID);
    if (this.#games.delete(gameID) && !this.#settled.has(gameID)) this.#uncached--;
  }

  /**
   * An order was added (`before` null) or its record replaced. A new order is listed after
   * every live order of its game (the sources add it at the end). A record that counts the
   * same in the worst case (the same resting risk, the same commission where it loses: a
   * status that stays live, an order id) changes no figure, so none is invalidated: one that
   * stays live keeps its place among the live orders.
   */
  orderChanged(before: OwnOrder | null, after: OwnOrder): void {
    if (before !== null) {
      if (after.remaining === before.remaining && after.status === before.status) return;
      if (
        isLive(after) === isLive(before) &&
        restingOf(after) === restingOf(before) &&
        takesAsTaker(after) === takesAsTaker(before)
      )
        return;
    }
    this.#touch(after.gameID, before === null);
    const g = this.#games.get(after.gameID);
    if (!g) return;
    if (before === null) {
      if (g.credits.length > 0 && this.#useCredit(g, after)) return;
      const loss = this.#lossOf(after);
      g.floor += loss;
      if (loss < 0) g.since.set(after.clientId, loss);
      return;
    }
    const was = g.since.get(after.clientId);
    if (was === undefined) {
      this.#deepenFloor(g, after, restingOf(after) - restingOf(before));
      return;
    }
    const loss = this.#lossOf(after);
    g.floor = g.floor - was + loss;
    if (loss < 0) g.since.set(after.clientId, loss);
    else g.since.delete(after.clientId);
  }

  /** The most the order can lose as it stands (≤ 0; 0 when nothing of it rests). */
  #lossOf(o: OwnOrder): number {
    const amount = restingOf(o);
    return amount > 0 ? worstLoss(contingentOf(o, amount, this.#commissionRate())) : 0;
  }

  /** The floor is set afresh to `value`: nothing added before counts apart from it. */
  #setFloor(g: GameLiability, value: number, credits: Position[]): void {
    g.floor = value;
    g.credits = credits;
    if (g.since.size > 0) g.since.clear();
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
        this.#sources.fills(gameID).length === 0 ? 0 : worstCaseLiabilityOfGroups(this.#matched(g, gameID));
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
      this.#setFloor(g, value, g.credits.length > 0 ? [] : g.credits);
      g.floorRate = this.#commissionRate();
      if (!this.#settled.has(gameID)) {
        this.#projectedTotal += value;
        this.#uncached--;
      }
    } else if (g) {
      this.#creditFloor(g, gameID, value, extra);
    }
    return value;
  }

  /**
   * `value` is the exact worst case with `extra` (orders about to be sent) added to the
   * game as it stands. Where they lose only, they can only lower it: so it is a lower bound
   * of the game as it stands, and of the game with any of them added. It becomes the floor,
   * with them as credits, when that is tighter once they are all added than the floor
   * deepened by each.
   */
  #creditFloor(g: GameLiability, gameID: string, value: number, extra: readonly Position[]): void {
    if (g.floorRate !== this.#commissionRate() || this.#settled.has(gameID)) return;
    let deepened = g.floor;
    for (const p of extra) {
      if (p.contingent !== true) return;
      deepened += worstLoss(p);
    }
    if (!(value > deepened)) return;
    this.#setFloor(g, value, extra.slice());
  }

  /** Whether the new order `o` counts exactly as a credit of the floor: that credit is then used up. */
  #useCredit(g: GameLiability, o: OwnOrder): boolean {
    const amount = restingOf(o);
    if (amount === 0) return true;
    const p = contingentOf(o, amount, this.#commissionRate());
    const credits = g.credits;
    for (let i = 0; i < credits.length; i++) {
      const c = credits[i]!;
      if (
        c.amount === p.amount &&
        c.odds === p.odds &&
        c.commissionRate === p.commissionRate &&
        sameSelection(c.selection, p.selection)
      ) {
        credits.splice(i, 1);
        return true;
      }
    }
    return false;
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
    if (this.#uncached > 0)
      for (const [id, g] of this.#games)
        if (g.projected === null && !this.#settled.has(id)) this.projectedLiability(id);
    return this.#projectedTotal;
  }

  /**
   * The game was graded: its bets are money now, not risk. Matched bets that won where a
   * resting order loses leave the projection: the figure can fall, so the floor waits for
   * the next exact one.
   */
  settle(gameID: string): void {
    this.#touch(gameID);
    // Its figure is uncached now (#touch); settled, it no longer counts among them.
    if (this.#games.has(gameID) && !this.#settled.has(gameID)) this.#uncached--;
    this.#settled.add(gameID);
    const g = this.#games.get(gameID);
    if (g) {
      g.floorRate = Number.NaN;
      this.#setFloor(g, g.floor, []);
      // A settled game's figure is worked out afresh each time: its search sets only hold memory.
      g.base = null;
      g.baseValid = false;
      g.scratch = null;
    }
  }

  isSettled(gameID: string): boolean {
    return this.#settled.has(gameID);
  }

  #computeProjected(g: GameLiability | undefined, gameID: string, extra: readonly Position[]): number {
    if (g === undefined) return worstCaseLiability(extra);
    const base = this.#base(g, gameID);
    if (extra.length === 0) return worstCaseLiabilityOfGroups(base);
    const groups = (g.scratch ??= new PnlGroups());
    groups.copyFrom(base);
    groups.addAll(extra);
    return worstCaseLiabilityOfGroups(groups);
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
    if (g.base !== null && g.baseValid && g.baseRate === rate) {
      if (g.baseExtends) this.#extendBase(g, g.base, gameID, rate);
      return g.base;
    }
    let groups: PnlGroups;
    if (this.#settled.has(gameID)) {
      groups = new PnlGroups();
    } else {
      groups = g.base ?? new PnlGroups();
      groups.copyFrom(this.#matched(g, gameID));
    }
    // Each as contingentOf makes it, added by its parts (no position made per order).
    let live = 0;
    for (const o of this.#sources.live(gameID)) {
      live++;
      if (o.remaining > DUST) addResting(groups, o.selection, o.remaining, o.odds, takesAsTaker(o) ? rate : 0);
    }
    const awaited = this.#sources.awaited(gameID);
    for (const a of awaited.values()) groups.add(a.risk);
    g.base = groups;
    g.baseValid = true;
    g.baseRate = rate;
    g.baseLive = live;
    g.baseExtends = false;
    // Awaited fills come after the live orders: with any, a new order cannot be added at the end.
    g.baseLiveOnly = awaited.size === 0;
    return groups;
  }

  /** Add to `base` the live orders listed after the `baseLive` it has (see `baseExtends`). */
  #extendBase(g: GameLiability, base: PnlGroups, gameID: string, rate: number): void {
    let n = 0;
    for (const o of this.#sources.live(gameID)) {
      if (n++ < g.baseLive) continue;
      if (o.remaining > DUST) addResting(base, o.selection, o.remaining, o.odds, takesAsTaker(o) ? rate : 0);
    }
    g.baseLive = n;
    g.baseExtends = false;
  }

  /** `added` more of `o` rests (where it loses it counts in the projected worst case). */
  #deepenFloor(g: GameLiability, o: OwnOrder, added: number): void {
    if (added > 0) g.floor += worstLoss(contingentOf(o, added, this.#commissionRate()));
  }

  /**
   * Something on the game changed: its cached projected worst case leaves the total. When
   * `added` (a new live order, listed last), a base of live orders only stays, to be extended.
   */
  #touch(gameID: string, added = false): void {
    const g = this.#games.get(gameID);
    if (!g) return;
    if (added && g.baseValid && g.baseLiveOnly) g.baseExtends = true;
    else g.baseValid = false;
    if (g.projected === null) return;
    if (!this.#settled.has(gameID)) {
      this.#projectedTotal -= g.projected;
      this.#uncached++;
    }
    g.projected = null;
  }
}
