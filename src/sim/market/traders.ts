import type { MatchingEngine } from '../../engine/engine.ts';
import type { ListedOrder, OrderType, PlaceEntry, PlaceInput } from '../../engine/types.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../../markets/types.ts';
import { fromProbability, payout, type AmericanOdds } from '../../odds/american.ts';
import type { Random } from '../../shared/random.ts';
import type { Counters, TradableGame, Target } from './types.ts';

/**
 * The synthetic population. Every trader acts in-process on the engine (no HTTP), with
 * its own seeded random stream, so a seed replays the same market.
 *
 * Book perspective (feeds-and-semantics §3): a maker backing selection S at implied
 * probability q is listed to takers of the other side at implied 1 − q. A maker quoting
 * fair − margin on every side therefore offers takers fair + margin on every side.
 */

/** Do not quote a side whose fair probability is outside this band (the game is decided). */
const MIN_FAIR = 0.015;
const MAX_FAIR = 0.985;
/** Keep own prices within this band so odds stay sane (±3233). */
const MIN_PRICE = 0.03;
const MAX_PRICE = 0.97;

export interface TraderEnv {
  readonly engine: MatchingEngine;
  readonly counters: Counters;
}

/** A stake between min and max, log-uniform, rounded the way people size bets. */
export function stakeBetween(random: Random, min: number, max: number): number {
  const raw = Math.exp(Math.log(min) + random.float() * (Math.log(max) - Math.log(min)));
  const step = raw < 100 ? 5 : raw < 1000 ? 10 : 50;
  return Math.min(max, Math.max(min, Math.round(raw / step) * step));
}

/** Place input for backing `selection` on a game, in the wire spelling. */
export function placeInputFor(
  engine: MatchingEngine,
  gameID: string,
  selection: Selection,
  odds: AmericanOdds,
  bet: number,
  orderType: OrderType,
  expirationMinutes?: number,
): PlaceInput | null {
  const wire = engine.wireOf(gameID, selection);
  if (!wire) return null;
  return {
    gameID: gameID,
    type: wire.type,
    side: wire.side,
    ...(wire.market !== undefined ? { market: wire.market } : {}),
    ...(wire.number !== null ? { number: wire.number } : {}),
    odds,
    bet,
    orderType,
    ...(expirationMinutes !== undefined ? { expirationMinutes } : {}),
  };
}

/** Best offer a taker backing `selection` can take, and the total stake available at that price. */
export function bestOffer(
  engine: MatchingEngine,
  gameID: string,
  selection: Selection,
): { listed: ListedOrder; depth: number } | null {
  const side = engine.bookSide(gameID, bookKeyOf(selection), sideIndexOf(selection));
  const first = side[0];
  if (!first) return null;
  let depth = 0;
  for (const o of side) {
    if (o.listedOdds !== first.listedOdds) break;
    depth += o.sumUntaken;
  }
  return { listed: first, depth };
}

/** Expected profit per unit staked when backing at `odds` with win probability `p`, after taker commission. */
export function takerEdge(p: number, odds: AmericanOdds, commission: number): number {
  const b = payout(odds);
  return p * b * (1 - commission) - (1 - p) * (1 + commission * Math.min(1, b));
}

function countPlace(entry: PlaceEntry | undefined, counters: Counters): void {
  if (!entry) return;
  if (entry.status === 'error') counters.takerRejected++;
  else if (entry.status === 'delayed') counters.delayedOrders++;
}

interface RestingQuote {
  readonly orderID: string;
  readonly gameID: string;
  /** The maker's own implied probability when posted. */
  readonly q: number;
  readonly live: boolean;
  readonly bet: number;
  /** Kept current from engine events (see `orderChanged`), so a refresh reads no orders. */
  remaining: number;
  open: boolean;
  /** Refresh generation that last confirmed this quote. */
  gen: number;
}

export interface MakerSettings {
  readonly margin: number;
  readonly liveMarginMultiplier: number;
  readonly tolerance: number;
  readonly minSize: number;
  readonly maxSize: number;
  readonly expirationMinutes: number;
}

