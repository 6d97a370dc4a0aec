/**
 * The markets of the exchange, in a canonical form that does not depend on participant
 * ids. The wire form (`side` = participant id / over / under / yes / no, `market`,
 * `number`) is translated to and from this at the edge of the engine.
 */
export const MARKET_TYPES = ['moneyline', 'spread', 'total', 'moneyline1x2'] as const;
export type MarketType = (typeof MARKET_TYPES)[number];

export type Team = 'home' | 'away';
export type OverUnder = 'over' | 'under';
export type Outcome1x2 = 'home' | 'away' | 'draw';

/** What a bet backs. `line` of a spread is from the backed team's view (home -3.5). */
export type Selection =
  | { readonly type: 'moneyline'; readonly team: Team }
  | { readonly type: 'spread'; readonly team: Team; readonly line: number }
  | { readonly type: 'total'; readonly ou: OverUnder; readonly line: number }
  | { readonly type: 'moneyline1x2'; readonly outcome: Outcome1x2; readonly yes: boolean };

/** Final score of a game. */
export interface Score {
  readonly away: number;
  readonly home: number;
}

export type GradeOutcome = 'winner' | 'loser' | 'half-win' | 'half-loss' | 'refunded';

export function isMarketType(x: unknown): x is MarketType {
  return typeof x === 'string' && (MARKET_TYPES as readonly string[]).includes(x);
}

export function otherTeam(team: Team): Team {
  return team === 'home' ? 'away' : 'home';
}

/** Lines are quoted in quarters: whole, half and quarter (Asian) lines. */
export function isQuarterMultiple(n: number): boolean {
  return Number.isFinite(n) && Number.isInteger(n * 4);
}

/**
 * The selection a taker backs when it meets a maker who backs `s`: the other side of
 * the same market and line.
 */
export function oppositeSelection(s: Selection): Selection {
  switch (s.type) {
    case 'moneyline':
      return { type: 'moneyline', team: otherTeam(s.team) };
    case 'spread':
      return { type: 'spread', team: otherTeam(s.team), line: -s.line || 0 };
    case 'total':
      return { type: 'total', ou: s.ou === 'over' ? 'under' : 'over', line: s.line };
    case 'moneyline1x2':
      return { type: 'moneyline1x2', outcome: s.outcome, yes: !s.yes };
  }
}

/**
 * Book keys already made, by selection object. Selections are immutable and the same
 * objects come back on every evaluation (fills, orders, intents), so the key's string (and
 * the hash a Map lookup needs) is made once per object instead of once per call. A pure
 * memo: what it holds never changes an answer, and it lets go of selections nobody holds.
 */
const bookKeys = new WeakMap<Selection, string>();

/**
 * Identity of a two-sided book: market type plus line, with the spread line seen from
 * home so both sides of one line share a key.
 */
export function bookKeyOf(s: Selection): string {
  if (s.type === 'moneyline') return 'moneyline';
  let key = bookKeys.get(s);
  if (key === undefined) {
    key =
      s.type === 'spread'
        ? `spread:${s.team === 'home' ? s.line : -s.line || 0}`
        : s.type === 'total'
          ? `total:${s.line}`
          : `moneyline1x2:${s.outcome}`;
    bookKeys.set(s, key);
  }
  return key;
}

/** Side index within a book: 0 for home / over / yes, 1 for away / under / no. */
export function sideIndexOf(s: Selection): 0 | 1 {
  switch (s.type) {
    case 'moneyline':
    case 'spread':
      return s.team === 'home' ? 0 : 1;
    case 'total':
      return s.ou === 'over' ? 0 : 1;
    case 'moneyline1x2':
      return s.yes ? 0 : 1;
  }
}
