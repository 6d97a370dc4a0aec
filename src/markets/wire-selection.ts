import type { Selection, Team } from './types.ts';

/** The two participant ids of a game, away first as the contract lists them. */
export interface ParticipantIds {
  readonly awayId: string;
  readonly homeId: string;
}

/** A selection as the wire spells it (exchange-api §4.5, feeds §2 and §5). */
export interface WireSide {
  readonly type: string;
  /** Participant id, `over`/`under`, or `yes`/`no` for moneyline1x2. */
  readonly side: string;
  /** Spread (backed team's view) or total. */
  readonly number?: number | null;
  /** moneyline1x2: participant id or `draw`. */
  readonly market?: string | null;
}

function teamOf(p: ParticipantIds, id: string | null | undefined): Team | null {
  if (id === p.homeId) return 'home';
  if (id === p.awayId) return 'away';
  return null;
}

/** The canonical selection of a wire side; null when it names nothing on this game. */
export function selectionFromWire(p: ParticipantIds, w: WireSide): Selection | null {
  switch (w.type) {
    case 'moneyline': {
      const team = teamOf(p, w.side);
      return team ? { type: 'moneyline', team } : null;
    }
    case 'spread': {
      const team = teamOf(p, w.side);
      return team && typeof w.number === 'number' ? { type: 'spread', team, line: w.number } : null;
    }
    case 'total':
      return (w.side === 'over' || w.side === 'under') && typeof w.number === 'number'
        ? { type: 'total', ou: w.side, line: w.number }
        : null;
    case 'moneyline1x2': {
      if (w.side !== 'yes' && w.side !== 'no') return null;
      const outcome = w.market === 'draw' ? 'draw' : teamOf(p, w.market);
      return outcome ? { type: 'moneyline1x2', outcome, yes: w.side === 'yes' } : null;
    }
    default:
      return null;
  }
}

/** The wire fields that place an order backing `s`. */
export function wireFromSelection(
  p: ParticipantIds,
  s: Selection,
): { type: Selection['type']; side: string; number?: number; market?: string } {
  switch (s.type) {
    case 'moneyline':
      return { type: 'moneyline', side: idOf(p, s.team) };
    case 'spread':
      return { type: 'spread', side: idOf(p, s.team), number: s.line };
    case 'total':
      return { type: 'total', side: s.ou, number: s.line };
    case 'moneyline1x2':
      return {
        type: 'moneyline1x2',
        side: s.yes ? 'yes' : 'no',
        market: s.outcome === 'draw' ? 'draw' : idOf(p, s.outcome),
      };
  }
}

/** A module function, not a closure: every order the engine and order manager send passes through here. */
function idOf(p: ParticipantIds, t: Team): string {
  return t === 'home' ? p.homeId : p.awayId;
}

/**
 * The selection a taker backs on a listed book side, from the labels the price feed and the
 * orderbook put on it (feeds §2: participantID + spread, OU + total, market + side).
 */
export function takerSelectionOfLabel(
  p: ParticipantIds,
  type: string,
  label: {
    participantID?: string | null;
    spread?: number | null;
    total?: number | null;
    OU?: string | null;
    market?: string | null;
    side?: string | null;
  },
): Selection | null {
  switch (type) {
    case 'moneyline':
      return selectionFromWire(p, { type, side: label.participantID ?? '' });
    case 'spread':
      return selectionFromWire(p, { type, side: label.participantID ?? '', number: label.spread ?? null });
    case 'total':
      return selectionFromWire(p, { type, side: label.OU ?? '', number: label.total ?? null });
    case 'moneyline1x2':
      return selectionFromWire(p, { type, side: label.side ?? '', market: label.market ?? null });
    default:
      return null;
  }
}
