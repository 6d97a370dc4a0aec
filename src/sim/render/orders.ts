import type { MatchingEngine } from '../../engine/engine.ts';
import type { EngineGame, OrderView } from '../../engine/types.ts';
import { participantIdOf } from '../../engine/wire.ts';
import { formatMoney } from '../../money/rounding.ts';
import { renderGame, type WireGame } from './game.ts';
import { iso } from './time.ts';

/** The participant an order backs, with the other one of the game; null for totals and the 1x2 draw. */
function participantsOf(
  game: EngineGame | undefined,
  o: OrderView,
): { backed: string | null; other: string | null; longName: string | null } {
  const s = o.selection;
  const team =
    s.type === 'moneyline' || s.type === 'spread'
      ? s.team
      : s.type === 'moneyline1x2' && s.outcome !== 'draw'
        ? s.outcome
        : null;
  if (team === null) return { backed: null, other: null, longName: s.type === 'moneyline1x2' ? 'Draw' : null };
  if (!game)
    return { backed: s.type === 'moneyline1x2' ? (o.wire.market ?? null) : o.wire.side, other: null, longName: null };
  const otherTeam = team === 'home' ? 'away' : 'home';
  return {
    backed: participantIdOf(game, team),
    other: participantIdOf(game, otherTeam),
    longName: (team === 'home' ? game.participants[1] : game.participants[0]).longName,
  };
}

/** When a resting order stops being offered: its own expiry, else the game start for pre-game orders. */
export function orderExpiry(game: EngineGame | undefined, o: OrderView): string | null {
  const ms = o.expiresAt ?? (o.gameStartExpiry && game ? game.start : null);
  return ms === null ? null : iso(ms);
}

export interface WireLookupOrder {
  id: string;
  cancelled: boolean;
  isTheBestOffer: boolean;
  odds: number;
  type: string;
  OU: 'over' | 'under' | null;
  participant: string | null;
  participantLongName: string | null;
  spread: number | null;
  total: number | null;
  matchedRisk: string;
  unmatchedRisk: string;
  market?: string;
  side?: 'yes' | 'no';
  game: WireGame | null;
}

/**
 * `GET /session/lookupOrder` (exchange-api §2.3, 4.9): the order in its own (maker) view.
 * `OU` is the side it is offered as (the opposite of its own side); `cancelled` is true for
 * an order taken off the book without filling fully (cancelled or expired); `spread` and
 * `total` are null where they do not apply.
 */
export function renderLookupOrder(engine: MatchingEngine, o: OrderView): WireLookupOrder {
  const game = engine.game(o.gameID);
  const s = o.selection;
  const who = participantsOf(game, o);
  const out: WireLookupOrder = {
    id: o.id,
    cancelled: o.status === 'cancelled' || o.status === 'expired',
    isTheBestOffer: engine.isBestOffer(o.id),
    odds: o.odds,
    type: o.wire.type,
    OU: s.type === 'total' ? (s.ou === 'over' ? 'under' : 'over') : null,
    participant: who.backed,
    participantLongName: who.longName,
    spread: s.type === 'spread' ? s.line : null,
    total: s.type === 'total' ? s.line : null,
    matchedRisk: formatMoney(o.filled),
    unmatchedRisk: formatMoney(o.status === 'open' ? o.remaining : 0),
    game: game ? renderGame(game, { withFutures: true }) : null,
  };
  if (s.type === 'moneyline1x2') {
    out.market = o.wire.market ?? 'draw';
    out.side = s.yes ? 'yes' : 'no';
  }
  return out;
}

export interface WireUnmatchedOrder {
  id: string;
  type: string;
  /** Not for a total: the contract's listing names no side there (see totalSidesOf on the client). */
  side?: string;
  market?: string;
  bet: number;
  odds: number;
  spread: number | null;
  total: number | null;
  /** Left out where the order backs no participant (totals, the 1x2 draw): the published listing has it as a string. */
  participantID?: string;
  otherParticipantID?: string;
  expiry: string | null;
  filled: number;
  offered: number;
  remaining: number;
  takenRatio: number;
  createdAt: string;
  /** Left out when the order has none. */
  userReference?: string;
  wagerRequestID: string;
  game: WireGame | null;
}

/**
 * One entry of `GET /user/getUnmatched` (feeds-and-semantics §7): a resting order of the
 * caller in its own view. `side` is the order's own wire side (participant id, yes/no); a
 * total has none, as the contract's field list has none for it, so a client must look the
 * order up to learn it. `filled`/`offered`/`remaining` are risk as on the user feed.
 */
export function renderUnmatchedOrder(engine: MatchingEngine, o: OrderView): WireUnmatchedOrder {
  const game = engine.game(o.gameID);
  const s = o.selection;
  const who = participantsOf(game, o);
  const out: WireUnmatchedOrder = {
    id: o.id,
    type: o.wire.type,
    ...(s.type === 'total' ? {} : { side: o.wire.side }),
    bet: o.bet,
    odds: o.odds,
    spread: s.type === 'spread' ? s.line : null,
    total: s.type === 'total' ? s.line : null,
    ...(who.backed !== null ? { participantID: who.backed } : {}),
    ...(who.other !== null ? { otherParticipantID: who.other } : {}),
    expiry: orderExpiry(game, o),
    filled: o.filled,
    offered: o.bet,
    remaining: o.remaining,
    takenRatio: o.bet > 0 ? o.filled / o.bet : 0,
    createdAt: iso(o.createdAt),
    ...(o.userReference !== null ? { userReference: o.userReference } : {}),
    wagerRequestID: o.wagerRequestID,
    game: game ? renderGame(game, { withFutures: true }) : null,
  };
  if (o.wire.market !== undefined) out.market = o.wire.market;
  return out;
}
