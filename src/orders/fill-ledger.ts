import { worstCaseLiability } from '../money/liability.ts';
import type { Position } from '../money/position.ts';
import type { OwnFill, OwnOrder } from '../market-model/types.ts';
import { positionsExtend } from '../strategy/exposure.ts';

/** The commission rate a fill pays: takers only, and not on postArb (makers pay none). */
export function commissionOf(f: OwnFill, rate: number): number {
  return f.origin === 'wager' && !f.isPostArb ? rate : 0;
}

/** The matched position a fill makes at commission rate `rate`. */
export function positionOf(f: OwnFill, rate: number): Position {
  return { selection: f.selection, amount: f.amount, odds: f.odds, commissionRate: commissionOf(f, rate) };
}

/**
 * Risk of one of our orders the exchange said matched that is not booked yet: counted
 * where it loses, as a contingent position, until its fills arrive. Where it wins it counts
 * nothing, so the worst case is never understated.
 */
export interface AwaitedFill {
  readonly amount: number;
  /** What it counts in the worst case: a maker's fill, counted where it loses, made once when set. */
  readonly risk: Position;
  /** When the exchange reported it. */
  readonly since: number;
}

/** What `await` did to an order's awaited fill. */
export type AwaitOutcome = 'set' | 'ended' | 'unchanged';

/** Fills booked since start, by role: counts and stake. */
export interface FillTotals {
  readonly maker: number;
  readonly taker: number;
  readonly makerVolume: number;
  readonly takerVolume: number;
}

/**
 * How far the fills booked for an order may fall short of what the exchange said it
 * matched and still cover it, per fill: REST reads of bets carry 2 decimals, so each is off
 * by up to half a cent (feeds-and-semantics §4: reconcile with a cent of tolerance).
 */
const FILL_TOLERANCE = 0.01;

/** One strategy's (or the whole game's, key undefined) fills on a game, and what they make. */
interface FillView {
  readonly fills: readonly OwnFill[];
  readonly positions: readonly Position[];
  /** The commission rate the positions were made with. */
  readonly rate: number;
  /** How many of the game's fills it has looked at (the first this many): a later view extends it. */
  readonly seen: number;
  /** Their worst case, worked out on first ask. */
  liability: number | null;
}

interface GameFills {
  readonly fills: OwnFill[];
  /**
   * Per strategy id: its fills, positions and worst case, current while their `seen` is the
   * game's fill count. The runtime asks for them on every evaluation, and fills are rare next
   * to evaluations; after a fill the next view extends the last one.
   */
  readonly views: Map<string | null | undefined, FillView>;
  /** Fills the exchange reported on an order (a cancel answer) that no booked fill covers yet, by client id. */
  readonly awaiting: Map<string, AwaitedFill>;
}

const EMPTY_VIEW: FillView = Object.freeze({
  fills: Object.freeze([]),
  positions: Object.freeze([]),
  rate: 0,
  seen: 0,
  liability: 0,
}) as FillView;

const NO_FILLS: readonly OwnFill[] = Object.freeze([]);
const NO_AWAITED: ReadonlyMap<string, AwaitedFill> = new Map();

/**
 * Our fills: each booked once (deduplicated by txID), per game in booking order with the
 * positions they make per strategy, the stake booked per order, and fills the exchange
 * reported matched that are not booked yet (awaited). Games come and go with `openGame` /
 * `forgetGame`; a forgotten game's fills stay booked (`allFills`, `hasFill`).
 */
export class FillLedger {
  readonly #fills = new Map<string, OwnFill>();
  /** Per client id: the stake of the fills booked for the order, and how many. */
  readonly #booked = new Map<string, { amount: number; count: number }>();
  /** How many orders have an awaited fill, over every game. */
  #awaitingCount = 0;
  /** Every fill booked since start, settled games included (never decreases): counts and risk by role. */
  readonly #totals = { maker: 0, taker: 0, makerVolume: 0, takerVolume: 0 };
  readonly #games = new Map<string, GameFills>();
  readonly #commissionRate: () => number;
  /**
   * The view asked for last, with its game's fills and key: asked again at once, most often
   * (a memo's check, then the strategy's read), so it is found without a lookup by game and strategy.
   */
  #last: { view: FillView; fills: readonly OwnFill[]; gameID: string; strategyId: string | null | undefined } | null =
    null;

  constructor(options: { commissionRate: () => number }) {
    this.#commissionRate = options.commissionRate;
  }

  /** Start keeping the game's fills (idempotent). */
  openGame(gameID: string): void {
    this.#game(gameID);
  }

  /** Stop keeping the game's fills per game: they stay booked. */
  forgetGame(gameID: string): void {
    this.#games.delete(gameID);
    this.#last = null;
  }

  hasFill(txID: string): boolean {
    return this.#fills.has(txID);
  }

