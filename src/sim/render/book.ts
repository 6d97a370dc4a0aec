import type { MatchingEngine } from '../../engine/engine.ts';
import type { EngineGame, ListedOrder } from '../../engine/types.ts';
import { participantIdOf } from '../../engine/wire.ts';
import type { Selection } from '../../markets/types.ts';
import { iso } from './time.ts';

/**
 * One resting order as a book lists it (exchange-api §2.3, feeds §2 `sideOrders`): in the
 * taker's perspective — `odds` is what a taker gets, `participantID`/`OU`/`side`/`spread`
 * name the side it is listed under — while `bet` is the maker's original risk and
 * `sumUntaken` the most a taker can still stake.
 */
export interface WireBookOrder {
  id: string;
  type: string;
  createdBy?: string;
  sumUntaken: number;
  odds: number;
  bet: number;
  gameID: string;
  takenRatio: number;
  expiry: string | null;
  createdAt: string;
  mockOrder: boolean;
  gameStartExpiry: boolean;
  isPostArb?: boolean;
  /** Null on the price feed for a total (feeds §2); REST listings leave it out there. */
  participantID?: string | null;
  /** Null inside a total's sideOrders on the price feed (feeds §8). */
  spread?: number | null;
  total?: number;
  OU?: 'over' | 'under';
  market?: string;
  /** `yes`/`no` on 1x2; on the price feed also the name of a non-1x2 side (see feedSideLabel). */
  side?: string;
}

/** What a listed side is, in wire terms: the selection a taker on it backs. */
export interface SideLabel {
  readonly participantID: string | null;
  /** null only on the price feed's totals (feedSideLabel). */
  readonly spread?: number | null;
  readonly total?: number;
  readonly OU?: 'over' | 'under';
  readonly market?: string;
  readonly side?: string;
}

export function sideLabel(game: EngineGame, s: Selection): SideLabel {
  switch (s.type) {
    case 'moneyline':
      return { participantID: participantIdOf(game, s.team) };
    case 'spread':
      return { participantID: participantIdOf(game, s.team), spread: s.line };
    case 'total':
      return { participantID: null, total: s.line, OU: s.ou };
    case 'moneyline1x2':
      return {
        participantID: '',
        market: s.outcome === 'draw' ? 'draw' : participantIdOf(game, s.outcome),
        side: s.yes ? 'yes' : 'no',
      };
  }
}

/** The name the exchange gives every market but a 1x2 outcome. */
export const MAIN_MARKET = 'main';

/**
 * A listed side as the price feed labels it (feeds §8): a non-1x2 side also carries the
 * market's name, `main`, and the side's own name, the team (`home`/`away`) a taker backs on a
 * moneyline or spread and `over`/`under` on a total; a total's `spread` is null. A 1x2 side
 * keeps its outcome and `yes`/`no`. The REST orderbooks keep `sideLabel`.
 */
export function feedSideLabel(game: EngineGame, s: Selection): SideLabel {
  const label = sideLabel(game, s);
  switch (s.type) {
    case 'moneyline1x2':
      return label;
    case 'total':
      return { ...label, market: MAIN_MARKET, side: s.ou, spread: null };
    default:
      return { ...label, market: MAIN_MARKET, side: s.team };
  }
}

export interface RenderBookOptions {
  /** Set `createdBy` only on this user's own orders (v2 orderbook); null never sets it. */
  readonly viewerId?: string | null;
  /** v1 and REST carry `isPostArb` as a boolean; the price feed only when true. */
  readonly postArbAlways?: boolean;
  /** Username to show in `createdBy`. */
  readonly usernameOf?: (userId: string) => string;
  /** REST orderbooks: leave `participantID` out where no participant is backed (the published orderbook order has it as a string). */
  readonly omitNullParticipant?: boolean;
}

export function renderBookOrder(
  game: EngineGame,
  label: SideLabel,
  listed: ListedOrder,
  options: RenderBookOptions = {},
): WireBookOrder {
  const o = listed.order;
  const expiryMs = o.expiresAt ?? (o.gameStartExpiry ? game.start : null);
  const out: WireBookOrder = {
    id: o.id,
    type: o.wire.type,
    sumUntaken: listed.sumUntaken,
    odds: listed.listedOdds,
    bet: o.bet,
    gameID: o.gameID,
    takenRatio: o.bet > 0 ? o.filled / o.bet : 0,
    expiry: expiryMs === null ? null : iso(expiryMs),
    createdAt: iso(o.createdAt),
    mockOrder: false,
    gameStartExpiry: o.gameStartExpiry,
  };
  if (label.participantID !== null || !options.omitNullParticipant) out.participantID = label.participantID;
  if (options.postArbAlways) out.isPostArb = o.isPostArb;
  else if (o.isPostArb) out.isPostArb = true;
  if (label.spread !== undefined) out.spread = label.spread;
  if (label.total !== undefined) out.total = label.total;
  if (label.OU !== undefined) out.OU = label.OU;
  if (label.market !== undefined) out.market = label.market;
  if (label.side !== undefined) out.side = label.side;
  if (options.viewerId !== undefined && options.viewerId !== null && o.userId === options.viewerId) {
    out.createdBy = options.usernameOf ? options.usernameOf(o.userId) : o.userId;
  }
  return out;
}

/** Every listed side of a game, each with its label and orders best first. */
export function listedSides(
  engine: MatchingEngine,
  game: EngineGame,
): { bookKey: string; side: 0 | 1; selection: Selection; label: SideLabel; orders: ListedOrder[] }[] {
  const out: { bookKey: string; side: 0 | 1; selection: Selection; label: SideLabel; orders: ListedOrder[] }[] = [];
  for (const book of engine.books(game.id)) {
    for (const side of [0, 1] as const) {
      const selection = book.selections[side];
      out.push({
        bookKey: book.key,
        side,
        selection,
        label: sideLabel(game, selection),
        orders: engine.bookSide(game.id, book.key, side),
      });
    }
  }
  return out;
}
