import { isValidAmericanOdds, normalizeOdds, type AmericanOdds } from '../odds/american.ts';
import { isMarketType, isQuarterMultiple, type Selection, type Team } from '../markets/types.ts';
import { isObjectId } from './ids.ts';
import { DUST } from './order-state.ts';
import { ORDER_TYPES, type EngineGame, type OrderType, type PlaceInput, type WireSelection } from './types.ts';

/** A place input that passed validation, with the selection in canonical form. */
export interface ValidOrder {
  readonly gameId: string;
  readonly selection: Selection;
  readonly wire: WireSelection;
  readonly odds: AmericanOdds;
  readonly bet: number;
  readonly orderType: OrderType;
  readonly expirationMinutes: number | null;
  readonly userReference: string | null;
}

/** A valid order, or the message of a `validation_error`. */
export type Validation = ValidOrder | string;

export const MAX_USER_REFERENCE_LENGTH = 128;
/** Sanity bound on a single stake; far above any real order, it only keeps arithmetic finite. */
export const MAX_BET = 1e9;

const invalid = (message: string): Validation => message;
const ORDER_TYPE_SET: ReadonlySet<string> = new Set(ORDER_TYPES);

export interface InternedSelection {
  readonly selection: Selection;
  readonly wire: WireSelection;
}

/**
 * A game as validation sees it. Selections and their wire spelling are immutable and few
 * per game, so the owner keeps them interned in `selections` and the hot place path
 * allocates neither.
 */
export interface GameEntry {
  readonly game: EngineGame;
  /** type → side → market-or-number → interned selection. */
  readonly selections: Map<string, Map<unknown, Map<unknown, InternedSelection>>>;
}

const MAX_INTERNED_PER_GAME_TYPE = 4096;

function interned(entry: GameEntry, type: Selection['type'], side: unknown, market: unknown, number: unknown): InternedSelection | string {
  const game = entry.game;
  let bySide = entry.selections.get(type);
  if (!bySide) entry.selections.set(type, (bySide = new Map()));
  let byDetail = bySide.get(side);
  const detail = type === 'moneyline1x2' ? market : type === 'moneyline' ? null : number;
  const hit = byDetail?.get(detail);
  if (hit) return hit;
  const selection = selectionOf(game, type, side, market, number);
  if (typeof selection === 'string') return selection;
  const made = { selection, wire: wireOf(game, selection) };
  // Only valid selections are interned, and the count is bounded, so junk input cannot grow it.
  if (bySide.size < MAX_INTERNED_PER_GAME_TYPE) {
    if (!byDetail) bySide.set(side, (byDetail = new Map()));
    if (byDetail.size < MAX_INTERNED_PER_GAME_TYPE) byDetail.set(detail, made);
  }
  return made;
}

function teamOf(game: EngineGame, participantId: string): Team | null {
  if (game.participants[0].id === participantId) return 'away';
  if (game.participants[1].id === participantId) return 'home';
  return null;
}

export function participantIdOf(game: EngineGame, team: Team): string {
  return team === 'away' ? game.participants[0].id : game.participants[1].id;
}

/**
 * Validates one place entry against the game it names. Every failure is a message for a
 * `validation_error` entry; nothing here throws.
 */
