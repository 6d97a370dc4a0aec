/**
 * Games in the shapes the exchange's own examples show (feeds-and-semantics §8), written
 * here from the facts of that section: a gameUpdate whose spread and total collections are
 * objects keyed by the line (`{}` when nothing rests), moneylines as lists, participants
 * with a string `rotationNumber` and one without `score`.
 */

export const AWAY = 'aa0000000000000000000001';
export const HOME = 'aa0000000000000000000002';

export interface KeyedGameOptions {
  readonly id: string;
  readonly league?: string;
  readonly sport?: string;
  readonly start?: string;
  readonly messageType?: string;
  readonly ended?: boolean;
  readonly away?: string;
  readonly home?: string;
}

interface Offer {
  readonly id: string;
  readonly odds: number;
  readonly bet: number;
}

/** A book order as listed: the maker's `bet`, what a taker can still stake at the listed odds. */
export function listed(gameID: string, label: Record<string, unknown>, o: Offer): Record<string, unknown> {
  const payout = o.odds > 0 ? o.odds / 100 : 100 / -o.odds;
  // The maker risks `bet` at the inverted odds; a taker can stake what the maker would win.
  return {
    id: o.id,
    odds: o.odds,
    bet: o.bet,
    sumUntaken: o.bet / payout,
    gameID,
    takenRatio: 0,
    gameStartExpiry: false,
    createdAt: '2026-11-27T01:00:00.000Z',
    ...label,
  };
}

/** The game fields alone, as a gameUpdate or an orderbook carries them. */
export function gameFields(o: KeyedGameOptions): Record<string, unknown> {
  const away = o.away ?? AWAY;
  const home = o.home ?? HOME;
  return {
    id: o.id,
    parentGameID: null,
    league: o.league ?? 'NBA',
    sport: o.sport ?? 'basketball',
    start: o.start ?? '2026-11-27T20:00:00.000Z',
    ended: o.ended ?? false,
    live: false,
    eventName: 'Rivertown Otters @ Hillcrest Pines',
    participants: [
      // A string rotation number; this one has no score at all.
      { id: away, longName: 'Rivertown Otters', shortName: 'RIV', homeAway: 'away', rotationNumber: '501' },
      { id: home, longName: 'Hillcrest Pines', shortName: 'HIL', homeAway: 'home', rotationNumber: '502', score: 0 },
    ],
  };
}

/**
 * A gameUpdate as the exchange publishes it: moneylines as lists, spreads and totals keyed
 * by the line. One home-moneyline offer, one spread offer on each side of home -3.5 (keyed
 * by each side's own line), one over and one under at 221.5; the 1x2 collections `{}`.
 */
export function keyedGameUpdate(o: KeyedGameOptions): Record<string, unknown> {
  const away = o.away ?? AWAY;
  const home = o.home ?? HOME;
  const g = o.id;
  const n = (i: number) => `${g.slice(0, 20)}${String(i).padStart(4, '0')}`;
  return {
    ...gameFields(o),
    homeMoneylines: [listed(g, { type: 'moneyline', participantID: home }, { id: n(1), odds: 120, bet: 60 })],
    awayMoneylines: [],
    homeSpreads: {
      '-3.5': [
        listed(
          g,
          { type: 'spread', participantID: home, spread: -3.5, market: 'main', side: home },
          { id: n(2), odds: 105, bet: 100 },
        ),
      ],
    },
    awaySpreads: {
      '3.5': [
        listed(
          g,
          { type: 'spread', participantID: away, spread: 3.5, market: 'main', side: away },
          { id: n(3), odds: -115, bet: 80 },
        ),
      ],
    },
    over: {
      '221.5': [
        listed(
          g,
          { type: 'total', OU: 'over', total: 221.5, spread: null, market: 'main', side: 'over' },
          { id: n(4), odds: 102, bet: 50 },
        ),
      ],
    },
    under: {
      '221.5': [
        listed(
          g,
          { type: 'total', OU: 'under', total: 221.5, spread: null, market: 'main', side: 'under' },
          { id: n(5), odds: -110, bet: 40 },
        ),
      ],
    },
    homeMoneylines1x2: {},
    awayMoneylines1x2: {},
    draw1x2: {},
    mainHomeSpread: -3.5,
    mainAwaySpread: 3.5,
    mainTotal: 221.5,
    openInterest: 330,
    matchedVolume: 0,
    messageType: o.messageType ?? 'marketOpen',
  };
}

/** The ids of the offers `keyedGameUpdate` lists, by collection. */
export function keyedOfferIds(gameID: string): Record<string, string> {
  const n = (i: number) => `${gameID.slice(0, 20)}${String(i).padStart(4, '0')}`;
  return { homeMoneylines: n(1), homeSpreads: n(2), awaySpreads: n(3), over: n(4), under: n(5) };
}
