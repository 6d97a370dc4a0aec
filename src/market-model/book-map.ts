import type { BookOrder } from '../exchange/schemas/book-order.ts';
import type { MarketBook } from './types.ts';

/**
 * Which book keys a game lists, in its order, and where each sits: shared by every
 * snapshot of the game while that list holds (most updates replace a book, not the list).
 */
interface BookIndex {
  readonly keys: readonly string[];
  readonly at: ReadonlyMap<string, number>;
}

/**
 * One book of a game as the book model holds it, under its key: the book object is replaced
 * (never changed) by each change of the book, and the slot keeps the newest, so a change
 * stores it without a second lookup of the key. Never handed out.
 */
export interface BookSlot {
  book: MarketBook;
  /**
   * Per side, the update's `sideOrders` its offers were built from, index for index (null:
   * not known, or the list had to be put in order): the next update of the side lists most
   * of the very same order objects again (a backtest's tape shares an unchanged order between
   * updates), and an offer built from the same object is the same offer without comparing it
   * field by field.
   */
  readonly from: [readonly BookOrder[] | null, readonly BookOrder[] | null];
}

/**
 * A snapshot's immutable map of books: the game's books as they stood, in the model's
 * order. It holds an array of the books and shares the index of keys with the game's
 * other snapshots while the game lists the same keys, so taking a snapshot after a book
 * changed copies one array of references instead of building a Map (a hashed copy costs
 * about ten times more, and a busy replay takes one per evaluation).
 */
export class BookMap implements ReadonlyMap<string, MarketBook> {
  readonly #index: BookIndex;
  readonly #books: readonly MarketBook[];
  /** Each key with its book, built on the first walk of the entries and kept for the next reader. */
  #entries: readonly [string, MarketBook][] | null = null;

  private constructor(index: BookIndex, books: readonly MarketBook[]) {
    this.#index = index;
    this.#books = books;
  }

  /** The books of `live` as they stand now, sharing `last`'s index while `live` lists the same keys in the same order. */
  static of(live: ReadonlyMap<string, MarketBook>, last: BookMap | null): BookMap {
    const books = new Array<MarketBook>(live.size);
    let i = 0;
    for (const b of live.values()) books[i++] = b;
    return BookMap.#over(live, books, last);
  }

  /** As `of`, for the model's books held in slots: the book each slot holds now. */
  static ofSlots(live: ReadonlyMap<string, BookSlot>, last: BookMap | null): BookMap {
    return BookMap.#over(live, booksOf(live), last);
  }

  /**
   * As `ofSlots`, for a caller that knows `live` lists exactly the keys of `sameKeys`, in
   * the same order (no key added or removed since it was built): its index is shared
   * without walking the keys to compare them.
   */
  static ofSlotsWithKeysOf(live: ReadonlyMap<string, BookSlot>, sameKeys: BookMap): BookMap {
    return new BookMap(sameKeys.#index, booksOf(live));
  }

  /** `books` (the values of `live`, in its order) under `live`'s keys, sharing `last`'s index while the keys are the same. */
  static #over(live: ReadonlyMap<string, unknown>, books: MarketBook[], last: BookMap | null): BookMap {
    const n = live.size;
    const prev = last === null ? undefined : last.#index;
    let same = prev !== undefined && prev.keys.length === n;
    if (same) {
      let i = 0;
      for (const k of live.keys()) {
        if (prev!.keys[i++] !== k) {
          same = false;
          break;
        }
      }
    }
    return new BookMap(same ? prev! : indexOf(live), books);
  }

  get size(): number {
    return this.#books.length;
  }

  get(key: string): MarketBook | undefined {
    const i = this.#index.at.get(key);
    return i === undefined ? undefined : this.#books[i];
  }

  has(key: string): boolean {
    return this.#index.at.has(key);
  }

  forEach(fn: (value: MarketBook, key: string, map: ReadonlyMap<string, MarketBook>) => void, thisArg?: unknown): void {
    const keys = this.#index.keys;
    const books = this.#books;
    for (let i = 0; i < books.length; i++) fn.call(thisArg, books[i]!, keys[i]!, this);
  }

  entries(): MapIterator<[string, MarketBook]> {
    return this.#entryList().values();
  }

  keys(): MapIterator<string> {
    return this.#index.keys.values();
  }

  values(): MapIterator<MarketBook> {
    return this.#books.values();
  }

  [Symbol.iterator](): MapIterator<[string, MarketBook]> {
    return this.#entryList().values();
  }

  get [Symbol.toStringTag](): string {
    return 'BookMap';
  }

  #entryList(): readonly [string, MarketBook][] {
    if (this.#entries === null) {
      const keys = this.#index.keys;
      const books = this.#books;
      const out = new Array<[string, MarketBook]>(books.length);
      for (let i = 0; i < books.length; i++) out[i] = [keys[i]!, books[i]!];
      this.#entries = out;
    }
    return this.#entries;
  }
}

/** The book each slot holds now, in the map's order. */
function booksOf(live: ReadonlyMap<string, BookSlot>): MarketBook[] {
  const books = new Array<MarketBook>(live.size);
  let i = 0;
  for (const s of live.values()) books[i++] = s.book;
  return books;
}

function indexOf(live: ReadonlyMap<string, unknown>): BookIndex {
  const keys = [...live.keys()];
  const at = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) at.set(keys[i]!, i);
  return { keys, at };
}