/**
 * A market maker: one `post` order on every side of every quoted market of every game, at
 * fair − margin (wider in play). On each refresh it keeps quotes that are still open, not
 * mostly filled and within tolerance of where it would quote now; it cancels and re-posts
 * the rest in one batch. Fills, expiries and cancels reach it through `orderChanged`.
 */
export class Maker {
  /** Quotes by game, then by target key. */
  readonly #quotes = new Map<string, Map<string, RestingQuote>>();
  readonly #byOrder = new Map<string, RestingQuote>();
  #gen = 0;

  constructor(
    readonly userId: string,
    private readonly env: TraderEnv,
    private readonly random: Random,
    private readonly settings: MakerSettings,
  ) {}

  /** An order of this maker was filled, cancelled or expired (engine event). */
  orderChanged(order: { readonly id: string; readonly status: string; readonly remaining: number }): void {
    const quote = this.#byOrder.get(order.id);
    if (!quote) return;
    quote.remaining = order.remaining;
    quote.open = order.status === 'open';
    if (!quote.open) this.#byOrder.delete(order.id);
  }

  /** Games forget their quotes when they end (the engine expired the orders). */
  forget(gameID: string): void {
    const book = this.#quotes.get(gameID);
    if (!book) return;
    for (const q of book.values()) this.#byOrder.delete(q.orderID);
    this.#quotes.delete(gameID);
  }

  /** Number of quotes the maker has resting. */
  get quoteCount(): number {
    return this.#byOrder.size;
  }

  refresh(games: Iterable<TradableGame>): void {
    const { engine, counters } = this.env;
    const s = this.settings;
    const gen = ++this.#gen;
    const cancels: string[] = [];
    const posts: { gameID: string; key: string; q: number; live: boolean; input: PlaceInput; bet: number }[] = [];
    const drop = (book: Map<string, RestingQuote>, key: string, cur: RestingQuote): void => {
      if (cur.open) cancels.push(cur.orderID);
      this.#byOrder.delete(cur.orderID);
      book.delete(key);
    };
    for (const g of games) {
      if (g.phase === 'ended') continue;
      let book = this.#quotes.get(g.id);
      if (!book) this.#quotes.set(g.id, (book = new Map()));
      const live = g.phase === 'live';
      // In play quotes are wider, and so is the move that makes them worth replacing.
      const widen = live ? s.liveMarginMultiplier : 1;
      const margin = s.margin * widen;
      const tolerance = s.tolerance * widen;
      for (const t of g.targets()) {
        const cur = book.get(t.key);
        const q = t.p - margin;
        if (t.p < MIN_FAIR || t.p > MAX_FAIR || q < MIN_PRICE) continue; // unconfirmed: cancelled below
        if (cur) {
          if (cur.open && cur.live === live && Math.abs(cur.q - q) <= tolerance && cur.remaining >= 0.3 * cur.bet) {
            cur.gen = gen;
            continue;
          }
          drop(book, t.key, cur);
        }
        const bet = stakeBetween(this.random, s.minSize, s.maxSize);
        const input = placeInputFor(
          engine,
          g.id,
          t.selection,
          fromProbability(Math.min(MAX_PRICE, q), 'lower-payout'),
          bet,
          'post',
          s.expirationMinutes,
        );
        if (input) posts.push({ gameID: g.id, key: t.key, q, live, input, bet });
      }
      for (const [key, cur] of book) if (cur.gen !== gen) drop(book, key, cur); // no longer quoted (line moved, game decided)
    }
    if (cancels.length > 0) {
      for (const c of engine.cancelMany(this.userId, cancels)) if (c.success) counters.quotesCancelled++;
    }
    if (posts.length === 0) return;
    const results = engine.place(
      this.userId,
      posts.map((p) => p.input),
    );
    results.forEach((r, i) => {
      const p = posts[i]!;
      if (r.status === 'ok' && r.unmatched) {
        counters.quotesPosted++;
        const quote: RestingQuote = {
          orderID: r.unmatched.orderID,
          gameID: p.gameID,
          q: p.q,
          live: p.live,
          bet: p.bet,
          remaining: r.unmatched.offered,
          open: true,
          gen,
        };
        this.#quotes.get(p.gameID)?.set(p.key, quote);
        this.#byOrder.set(quote.orderID, quote);
      } else {
        counters.quotesRejected++;
      }
    });
  }
}

