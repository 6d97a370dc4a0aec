import type { MatchingEngine } from '../../engine/engine.ts';
import type { EngineGame, ListedOrder } from '../../engine/types.ts';
import type { Selection } from '../../markets/types.ts';
import { feedSideLabel, type SideLabel } from '../render/book.ts';
import { chooseMainLines, NO_MAIN_LINES, type LineLiquidity, type MainLines } from '../render/main-lines.ts';

export { NO_MAIN_LINES, type MainLines };

/** One book of a game as the price feed caches it: its side labels (feedSideLabel) and the resting liquidity per side. */
export interface CachedBook {
  readonly key: string;
  readonly selections: readonly [Selection, Selection];
  readonly labels: readonly [SideLabel, SideLabel];
  /** Σ sumUntaken per side (what takers of that side can stake). */
  readonly liquidity: [number, number];
  /** Side whose `liquidity` must be re-read from the engine before use. */
  readonly stale: [boolean, boolean];
}

/**
 * Per-game cache of the price feed: book labels (immutable per book) and resting
 * liquidity, kept current from the side lists the feed reads anyway, so main lines cost a
 * scan of a handful of books rather than of every resting order. Main lines follow the one
 * definition in `render/main-lines.ts` (chooseMainLines), as the v2 orderbook does: the line with the most
 * resting sumUntaken over both sides.
 */
export class GameBooks {
  readonly #books = new Map<string, CachedBook>();
  #main: MainLines = NO_MAIN_LINES;
  #mainDirty = true;

  constructor(
    private readonly engine: MatchingEngine,
    readonly gameID: string,
    game: EngineGame,
  ) {
    for (const b of engine.books(gameID)) this.#add(game, b.key, b.selections);
  }

  book(game: EngineGame, bookKey: string): CachedBook | undefined {
    const hit = this.#books.get(bookKey);
    if (hit) return hit;
    const found = this.engine.books(this.gameID).find((b) => b.key === bookKey);
    return found ? this.#add(game, found.key, found.selections) : undefined;
  }

  /** Record the side's state from a list just read. */
  update(book: CachedBook, side: 0 | 1, listed: readonly ListedOrder[]): void {
    book.liquidity[side] = sumUntaken(listed);
    book.stale[side] = false;
    if (isLined(book)) this.#mainDirty = true;
  }

  /** The side changed but was not read (no subscriber): re-read lazily when main lines need it. */
  invalidate(book: CachedBook, side: 0 | 1): void {
    book.stale[side] = true;
    if (isLined(book)) this.#mainDirty = true;
  }

  mainLines(): MainLines {
    if (!this.#mainDirty) return this.#main;
    const lines: LineLiquidity[] = [];
    for (const b of this.#books.values()) {
      if (!isLined(b)) continue;
      for (const side of [0, 1] as const) {
        if (b.stale[side]) {
          b.liquidity[side] = sumUntaken(this.engine.bookSide(this.gameID, b.key, side));
          b.stale[side] = false;
        }
      }
      // Side 0 of a spread book backs home at its line; of a total book, over at its line.
      const sel = b.selections[0];
      if (sel.type === 'spread' || sel.type === 'total')
        lines.push({ kind: sel.type, line: sel.line, liquidity: b.liquidity[0] + b.liquidity[1] });
    }
    this.#main = chooseMainLines(lines);
    this.#mainDirty = false;
    return this.#main;
  }

  #add(game: EngineGame, key: string, selections: readonly [Selection, Selection]): CachedBook {
    const book: CachedBook = {
      key,
      selections,
      labels: [feedSideLabel(game, selections[0]), feedSideLabel(game, selections[1])],
      liquidity: [0, 0],
      stale: [true, true],
    };
    this.#books.set(key, book);
    this.#mainDirty = true;
    return book;
  }
}

function isLined(b: CachedBook): boolean {
  const t = b.selections[0].type;
  return t === 'spread' || t === 'total';
}

function sumUntaken(listed: readonly ListedOrder[]): number {
  let sum = 0;
  for (const o of listed) sum += o.sumUntaken;
  return sum;
}
