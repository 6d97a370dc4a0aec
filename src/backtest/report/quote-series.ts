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
  readonly rows: QuoteRow[];
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

/**
 * Our quotes against the recorded market, sampled: for each book with an open order of ours,
 * our best listed odds of each side and the recorded market's best price still available to
 * a taker of that side.
 */
export class QuoteSeries {
  /** By game, then book key: two lookups and no key string per order. */
  readonly #byGame = new Map<string, Map<string, QuoteBook>>();
  readonly #books: QuoteBook[] = [];
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
      if (b.rows.length === 0) this.#books.push(b);
      b.rows.push([t, b.odds0, m0, b.odds1, m1]);
    }
  }
}

/** The recorded market's best price still available to a taker of the side (after what we took). */
function bestAvailable(side: BookSide, recorded: RecordedMarket): number | null {
  for (const x of side.offers) if (recorded.available(x) > 0) return x.odds;
  return null;
}
