/** A recorded order that disappeared from its side, waiting to be told traded or cancelled. */
export interface Vanished {
  readonly bookKey: string;
  readonly side: 0 | 1;
  readonly rank: number;
  readonly stake: number;
  /** Matched volume its trade would add: the taker's stake plus the maker's risk. */
  readonly volume: number;
}

/**
 * The orders of one game that vanished at one instant, in the order they vanished, kept as
 * columns of values rather than as an object each. Most vanished orders are never read as
 * orders (no order of ours rests on their game, so they are only counted and dropped): those
 * make no object, and the columns keep their room from one instant to the next. `take` makes
 * the objects for the few instants whose flows someone reads.
 */
export class VanishedOrders {
  #count = 0;
  readonly #bookKeys: string[] = [];
  readonly #sides: (0 | 1)[] = [];
  readonly #ranks: number[] = [];
  readonly #stakes: number[] = [];
  readonly #volumes: number[] = [];

  /** How many wait. */
  get count(): number {
    return this.#count;
  }

  add(bookKey: string, side: 0 | 1, rank: number, stake: number, volume: number): void {
    const i = this.#count++;
    this.#bookKeys[i] = bookKey;
    this.#sides[i] = side;
    this.#ranks[i] = rank;
    this.#stakes[i] = stake;
    this.#volumes[i] = volume;
  }

  /** Drops every one waiting. */
  clear(): void {
    this.#count = 0;
  }

  /** Every one waiting, as objects in the order they vanished; none waits after. */
  take(): Vanished[] {
    const n = this.#count;
    const out = new Array<Vanished>(n);
    for (let i = 0; i < n; i++)
      out[i] = {
        bookKey: this.#bookKeys[i]!,
        side: this.#sides[i]!,
        rank: this.#ranks[i]!,
        stake: this.#stakes[i]!,
        volume: this.#volumes[i]!,
      };
    this.#count = 0;
    return out;
  }
}
