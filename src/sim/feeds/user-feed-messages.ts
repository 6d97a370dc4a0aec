import type { EngineEvent, EngineGame, Fill, FillSide, OrderView, WireSelection } from '../../engine/types.ts';
import { iso } from '../render/time.ts';

/** A fill from the receiver's perspective (feeds-and-semantics §5). */
export interface WireFeedMatched {
  txID: string;
  orderID: string;
  wagerRequestID: string;
  amount: number;
  risk: number;
  win: number;
  odds: number;
  type: string;
  side: string;
  /** Spread or total only: omitted on moneylines (feeds §8). */
  number?: number;
  market?: string;
  userReference: string | null;
  isPostArb?: true;
}

/** A resting order, maker view. */
export interface WireFeedUnmatched {
  orderID: string;
  wagerRequestID: string;
  filled: number;
  offered: number;
  remaining: number;
  odds: number;
  type: string;
  side: string;
  /** Spread or total only: omitted on moneylines (feeds §8). */
  number?: number;
  market?: string;
  userReference?: string;
  isPostArb?: true;
}

/** One user-feed message (one envelope per event). */
export interface UserFeedMessage {
  matched: WireFeedMatched | null;
  unmatched: WireFeedUnmatched | null;
  origin: 'offer' | 'wager';
  gameID: string;
  parentGameID: string | null;
  eventName: string;
  league: string;
  sport: string;
  live: boolean;
  start: string | null;
  awayRotationNumber: string | null;
  platform: string;
  createdAt: string;
  messageID: string;
}

export const USER_FEED_PLATFORM = 'api';

function withSelection<T extends object>(
  out: T,
  wire: WireSelection,
): T & { type: string; side: string; number?: number; market?: string } {
  const o = out as T & { type: string; side: string; number?: number; market?: string };
  o.type = wire.type;
  o.side = wire.side;
  if (wire.number !== null) o.number = wire.number;
  if (wire.market !== undefined) o.market = wire.market;
  return o;
}

/**
 * `s`'s side of a fill. `orderID` is always the resting order that was hit (feeds §8): the
 * maker's own order for the maker, and for the taker the order it took, not its own (the
 * taker knows its own by `wagerRequestID` and `userReference`).
 */
function matchedOf(txID: string, restingOrderID: string, s: FillSide, isPostArb: boolean): WireFeedMatched {
  const m = withSelection(
    {
      txID,
      orderID: restingOrderID,
      wagerRequestID: s.wagerRequestID,
      amount: s.money.amount,
      risk: s.money.risk,
      win: s.money.win,
      odds: s.money.odds,
    },
    s.wire,
  ) as WireFeedMatched;
  m.userReference = s.userReference;
  if (isPostArb) m.isPostArb = true;
  return m;
}

/** The amounts as arguments, not an object spread in: every message of every order makes one. */
function unmatchedOf(o: OrderView, filled: number, offered: number, remaining: number): WireFeedUnmatched {
  const u = withSelection(
    { orderID: o.id, wagerRequestID: o.wagerRequestID, filled, offered, remaining, odds: o.odds },
    o.wire,
  ) as WireFeedUnmatched;
  if (o.userReference !== null) u.userReference = o.userReference;
  if (o.isPostArb) u.isPostArb = true;
  return u;
}

/** One user-feed message before its envelope: whom it is for, and what happened. */
export interface UserFeedItem {
  readonly userId: string;
  readonly gameID: string;
  readonly matched: WireFeedMatched | null;
  readonly unmatched: WireFeedUnmatched | null;
  readonly origin: 'offer' | 'wager';
}

/**
 * The user-feed messages an engine event makes, one per receiving user (feeds-and-semantics
 * §5). Shared by the simulator's socket and the backtester's simulated venue; `forUser`, when
 * given, keeps only that user's (a fill's other side is then not built at all).
 */
export function userFeedItems(e: EngineEvent, forUser?: string): UserFeedItem[] {
  switch (e.kind) {
    case 'orderPlaced': {
      const o = e.order;
      // Placed: filled 0; offered the order's stake; remaining what rests (less when the
      // order took liquidity first), so offered − remaining is what matched so far.
      return [
        {
          userId: o.userId,
          gameID: o.gameID,
          matched: null,
          unmatched: unmatchedOf(o, 0, o.bet, o.remaining),
          origin: 'offer',
        },
      ];
    }
    case 'orderCancelled':
    case 'orderExpired': {
      const o = e.order;
      return [
        {
          userId: o.userId,
          gameID: o.gameID,
          matched: null,
          unmatched: unmatchedOf(o, o.filled, 0, 0),
          origin: 'offer',
        },
      ];
    }
    case 'fill':
      return forUser === undefined ? fillItems(e.fill) : fillItemsFor(e.fill, forUser);
    default:
      return [];
  }
}

function fillItems(f: Fill): UserFeedItem[] {
  return [takerItem(f), makerItem(f)];
}

/** fillItems' items of one user, in the same order. */
function fillItemsFor(f: Fill, userId: string): UserFeedItem[] {
  const out: UserFeedItem[] = [];
  if (f.taker.userId === userId) out.push(takerItem(f));
  if (f.maker.userId === userId) out.push(makerItem(f));
  return out;
}

function takerItem(f: Fill): UserFeedItem {
  return {
    userId: f.taker.userId,
    gameID: f.gameID,
    matched: matchedOf(f.txID, f.maker.orderID, f.taker, f.isPostArb),
    unmatched: null,
    origin: 'wager',
  };
}

function makerItem(f: Fill): UserFeedItem {
  const after = f.makerOrderAfter;
  return {
    userId: f.maker.userId,
    gameID: f.gameID,
    matched: matchedOf(f.txID, f.maker.orderID, f.maker, after.isPostArb),
    // `filled` is what this event alone matched (the maker's risk, which is its amount).
    unmatched: unmatchedOf(after, f.maker.money.amount, after.bet, after.remaining),
    origin: 'offer',
  };
}

/** The full message of an item, with the game's fields and its id. */
export function userFeedMessage(
  item: UserFeedItem,
  game: EngineGame | undefined,
  now: number,
  messageID: string,
): UserFeedMessage {
  return {
    matched: item.matched,
    unmatched: item.unmatched,
    origin: item.origin,
    gameID: item.gameID,
    parentGameID: game?.parentGameID ?? null,
    eventName: game ? (game.eventName ?? `${game.participants[0].longName} @ ${game.participants[1].longName}`) : '',
    league: game?.league ?? '',
    sport: game?.sport ?? '',
    live: game?.live ?? false,
    start: game ? iso(game.start) : null,
    awayRotationNumber: game?.participants[0].rotationNumber ?? null,
    platform: USER_FEED_PLATFORM,
    createdAt: iso(now),
    messageID,
  };
}
