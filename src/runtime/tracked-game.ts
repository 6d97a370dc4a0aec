import type { GameState, MarketBook, Participants } from '../market-model/types.ts';

/** The fields of a game besides its books, each with the bit a read of it sets. */
export const GAME_FIELDS = [
  'id',
  'league',
  'sport',
  'parentGameID',
  'start',
  'live',
  'ended',
  'participants',
  'mainHomeSpread',
  'mainTotal',
  'matchedVolume',
  'updatedAt',
] as const;
export type GameField = (typeof GAME_FIELDS)[number];
/** The bit of `TrackedGame.fields` a read of `f` sets. */
export const fieldBit = (f: GameField): number => 1 << GAME_FIELDS.indexOf(f);
const bit = fieldBit;

/**
 * A game snapshot handed to a strategy that notes what the strategy read of it: which of
 * its fields, and which books by key (or the whole map, when it was walked or sized). What
 * it read is what its quotes can depend on, so the runtime asks it again only when one of
 * those changed. Reads go to the snapshot it wraps, which never changes.
 */
export class TrackedGame implements GameState {
  readonly #g: GameState;
  /** Bits of GAME_FIELDS read. */
  fields = 0;
  #books: TrackedBooks | null = null;

  constructor(game: GameState) {
    this.#g = game;
  }

  /** The snapshot read. */
  get snapshot(): GameState {
    return this.#g;
  }

  /** What was read of the books (null: the books were not read at all). */
  get booksRead(): TrackedBooks | null {
    return this.#books;
  }

  get id(): string {
    this.fields |= ID;
    return this.#g.id;
  }
  get league(): string {
    this.fields |= LEAGUE;
    return this.#g.league;
  }
  get sport(): string {
    this.fields |= SPORT;
    return this.#g.sport;
  }
  get parentGameID(): string | null {
    this.fields |= PARENT;
    return this.#g.parentGameID;
  }
  get start(): number {
    this.fields |= START;
    return this.#g.start;
  }
  get live(): boolean {
    this.fields |= LIVE;
    return this.#g.live;
  }
  get ended(): boolean {
    this.fields |= ENDED;
    return this.#g.ended;
  }
  get participants(): Participants {
    this.fields |= PARTICIPANTS;
    return this.#g.participants;
  }
  get mainHomeSpread(): number | null {
    this.fields |= SPREAD;
    return this.#g.mainHomeSpread;
  }
  get mainTotal(): number | null {
    this.fields |= TOTAL;
    return this.#g.mainTotal;
  }
  get matchedVolume(): number {
    this.fields |= VOLUME;
    return this.#g.matchedVolume;
  }
  get updatedAt(): number {
    this.fields |= UPDATED;
    return this.#g.updatedAt;
  }
  get books(): ReadonlyMap<string, MarketBook> {
    return (this.#books ??= new TrackedBooks(this.#g.books));
  }
}

const ID = bit('id');
const LEAGUE = bit('league');
const SPORT = bit('sport');
const PARENT = bit('parentGameID');
const START = bit('start');
const LIVE = bit('live');
const ENDED = bit('ended');
const PARTICIPANTS = bit('participants');
const SPREAD = bit('mainHomeSpread');
const TOTAL = bit('mainTotal');
const VOLUME = bit('matchedVolume');
const UPDATED = bit('updatedAt');

/**
 * A game's map of books that notes the keys looked up, and whether the whole map was read.
 * Once the whole map was read, lookups are not noted: the map compared whole answers for
 * every key, listed or not (a strategy that walks every book and then looks each one up
 * would otherwise note, and search, each key once per book).
 */
export class TrackedBooks implements ReadonlyMap<string, MarketBook> {
  readonly #m: ReadonlyMap<string, MarketBook>;
  /**
   * Keys looked up (get or has) before the whole map was read, each once, in the order first
   * asked, and the book each found (null: none looked up; a strategy that walks the map looks up none).
   */
  looked: string[] | null = null;
  found: (MarketBook | undefined)[] | null = null;
  /** The whole map was read: its size, or a walk over it. */
  all = false;

  constructor(m: ReadonlyMap<string, MarketBook>) {
    this.#m = m;
  }

  /** The map read. */
  get map(): ReadonlyMap<string, MarketBook> {
    return this.#m;
  }

  get(key: string): MarketBook | undefined {
    const b = this.#m.get(key);
    if (this.all) return b;
    if (this.looked === null) {
      this.looked = [key];
      this.found = [b];
    } else if (!this.looked.includes(key)) {
      this.looked.push(key);
      this.found!.push(b);
    }
    return b;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get size(): number {
    this.all = true;
    return this.#m.size;
  }

  forEach(fn: (value: MarketBook, key: string, map: ReadonlyMap<string, MarketBook>) => void, thisArg?: unknown): void {
    this.all = true;
    this.#m.forEach((v, k) => fn.call(thisArg, v, k, this));
  }

  entries(): MapIterator<[string, MarketBook]> {
    this.all = true;
    return this.#m.entries();
  }

  keys(): MapIterator<string> {
    this.all = true;
    return this.#m.keys();
  }

  values(): MapIterator<MarketBook> {
    this.all = true;
    return this.#m.values();
  }

  [Symbol.iterator](): MapIterator<[string, MarketBook]> {
    this.all = true;
    return this.#m[Symbol.iterator]();
  }
}