export interface NoiseSettings {
  readonly minSize: number;
  readonly maxSize: number;
  readonly fillAndKillShare: number;
  readonly expirationMinutes: number;
}

/**
 * A noise taker: backs a random side of a random market, hitting the best offer with
 * `fillAndKill`, or sending a `limit` at that price (or, on an empty side, a little worse
 * than fair) whose remainder rests until it expires.
 */
export class NoiseTaker {
  constructor(
    readonly userId: string,
    private readonly env: TraderEnv,
    private readonly random: Random,
    private readonly settings: NoiseSettings,
  ) {}

  act(game: TradableGame): void {
    const targets = game.targets();
    if (targets.length === 0 || game.phase === 'ended') return;
    const { engine, counters } = this.env;
    const t = this.random.pick(targets);
    if (t.p < MIN_FAIR || t.p > MAX_FAIR) return;
    const fak = this.random.chance(this.settings.fillAndKillShare);
    const best = bestOffer(engine, game.id, t.selection);
    let odds: AmericanOdds;
    if (best) odds = best.listed.listedOdds;
    else if (fak) return;
    else
      odds = fromProbability(
        Math.min(MAX_PRICE, Math.max(MIN_PRICE, t.p + 0.03 + 0.04 * this.random.float())),
        'lower-payout',
      );
    const bet = stakeBetween(this.random, this.settings.minSize, this.settings.maxSize);
    const input = placeInputFor(
      engine,
      game.id,
      t.selection,
      odds,
      bet,
      fak ? 'fillAndKill' : 'limit',
      fak ? undefined : this.settings.expirationMinutes,
    );
    if (!input) return;
    counters.noiseOrders++;
    countPlace(engine.place(this.userId, [input])[0], counters);
  }
}

export interface InformedSettings {
  readonly threshold: number;
  readonly minSize: number;
  readonly maxSize: number;
}

/**
 * An informed taker: knows the current fair probabilities, scans a few games and picks off
 * the single best offer whose expected profit after commission beats the threshold — a
 * stale quote left behind by a price move — with `fillAndKill` at that price.
 */
export class InformedTaker {
  constructor(
    readonly userId: string,
    private readonly env: TraderEnv,
    private readonly random: Random,
    private readonly settings: InformedSettings,
    private readonly commission: number,
  ) {}

  act(games: readonly TradableGame[]): void {
    const { engine, counters } = this.env;
    let pick: { game: TradableGame; target: Target; odds: AmericanOdds; depth: number; edge: number } | null = null;
    for (const g of games) {
      if (g.phase === 'ended') continue;
      for (const t of g.targets()) {
        const best = bestOffer(engine, g.id, t.selection);
        if (!best) continue;
        const edge = takerEdge(t.p, best.listed.listedOdds, this.commission);
        if (edge > this.settings.threshold && (!pick || edge > pick.edge)) {
          pick = { game: g, target: t, odds: best.listed.listedOdds, depth: best.depth, edge };
        }
      }
    }
    if (!pick) return;
    const wanted = stakeBetween(this.random, this.settings.minSize, this.settings.maxSize);
    const bet = Math.floor(Math.min(wanted, pick.depth) * 100) / 100;
    if (bet < 1) return;
    const input = placeInputFor(engine, pick.game.id, pick.target.selection, pick.odds, bet, 'fillAndKill');
    if (!input) return;
    counters.informedOrders++;
    countPlace(engine.place(this.userId, [input])[0], counters);
  }
}
