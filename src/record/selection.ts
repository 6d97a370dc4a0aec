import type { PriceSelection } from '../exchange/socket/price-subscriptions.ts';
import type { Interest } from '../strategy/types.ts';
import type { RecordedSubscription, SnapshotScope } from './format.ts';

export const RECORD_ALL: RecordedSubscription = { all: true, leagues: [], sports: [], gameIds: [] };

/**
 * What to record for a set of strategy interests: the union of their leagues, sports and
 * games, or everything as soon as one interest is unrestricted (its lists all empty).
 * Market types are not narrowed: the feed cannot filter by them, and a backtest may want
 * the books a strategy only watches.
 */
export function subscriptionOf(interests: readonly Interest[]): RecordedSubscription {
  if (interests.length === 0) return RECORD_ALL;
  const leagues = new Map<string, string>();
  const sports = new Map<string, string>();
  const games = new Set<string>();
  for (const i of interests) {
    if (i.leagues.length + i.sports.length + i.gameIDs.length === 0) return RECORD_ALL;
    // The feed matches leagues and sports case-insensitively: NBA and nba are one entry.
    for (const l of i.leagues) if (!leagues.has(l.toLowerCase())) leagues.set(l.toLowerCase(), l);
    for (const s of i.sports) if (!sports.has(s.toLowerCase())) sports.set(s.toLowerCase(), s);
    for (const g of i.gameIDs) games.add(g);
  }
  return { all: false, leagues: [...leagues.values()], sports: [...sports.values()], gameIds: [...games] };
}

export function priceSelectionOf(s: RecordedSubscription): PriceSelection | null {
  return s.all ? null : { leagueIDs: s.leagues, sportIDs: s.sports, gameIDs: s.gameIds };
}

/**
 * The orderbook reads that cover a subscription: one per league and per game, and for
 * sports one read of every league kept to those sports (the API has no sport filter).
 */
export function snapshotScopesOf(s: RecordedSubscription): SnapshotScope[] {
  if (s.all) return [{ league: 'all' }];
  return [
    ...s.leagues.map((league) => ({ league })),
    ...(s.sports.length > 0 ? [{ league: 'all', sports: s.sports }] : []),
    ...s.gameIds.map((gameID) => ({ gameID })),
  ];
}
