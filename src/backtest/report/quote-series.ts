import type { BookSide } from '../../market-model/types.ts';
import type { OrderView } from '../../engine/types.ts';
import { sideIndexOf } from '../../markets/types.ts';
import { invertOdds, oddsRank } from '../../odds/american.ts';
import type { RecordedMarket } from '../venue/recorded-market.ts';

/** One row per sample: [t, our best listed odds of side 0, the market's, ours of side 1, the market's]. */
export type QuoteRow = (number | null)[];

/** A book we quoted on, with its rows; kept across samples so a sample allocates no bookkeeping. */
export interface QuoteBook {
  /** `gameID|bookKey`: the key the report sorts and counts fills by. */
  readonly key: string;
  readonly gameID: string;
  readonly bookKey: string;
  rows: QuoteRow[];
  /** Our fills on the book: the first key the report ranks books by. */
  fills: number;
  /** Virtual time of its last row or fill: a book quiet long enough on a game that ended changes no more. */
  lastAt: number;
  /** Its rank is final and below the books the report keeps: its rows are gone, it is out of `books`. */
  dropped: boolean;
  /** The sample that last saw an order of ours on the book: the odds below belong to it. */
  seen: number;
  odds0: number | null;
  /** oddsRank(odds0), kept so each order is ranked once. */
  rank0: number;
  odds1: number | null;
  rank1: number;
}

/** An open order of ours as the quote series reads it: its book and what it lists, worked out once. */
export interface QuotedOrder<G = unknown> {
  readonly book: QuoteBook;
  /** The caller's record of the order's game, carried so one object per order serves both. */
  readonly game: G;
  /** The side takers see it on: an order backing side 0 is listed to takers of side 1. */
  readonly listedSide: 0 | 1;
  /** Its odds as listed (inverted), and their oddsRank. */
  readonly listedOdds: number;
  readonly listedRank: number;
}

/** The report's order of books: most fills, then most rows, then by key. */
export function quoteBookOrder(x: QuoteBook, y: QuoteBook): number {
  return y.fills - x.fills || y.rows.length - x.rows.length || (x.key < y.key ? -1 : 1);
}

/**
 * How long after its last row or fill a book of a game that ended is taken as done: longer
 * than any order of ours still in flight (latency, live delay) can take to reach the book.
 */
export const QUOTE_BOOK_SETTLE_MS = 60_000;

/**
 * Our quotes against the recorded market, sampled: for each book with an open order of ours,
 * our best listed odds of each side and the recorded market's best price still available to
 * a taker of that side.
 *
 * The report keeps the rows of only the first `kept` books in quoteBookOrder. A book whose
 * game ended and that has been quiet since changes rank no more: once `kept` such books rank
 * above it, it can never be among the kept, and its rows are dropped. The rows held are
 * those of the books still quoted and the `kept` best of the done ones, not one row per book
 * and sample of the whole recording.
 */
export class QuoteSeries {
  /** By game, then book key: two lookups and no key string per order. */
  readonly #byGame = new Map<string, Map<string, QuoteBook>>();
  #books: QuoteBook[] = [];
  readonly #kept: number;
  /** The done books still kept, in quoteBookOrder (at most `kept`). */
  #done: QuoteBook[] = [];
  readonly #isDone = new Set<QuoteBook>();

  constructor(kept: number = Number.POSITIVE_INFINITY) {
    this.#kept = kept;
  }

  /** A fill of ours on the book, at virtual time `t`. */
  fill(gameID: string, bookKey: string, t: number): void {
    const b = this.#book(gameID, bookKey);
    b.fills++;
    b.lastAt = t;
  }

  /**
   * Drops the rows of books that can no longer be among the kept: quiet for
   * QUOTE_BOOK_SETTLE_MS at `now` on a game that `ended`, with `kept` done books ranked above.
   */
  retire(now: number, ended: (gameID: string) => boolean): void {
    let changed = false;
    for (const b of this.#books) {
      if (this.#isDone.has(b) || b.seen === this.#sample || now - b.lastAt < QUOTE_BOOK_SETTLE_MS) continue;
      if (!ended(b.gameID)) continue;
      this.#isDone.add(b);
      this.#done.push(b);
      changed = true;
    }
    if (!changed || this.#done.length <= this.#kept) return;
    this.#done.sort(quoteBookOrder);
    for (const b of this.#done.slice(this.#kept)) {
      b.dropped = true;
      b.rows = [];
      this.#isDone.delete(b);
    }
    this.#done = this.#done.slice(0, this.#kept);
    this.#books = this.#books.filter((b) => !b.dropped);
  }
  /** The books of the current sample, reused from sample to sample. */
  readonly #listed: QuoteBook[] = [];
  #sample = 0;

  /** Every book sampled so far (in the order of its first row), with its rows. */
  get books(): readonly QuoteBook[] {
    return this.#books;
  }

  /** What the series reads of an open order of ours: one object literal, so every order has one shape. */
  quoted<G>(o: OrderView, game: G): QuotedOrder<G> {
    const listedOdds = invertOdds(o.odds);
    return {
      book: this.#book(o.gameID, o.bookKey),
      game,
      listedSide: sideIndexOf(o.selection) === 0 ? 1 : 0,
      listedOdds,
      listedRank: oddsRank(listedOdds),
    };
  }

  #book(gameID: string, bookKey: string): QuoteBook {
    let game = this.#byGame.get(gameID);
    if (!game) this.#byGame.set(gameID, (game = new Map()));
    let b = game.get(bookKey);
    if (!b) {
      b = {
        key: `${gameID}|${bookKey}`,
        gameID,
        bookKey,
        rows: [],
        fills: 0,
        lastAt: 0,
        dropped: false,
        seen: 0,
        odds0: null,
        rank0: 0,
        odds1: null,
        rank1: 0,
      };
      game.set(bookKey, b);
    }
    return b;
  }

  /** One row for each book with an open order of ours, `open` oldest first. */
  sample(t: number, open: Iterable<QuotedOrder>, recorded: RecordedMarket): void {
    const stamp = ++this.#sample;
    const listed = this.#listed;
    listed.length = 0;
    for (const o of open) {
      const b = o.book;
      if (b.seen !== stamp) {
        b.seen = stamp;
        b.odds0 = null;
        b.odds1 = null;
        listed.push(b);
      }
      if (o.listedSide === 1) {
        if (b.odds1 === null || o.listedRank > b.rank1) {
          b.odds1 = o.listedOdds;
          b.rank1 = o.listedRank;
        }
      } else if (b.odds0 === null || o.listedRank > b.rank0) {
        b.odds0 = o.listedOdds;
        b.rank0 = o.listedRank;
      }
    }
    for (const b of listed) {
      const sides = recorded.book(b.gameID, b.bookKey)?.sides;
      const m0 = sides ? bestAvailable(sides[0], recorded) : null;
      const m1 = sides ? bestAvailable(sides[1], recorded) : null;
      // A book enters the series with its first row: one whose orders all closed between samples never does.
      if (b.dropped) continue;
      if (b.rows.length === 0) this.#books.push(b);
      b.rows.push([t, b.odds0, m0, b.odds1, m1]);
      b.lastAt = t;
    }
  }
}

/** The recorded market's best price still available to a taker of the side (after what we took). */
function bestAvailable(side: BookSide, recorded: RecordedMarket): number | null {
  for (const x of side.offers) if (recorded.available(x) > 0) return x.odds;
  return null;
}
