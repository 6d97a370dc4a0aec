import type {
  BookSide,
  GameState,
  ListedOffer,
  MarketBook,
  OwnOrder,
  StrategyView,
  TradingMode,
} from '../../src/market-model/types.ts';
import { bookKeyOf, oppositeSelection, sideIndexOf, type Selection } from '../../src/markets/types.ts';
import { worstCaseLiability } from '../../src/money/liability.ts';
import type { Position } from '../../src/money/position.ts';
import { impliedProbability, invertOdds, oddsRank, payout } from '../../src/odds/american.ts';
import { selectionsOfKey } from '../../src/strategy/markets.ts';

/** Hand-built strategy views: books in the taker perspective, as the book model lists them. */

export const GAME_ID = 'g1';

export interface OfferSpec {
  /** Taker odds as listed. */
  readonly odds: number;
  /** Most a taker can stake. */
  readonly size: number;
  readonly mine?: boolean;
  readonly id?: string;
  readonly isPostArb?: boolean;
}

let seq = 0;

export function offer(odds: number, size: number, extra: Partial<OfferSpec> = {}): OfferSpec {
  return { odds, size, ...extra };
}

function listed(spec: OfferSpec): ListedOffer {
  return {
    id: spec.id ?? `o${++seq}`,
    odds: spec.odds,
    sumUntaken: spec.size,
    // The maker risks what a taker's full stake would win from them at the maker's odds.
    bet: spec.size / payout(invertOdds(spec.odds)),
    isPostArb: spec.isPostArb ?? false,
    mine: spec.mine ?? false,
  };
}

/** A side with offers sorted the way the book lists them: best taker price first, then as given. */
export function side(taker: Selection, offers: readonly OfferSpec[]): BookSide {
  const sorted = offers.map(listed).sort((a, b) => oddsRank(b.odds) - oddsRank(a.odds));
  return { taker, offers: sorted, epoch: 0 };
}

/** A book by key: side 0 lists what takers of home / over / yes can take, side 1 the rest. */
export function book(key: string, side0: readonly OfferSpec[], side1: readonly OfferSpec[]): MarketBook {
  const sels = selectionsOfKey(key);
  if (sels === null) throw new Error(`bad key ${key}`);
  return { key, type: sels[0].type, sides: [side(sels[0], side0), side(sels[1], side1)] };
}

export function game(books: readonly MarketBook[], extra: Partial<GameState> = {}): GameState {
  return {
    id: GAME_ID,
    league: 'NBA',
    sport: 'basketball',
    parentGameID: null,
    start: 0,
    live: false,
    ended: false,
    participants: { awayId: 'A', homeId: 'H', awayName: 'Away', homeName: 'Home' },
    mainHomeSpread: null,
    mainTotal: null,
    matchedVolume: 0,
    books: new Map(books.map((b) => [b.key, b])),
    updatedAt: 0,
    ...extra,
  };
}

export interface ViewSpec {
  readonly books?: readonly MarketBook[];
  readonly game?: Partial<GameState>;
  readonly positions?: readonly Position[];
  readonly orders?: readonly OwnOrder[];
  readonly mode?: TradingMode;
  readonly fair?: Readonly<Record<string, number>>;
  readonly takerArrivalsPerMinute?: number;
}

export function view(spec: ViewSpec = {}): StrategyView {
  const positions = spec.positions ?? [];
  return {
    now: 1_000,
    game: game(spec.books ?? [], spec.game),
    orders: spec.orders ?? [],
    fills: [],
    positions,
    liability: worstCaseLiability(positions),
    accountLiability: worstCaseLiability(positions),
    mode: spec.mode ?? 'active',
    commissionRate: 0.01,
    activity: { takerArrivalsPerMinute: spec.takerArrivalsPerMinute ?? 0, volumePerMinute: 0 },
    fair: spec.fair ? new Map(Object.entries(spec.fair)) : null,
    refusals: [],
  };
}

/** A matched maker position. */
export function position(selection: Selection, amount: number, odds: number): Position {
  return { selection, amount, odds, commissionRate: 0 };
}

/** One of this strategy's resting orders, as the order manager tracks it. */
export function ownOrder(orderID: string, selection: Selection, odds: number, bet: number): OwnOrder {
  return {
    clientId: `c-${orderID}`,
    userReference: `u-${orderID}`,
    orderID,
    strategyId: 's1',
    intentKey: null,
    gameID: GAME_ID,
    selection,
    odds,
    bet,
    filled: 0,
    remaining: bet,
    status: 'resting',
    isPostArb: false,
    createdAt: 0,
    updatedAt: 0,
  };
}

export const HOME_ML: Selection = { type: 'moneyline', team: 'home' };
export const AWAY_ML: Selection = { type: 'moneyline', team: 'away' };

/** Where our intent would sit on the book: takers of the opposite side see it at invert(odds). */
export function listedAs(selection: Selection, odds: number): { key: string; side: 0 | 1; odds: number } {
  const opp = oppositeSelection(selection);
  return { key: bookKeyOf(opp), side: sideIndexOf(opp), odds: invertOdds(odds) };
}

/** Implied probability of our maker odds: the probability we "buy" the backed side at. */
export const implied = impliedProbability;

/** Freeze a view deeply so a mutating strategy throws in strict mode. */
export function deepFreeze<T>(x: T): T {
  if (x instanceof Map) {
    for (const v of x.values()) deepFreeze(v);
    // Map methods mutate internal slots, which freeze does not stop; replace the mutators.
    const m = x as unknown as Map<unknown, unknown>;
    m.set = () => {
      throw new TypeError('frozen map');
    };
    m.delete = () => {
      throw new TypeError('frozen map');
    };
    m.clear = () => {
      throw new TypeError('frozen map');
    };
  } else if (x !== null && typeof x === 'object') {
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return Object.freeze(x);
}