export function validatePlaceInput(input: PlaceInput, lookupGame: (id: string) => GameEntry | undefined): Validation {
  if (input === null || typeof input !== 'object') return invalid('order must be an object');
  const { gameID, type, side, market, odds, bet, number, orderType, expirationMinutes, userReference } = input;
  if (typeof gameID !== 'string' || gameID.length === 0) return invalid('gameID is required');
  if (!isObjectId(gameID)) return invalid(`invalid gameID format: ${truncate(gameID)}`);
  const entry = lookupGame(gameID);
  if (!entry) return invalid('game not found: invalid gameID');
  const game = entry.game;
  if (game.ended) return invalid('game has ended');
  if (!isMarketType(type)) return invalid(`invalid type: ${truncate(show(type))}; expected moneyline, spread, total or moneyline1x2`);
  if (!game.markets.includes(type)) return invalid(`market type ${type} is not offered on this game`);

  const ot = orderType === undefined || orderType === null ? 'limit' : orderType;
  if (typeof ot !== 'string' || !ORDER_TYPE_SET.has(ot)) {
    return invalid(`invalid orderType: ${truncate(show(ot))}; expected limit, post, postArb, fillAndKill or fillOrKill`);
  }
  if (typeof odds !== 'number' || !isValidAmericanOdds(odds)) {
    return invalid(`invalid odds: ${truncate(show(odds))}; American odds must be an integer with |odds| >= 100`);
  }
  if (typeof bet !== 'number' || !Number.isFinite(bet) || bet <= 0) return invalid(`invalid bet: ${truncate(show(bet))}; must be a positive number`);
  if (bet > MAX_BET) return invalid(`invalid bet: ${bet} exceeds the maximum of ${MAX_BET}`);
  // The engine treats amounts at or below DUST as zero: such a stake could neither fill nor rest.
  if (bet <= DUST) return invalid(`invalid bet: ${bet} is below the minimum stake`);
  let expiry: number | null = null;
  if (expirationMinutes !== undefined && expirationMinutes !== null) {
    if (typeof expirationMinutes !== 'number' || !Number.isFinite(expirationMinutes) || expirationMinutes <= 0) {
      return invalid(`invalid expirationMinutes: ${truncate(show(expirationMinutes))}; must be a positive number`);
    }
    expiry = expirationMinutes;
  }
  let reference: string | null = null;
  if (userReference !== undefined && userReference !== null) {
    if (typeof userReference !== 'string') return invalid('userReference must be a string');
    if (userReference.length > MAX_USER_REFERENCE_LENGTH) return invalid(`userReference longer than ${MAX_USER_REFERENCE_LENGTH} characters`);
    reference = userReference;
  }

  const sel = interned(entry, type, side, market, number);
  if (typeof sel === 'string') return invalid(sel);
  return {
    gameId: gameID,
    selection: sel.selection,
    wire: sel.wire,
    odds: normalizeOdds(odds),
    bet,
    orderType: ot as OrderType,
    expirationMinutes: expiry,
    userReference: reference,
  };
}

function selectionOf(game: EngineGame, type: Selection['type'], side: unknown, market: unknown, number: unknown): Selection | string {
  switch (type) {
    case 'moneyline': {
      const team = typeof side === 'string' ? teamOf(game, side) : null;
      if (!team) return `invalid side for moneyline: must be a participant id of the game`;
      return { type, team };
    }
    case 'spread': {
      const team = typeof side === 'string' ? teamOf(game, side) : null;
      if (!team) return `invalid side for spread: must be a participant id of the game`;
      if (typeof number !== 'number' || !isQuarterMultiple(number)) return 'spread requires number: a multiple of 0.25';
      if (Math.abs(number) > 1000) return 'spread number out of range';
      return { type, team, line: number || 0 };
    }
    case 'total': {
      if (side !== 'over' && side !== 'under') return 'invalid side for total: must be over or under';
      if (typeof number !== 'number' || !isQuarterMultiple(number) || number < 0) return 'total requires number: a non-negative multiple of 0.25';
      if (number > 100000) return 'total number out of range';
      return { type, ou: side, line: number || 0 };
    }
    case 'moneyline1x2': {
      if (side !== 'yes' && side !== 'no') return 'invalid side for moneyline1x2: must be yes or no';
      if (market === 'draw') return { type, outcome: 'draw', yes: side === 'yes' };
      const team = typeof market === 'string' ? teamOf(game, market) : null;
      if (!team) return 'invalid market for moneyline1x2: must be a participant id of the game or draw';
      return { type, outcome: team, yes: side === 'yes' };
    }
  }
}

/** The wire spelling of a canonical selection on a game. */
export function wireOf(game: EngineGame, s: Selection): WireSelection {
  switch (s.type) {
    case 'moneyline':
      return { type: s.type, side: participantIdOf(game, s.team), number: null };
    case 'spread':
      return { type: s.type, side: participantIdOf(game, s.team), number: s.line };
    case 'total':
      return { type: s.type, side: s.ou, number: s.line };
    case 'moneyline1x2':
      return {
        type: s.type,
        side: s.yes ? 'yes' : 'no',
        market: s.outcome === 'draw' ? 'draw' : participantIdOf(game, s.outcome),
        number: null,
      };
  }
}

/** String form of any wire value for an error message; never throws (null-prototype objects, throwing toString). */
function show(x: unknown): string {
  try {
    return String(x);
  } catch {
    return typeof x;
  }
}

function truncate(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
