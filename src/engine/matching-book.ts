import { oddsRank, payout, type AmericanOdds } from '../odds/american.ts';
import type { Selection } from '../markets/types.ts';
import { listedOddsOf, type OrderState } from './order-state.ts';

/**
 * Orders at one listed price, oldest first. Closed orders are skipped lazily and
 * compacted away, so cancelling is O(1) and matching never shifts the array per fill.
 */
export class PriceLevel {
  readonly orders: OrderState[] = [];
  head = 0;
  live = 0;
  /** Whether the side lists it: an emptied level is kept aside for its price's next order. */
  listed = false;

  constructor(
    readonly rank: number,
    /** As its first order lists it while listed (set again when an emptied level is listed anew). */
    public listedOdds: AmericanOdds,
  ) {}

  /** First open order, advancing past closed ones. */
  first(): OrderState | undefined {
    const orders = this.orders;
    while (this.head < orders.length) {
      const o = orders[this.head]!;
      if (o.status === 'open') return o;
      this.head++;
    }
    return undefined;
  }

  compactIfSparse(): void {
    const orders = this.orders;
    const dead = orders.length - this.live;
    if (dead > 32 && dead > this.live) {
      // In place: no garbage, and no spread of a long queue into call arguments.
      let n = 0;
      for (let i = this.head; i < orders.length; i++) {
        const o = orders[i]!;
        if (o.status === 'open') orders[n++] = o;
      }
      orders.length = n;
      this.head = 0;
    }
  }
}

/** Emptied levels a side keeps aside for reuse. */
const SPARE_LEVELS = 4;

/**
 * The orders takers of one side can take, best price for the taker first (highest
 * rank), then earliest.
 */
export class BookSide {
  /** Best first. */
  readonly levels: PriceLevel[] = [];
  /**
   * The listed levels, and up to SPARE_LEVELS emptied ones kept aside: an order placed and
   * cancelled alone at its price (a quote's usual life) then makes no level and no map entry
   * each time. Spares are bounded by count, not by the prices the side has seen: a book of a
   * game that moves all day touches hundreds of prices, and a simulator holds thousands of
   * sides.
   */
  readonly #byRank = new Map<number, PriceLevel>();
  #spares = 0;

  /** Levels the side holds: the listed ones and the spares. */
  get heldLevels(): number {
    return this.#byRank.size;
  }

  add(order: OrderState): void {
    const listedOdds = listedOddsOf(order);
    const rank = oddsRank(listedOdds);
    let level = this.#byRank.get(rank);
    if (!level) {
      level = new PriceLevel(rank, listedOdds);
      this.#byRank.set(rank, level);
    } else if (!level.listed) this.#spares--;
    if (!level.listed) {
      level.listedOdds = listedOdds;
      this.#list(level);
    }
    level.orders.push(order);
    level.live++;
    order.level = level;
  }

  /** Call after the order's status left `open`. */
  remove(order: OrderState): void {
    const level = order.level;
    if (!level) return;
    order.level = null;
    level.live--;
    if (level.live <= 0) {
      // Aside, empty (its closed orders are not kept alive by it), or forgotten past the bound.
      level.listed = false;
      level.live = 0;
      level.head = 0;
      // Popped, not cut to length 0: an array cut to 0 gives up its store, and the level's
      // next order (a quote placed and cancelled alone at its price) would allocate one again.
      const orders = level.orders;
      while (orders.length > 0) orders.pop();
      if (this.#spares < SPARE_LEVELS) this.#spares++;
      else this.#byRank.delete(level.rank);
      // Moved down and popped: a splice makes an array of what it removes.
      const levels = this.levels;
      const i = levels.indexOf(level);
      if (i >= 0) {
        for (let j = i + 1; j < levels.length; j++) levels[j - 1] = levels[j]!;
        levels.pop();
      }
    } else {
      level.compactIfSparse();
    }
  }

  /** Into `levels` at its rank's place, best first. */
  #list(level: PriceLevel): void {
    level.listed = true;
    const levels = this.levels;
    const rank = level.rank;
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (levels[mid]!.rank > rank) lo = mid + 1;
      else hi = mid;
    }
    // Moved up by hand: a splice makes an array (of nothing removed) on every insert.
    levels.push(level);
    for (let j = levels.length - 1; j > lo; j--) levels[j] = levels[j - 1]!;
    levels[lo] = level;
  }

  best(): PriceLevel | undefined {
    return this.levels[0];
  }

  /** Open orders best first. */
  *orders(): IterableIterator<OrderState> {
    for (const level of this.levels) {
      for (let i = level.head; i < level.orders.length; i++) {
        const o = level.orders[i]!;
        if (o.status === 'open') yield o;
      }
    }
  }

  /** Total taker stake available at ranks ≥ `minRank`, stopping once `enough` is reached. */
  capacityAtOrBetter(minRank: number, enough = Infinity): number {
    let total = 0;
    for (const level of this.levels) {
      if (level.rank < minRank) break;
      for (let i = level.head; i < level.orders.length; i++) {
        const o = level.orders[i]!;
        if (o.status !== 'open') continue;
        total += o.remaining * payout(o.odds);
        if (total >= enough) return total;
      }
    }
    return total;
  }

  get size(): number {
    let n = 0;
    for (const level of this.levels) n += level.live;
    return n;
  }
}

/** A two-sided market at one line. `selections[i]` is what a taker on side i backs. */
export class MatchingBook {
  readonly sides: readonly [BookSide, BookSide] = [new BookSide(), new BookSide()];
  constructor(
    readonly gameID: string,
    readonly key: string,
    readonly selections: readonly [Selection, Selection],
  ) {}
}
