import type { MarketBook } from '../../market-model/types.ts';
import { consensusFair } from '../../strategy/fair.ts';
import type { RecordedMarket } from '../venue/recorded-market.ts';

/** A recorded book's fair price as the report reads it, shared by our fills on the book. */
export interface BookFair {
  readonly gameID: string;
  readonly bookKey: string;
  /** The last consensus the book had: what counts while it has none. */
  last: number | null;
  /**
   * The recorded book last read (null: never read) and its consensus. The market model
   * replaces a book on every change and never mutates one (its types are readonly), so the
   * same object is the same prices: the consensus is computed once per version of the book.
   */
  book: MarketBook | undefined | null;
  consensus: number | null;
}

/** A fill as the marks value it: the fair price is of side 0 of its book. */
export interface MarkedFill {
  readonly fair: BookFair;
  readonly side: 0 | 1;
  readonly row: { readonly win: number; readonly risk: number };
}

/** Value of a bet at win probability p: what it is worth on average. */
const valueAt = (p: number, f: { readonly win: number; readonly risk: number }) => p * f.win - (1 - p) * f.risk;

/** Our fills valued at the recorded market's consensus fair price, one record per book shared by its fills. */
export class FairMarks {
  readonly #recorded: RecordedMarket;
  /** By game, then book key: no key string per lookup. */
  readonly #books = new Map<string, Map<string, BookFair>>();

  constructor(recorded: RecordedMarket) {
    this.#recorded = recorded;
  }

  bookFair(gameID: string, bookKey: string): BookFair {
    let game = this.#books.get(gameID);
    if (!game) this.#books.set(gameID, (game = new Map()));
    let b = game.get(bookKey);
    if (!b) game.set(bookKey, (b = { gameID, bookKey, last: null, book: null, consensus: null }));
    return b;
  }

  /** Value of a fill at fair now; null without a fair price. */
  now(f: MarkedFill): number | null {
    const p0 = this.fair(f.fair);
    if (p0 === null) return null;
    return this.valueAt(f, p0);
  }

  /** Value of a fill when its book's side 0 wins with probability `p0`. */
  valueAt(f: MarkedFill, p0: number): number {
    return valueAt(f.side === 0 ? p0 : 1 - p0, f.row);
  }

  /** Win probability of side 0 at the recorded market's consensus; the last one known when the book has none now. */
  fair(b: BookFair): number | null {
    const book = this.#recorded.book(b.gameID, b.bookKey);
    if (book !== b.book) {
      b.book = book;
      b.consensus = consensusFair(book);
    }
    const p0 = b.consensus;
    if (p0 !== null) b.last = p0;
    return p0 ?? b.last;
  }
}
