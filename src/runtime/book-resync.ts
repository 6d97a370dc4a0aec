import type { Logger } from 'pino';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { MarketModel } from '../market-model/market-model.ts';
import type { OrderbookGame } from '../exchange/schemas/exchange.ts';
import { RESYNC, type HaltReason } from './halt-reason.ts';
import type { StrategyInstance } from './strategy-instance.ts';
import type { Venue } from './venue.ts';

/** Wait before reading the books again after a failed read, runtime-clock ms. */
const RESYNC_RETRY_MS = 1_000;

/** The leagues the strategies watch, or null when one watches every league. */
export function leaguesOf(strategies: readonly StrategyInstance[]): string[] | null {
  const out = new Set<string>();
  for (const s of strategies) {
    if (s.interest.leagues.length === 0) return null;
    for (const l of s.interest.leagues) out.add(l);
  }
  return [...out];
}

/** The books of those leagues over REST (null: every league). Async, so a read that throws at once is a rejection like any other failed read. */
export async function readOrderbook(
  rest: Pick<Venue['rest'], 'getOrderbook'>,
  leagues: readonly string[] | null,
): Promise<OrderbookGame[]> {
  return leagues === null
    ? rest.getOrderbook({ league: 'all' })
    : (await Promise.all(leagues.map((l) => rest.getOrderbook({ league: l })))).flat();
}

/** What a resync of the books does to the rest of the runtime. */
export interface BookResyncHost<E> {
  readonly market: MarketModel;
  readonly rest: Pick<Venue['rest'], 'getOrderbook'>;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  readonly leagues: readonly string[] | null;
  halt(reason: HaltReason): void;
  resume(reason: HaltReason): void;
  /** Whether a clean stop has begun: no new read starts then. */
  stopping(): boolean;
  /** The read's answer (null: it failed), into the loop. */
  deliver(games: readonly OrderbookGame[] | null): void;
  /** The price events held during the read, back at the head of the loop's queue. */
  requeue(held: E[]): void;
  /** A game read again: its strategies look at it. */
  markGame(gameID: string): void;
  /** A game that left the board while the feed was down: its orders go. */
  cancelGame(gameID: string): void;
}

/**
 * The books read again over REST after the price feed reconnected: the price connection the
 * books were last read for, the read under way with the price events held meanwhile, and
 * the retry of a failed read waiting on the scheduler.
 */
export class BookResync<E> {
  readonly #h: BookResyncHost<E>;
  /** The price socket's connection the books were read for (0: before the first). */
  #connection = 0;
  /** A read of the books after a price-feed reconnect, and the price events held until it is in. */
  #read: { readonly held: E[]; again: boolean } | null = null;
  /** The retry of a failed read of the books, waiting on the scheduler. */
  #retry: Subscription | null = null;

  constructor(host: BookResyncHost<E>) {
    this.#h = host;
  }

  /** The price connection the books were last read for. */
  get connection(): number {
    return this.#connection;
  }

  /**
   * The price socket is open on `connection`. The first connection is start-up's, which
   * reads the books itself, and so does one made during start-up (start() reads again once
   * its held events are in); a later one is a reconnect, and the books are read again.
   */
  priceOpen(connection: number, startingUp: boolean): void {
    if (connection === this.#connection) return;
    const reconnected = this.#connection !== 0;
    this.#connection = connection;
    if (reconnected && !startingUp) this.begin();
  }

  /** A read is under way: price events are held. */
  get holding(): boolean {
    return this.#read !== null;
  }

  /** Hold a price event while a read is under way (false: none is, and the event goes on). */
  hold(e: E): boolean {
    if (!this.#read) return false;
    this.#read.held.push(e);
    return true;
  }

  /**
   * The price feed came back: whatever changed while it was down never reaches us as an
   * update (the feed only sends changes), so a side that moved then would stay stale until
   * it moves again, and quotes would be priced off it. Halted, the books are read again over
   * REST, with the feed's events held meanwhile and applied on top, as at start-up.
   */
  begin(delayMs = 0): void {
    const h = this.#h;
    if (h.stopping()) return;
    h.halt(RESYNC);
    if (this.#read) {
      this.#read.again = true;
      return;
    }
    this.#read = { held: [], again: false };
    const read = () => {
      this.#retry = null;
      readOrderbook(h.rest, h.leagues).then(
        (games) => h.deliver(games),
        (err: unknown) => {
          h.logger.warn({ err }, 'reading the books after a price feed reconnect failed; trying again');
          h.deliver(null);
        },
      );
    };
    if (delayMs > 0) this.#retry = h.scheduler.schedule(read, delayMs);
    else read();
  }

  /** The read's answer, in the loop: the books applied, games that left the board ended, the held events requeued. */
  onBooks(games: readonly OrderbookGame[] | null, now: number): void {
    const r = this.#read;
    if (!r) return;
    const h = this.#h;
    this.#read = null;
    if (games) {
      for (const g of games) {
        h.market.applySnapshot(g, now);
        h.markGame(g.id);
      }
      const left = this.#leftTheBoard(games);
      for (const id of left) {
        h.market.markEnded(id, now, { inferred: true });
        h.cancelGame(id);
        h.markGame(id);
      }
      h.logger.info(
        { games: games.length, leftTheBoard: left.length, heldFeedEvents: r.held.length },
        'books read again after a price feed reconnect',
      );
    }
    // Next in the loop, each on its own (one that fails is logged, the others still apply):
    // held updates are at least as new as the read, so each side's last one stands.
    h.requeue(r.held);
    if (h.stopping()) return;
    if (games === null || r.again) this.begin(games === null ? RESYNC_RETRY_MS : 0);
    else h.resume(RESYNC);
  }

  /** A retry waiting on the scheduler is dropped: the runtime stopped. */
  stop(): void {
    this.#retry?.unsubscribe();
  }

  /**
   * Games the model holds as on the board, in the leagues read, that the answer no longer
   * lists: the board lists every game until it ends, so these ended while the feed was down,
   * and their gameUpdate was lost with it. Left as they were, they would be quoted again,
   * and every order refused.
   */
  #leftTheBoard(games: readonly OrderbookGame[]): string[] {
    const market = this.#h.market;
    const leagues = this.#h.leagues;
    const listed = new Set(games.map((g) => g.id));
    const read = leagues === null ? null : new Set(leagues.map((l) => l.toLowerCase()));
    const out: string[] = [];
    for (const g of market.identities()) {
      if (listed.has(g.id) || (read !== null && !read.has(g.league.toLowerCase()))) continue;
      if (market.game(g.id)?.ended === false) out.push(g.id);
    }
    return out;
  }
}