  /**
   * Record a fill once, counted towards the order `clientId` (undefined for none); false
   * when its txID was already booked. The game must be open.
   */
  book(fill: OwnFill, clientId: string | undefined): boolean {
    if (this.#fills.has(fill.txID)) return false;
    this.#fills.set(fill.txID, fill);
    if (clientId !== undefined) {
      const b = this.#booked.get(clientId);
      if (b) {
        b.amount += fill.amount;
        b.count++;
      } else {
        this.#booked.set(clientId, { amount: fill.amount, count: 1 });
      }
    }
    if (fill.origin === 'offer') {
      this.#totals.maker++;
      this.#totals.makerVolume += fill.amount;
    } else {
      this.#totals.taker++;
      this.#totals.takerVolume += fill.amount;
    }
    this.#game(fill.gameID).fills.push(fill);
    return true;
  }

  /** The stake of the fills booked for the order (0 when none). */
  bookedFor(clientId: string): number {
    return this.#booked.get(clientId)?.amount ?? 0;
  }

  /** The order left the book: its booked stake is no longer looked up. */
  forgetOrder(clientId: string): void {
    this.#booked.delete(clientId);
  }

  /**
   * Set the order's awaited fill to `amount`, or end it once the booked fills cover it
   * within tolerance (a cent per fill and one more). The order's game must be open.
   */
  await(order: OwnOrder, amount: number, since: number): AwaitOutcome {
    const g = this.#game(order.gameID);
    const clientId = order.clientId;
    const prior = g.awaiting.has(clientId);
    const tolerance = FILL_TOLERANCE * ((this.#booked.get(clientId)?.count ?? 0) + 1);
    if (amount > tolerance) {
      g.awaiting.set(clientId, {
        amount,
        risk: { selection: order.selection, amount, odds: order.odds, commissionRate: 0, contingent: true },
        since,
      });
      if (!prior) this.#awaitingCount++;
      return 'set';
    }
    if (!prior) return 'unchanged';
    g.awaiting.delete(clientId);
    this.#awaitingCount--;
    return 'ended';
  }

  /** The order's awaited fill on `gameID`, if any. */
  awaited(gameID: string, clientId: string): AwaitedFill | undefined {
    // Asked for every finished order the store forgets: most of the time none is awaited at all.
    if (this.#awaitingCount === 0) return undefined;
    return this.#games.get(gameID)?.awaiting.get(clientId);
  }

  /** The game's awaited fills by client id, as kept (no copy). */
  awaitedIn(gameID: string): ReadonlyMap<string, AwaitedFill> {
    return this.#games.get(gameID)?.awaiting ?? NO_AWAITED;
  }

  /** When the oldest awaited fill still unbooked was reported; undefined when none is. */
  oldestAwaited(): number | undefined {
    if (this.#awaitingCount === 0) return undefined;
    let oldest: number | undefined;
    for (const g of this.#games.values())
      for (const a of g.awaiting.values()) if (oldest === undefined || a.since < oldest) oldest = a.since;
    return oldest;
  }

  /** Fills booked since start as maker (`offer`) and taker (`wager`), settled games included: only ever grows. */
  totals(): FillTotals {
    return { ...this.#totals };
  }

  /** Every fill booked, of every game (forgotten ones included), in booking order. */
  allFills(): IterableIterator<OwnFill> {
    return this.#fills.values();
  }

  /** The game's fills in booking order, as kept (no copy): only appended to. */
  gameFills(gameID: string): readonly OwnFill[] {
    return this.#games.get(gameID)?.fills ?? NO_FILLS;
  }

  fills(gameID: string, strategyId?: string | null): readonly OwnFill[] {
    return this.#view(gameID, strategyId).fills;
  }

  /** Matched positions (one per fill), optionally of one strategy. */
  positions(gameID: string, strategyId?: string | null): readonly Position[] {
    return this.#view(gameID, strategyId).positions;
  }

  /**
   * Worst-case loss over every score of `positions(gameID, strategyId)` (≤ 0). The whole
   * game's figure (`strategyId` undefined) is the liability cache's, which merges the fills
   * once for every search on the game; this one is for a part of them.
   */
  positionsLiability(gameID: string, strategyId?: string | null): number {
    const v = this.#view(gameID, strategyId);
    return (v.liability ??= v.positions.length === 0 ? 0 : worstCaseLiability(v.positions));
  }

  #view(gameID: string, strategyId: string | null | undefined): FillView {
    const rate = this.#commissionRate();
    const m = this.#last;
    if (
      m !== null &&
      m.gameID === gameID &&
      m.strategyId === strategyId &&
      m.view.rate === rate &&
      m.view.seen === m.fills.length
    )
      return m.view;
    const g = this.#games.get(gameID);
    if (!g) return EMPTY_VIEW;
    const v = this.#viewOf(g, rate, strategyId);
    if (m === null) this.#last = { view: v, fills: g.fills, gameID, strategyId };
    else {
      m.view = v;
      m.fills = g.fills;
      m.gameID = gameID;
      m.strategyId = strategyId;
    }
    return v;
  }

  #viewOf(g: GameFills, rate: number, strategyId: string | null | undefined): FillView {
    const all = g.fills;
    const last = g.views.get(strategyId);
    if (last !== undefined && last.rate === rate && last.seen === all.length) return last;
    // Fills only append: a view of the same rate is extended by the fills since, its
    // positions kept (the same objects, in the same order) and the new ones made.
    const from = last !== undefined && last.rate === rate ? last.seen : 0;
    const fills = from === 0 ? [] : last!.fills.slice();
    const positions = from === 0 ? [] : last!.positions.slice();
    for (let n = from; n < all.length; n++) {
      const f = all[n]!;
      if (strategyId !== undefined && f.strategyId !== strategyId) continue;
      fills.push(f);
      positions.push(positionOf(f, rate));
    }
    // Frozen: the same arrays go to every caller until the next fill.
    Object.freeze(positions);
    if (from > 0) positionsExtend(positions, last!.positions);
    const v: FillView = { fills: Object.freeze(fills), positions, rate, seen: all.length, liability: null };
    g.views.set(strategyId, v);
    return v;
  }

  #game(gameID: string): GameFills {
    let g = this.#games.get(gameID);
    if (g === undefined) this.#games.set(gameID, (g = { fills: [], views: new Map(), awaiting: new Map() }));
    return g;
  }
}
