import { isValidAmericanOdds, normalizeOdds, type AmericanOdds } from '../odds/american.ts';
import {
  bookKeyOf,
  isMarketType,
  isQuarterMultiple,
  sideIndexOf,
  type Selection,
  type Team,
} from '../markets/types.ts';
import { wireFromSelection } from '../markets/wire-selection.ts';
import { isObjectId } from './ids.ts';
import { DUST } from './order-state.ts';
import type { MatchingBook } from './matching-book.ts';
import type { EngineGame, OrderType, PlaceInput, WireSelection } from './types.ts';

/** A place input that passed validation, with the selection in canonical form. */
export interface ValidOrder {
  readonly gameID: string;
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
/**
 * Longest `expirationMinutes` taken: a year. The contract names no bound; one is needed, as
 * an expiry must stay a time every reader can spell (see `isEngineTime`).
 */
export const MAX_EXPIRATION_MINUTES = 525_600;
/** Date's range: a time beyond ±8.64e15 ms has no ISO spelling, so the engine stores none. */
export const MAX_TIME_MS = 8.64e15;

export function isEngineTime(ms: unknown): ms is number {
  return typeof ms === 'number' && ms >= -MAX_TIME_MS && ms <= MAX_TIME_MS;
}

const invalid = (message: string): string => message;

/** Membership in ORDER_TYPES by comparison: every place checks it, and five comparisons beat a hash lookup. */
function isOrderType(x: string): x is OrderType {
  return x === 'limit' || x === 'post' || x === 'postArb' || x === 'fillAndKill' || x === 'fillOrKill';
}

export interface InternedSelection {
  readonly gameID: string;
  readonly selection: Selection;
  readonly wire: WireSelection;
  /** `bookKeyOf(selection)` and `sideIndexOf(selection)`, kept so a place computes neither. */
  readonly bookKey: string;
  readonly takeSide: 0 | 1;
  /** Side an order backing the selection is listed on for takers: the other one. */
  readonly listedSide: 0 | 1;
  /** The game's book of this selection, once the engine has looked it up or made it. */
  book: MatchingBook | null;
}

/** A valid order as the engine uses it: also the interned selection and the game's entry. */
export interface CheckedOrder<E extends GameEntry = GameEntry> extends ValidOrder {
  readonly line: InternedSelection;
  readonly entry: E;
}

/**
 * A game as validation sees it. Selections and their wire spelling are immutable and few
 * per game, so the owner keeps them interned in `selections` and the hot place path
 * allocates neither.
 */
export interface GameEntry {
  readonly game: EngineGame;
  readonly selections: InternTable;
}

/** Interned selections of one game: moneylines by side; other markets by side, then by market or number. */
export class InternTable {
  readonly moneyline = new Map<unknown, InternedSelection>();
  readonly spread = new Map<unknown, Map<unknown, InternedSelection>>();
  readonly total = new Map<unknown, Map<unknown, InternedSelection>>();
  readonly moneyline1x2 = new Map<unknown, Map<unknown, InternedSelection>>();
}

const MAX_INTERNED_PER_GAME_TYPE = 4096;

function interned(
  entry: GameEntry,
  type: Selection['type'],
  side: unknown,
  market: unknown,
  number: unknown,
): InternedSelection | string {
  const table = entry.selections;
  // Only valid selections are interned, and the count is bounded, so junk input cannot grow it.
  if (type === 'moneyline') {
    const hit = table.moneyline.get(side);
    if (hit) return hit;
    const made = intern(entry.game, type, side, market, number);
    if (typeof made !== 'string' && table.moneyline.size < MAX_INTERNED_PER_GAME_TYPE) table.moneyline.set(side, made);
    return made;
  }
  const bySide = type === 'spread' ? table.spread : type === 'total' ? table.total : table.moneyline1x2;
  let byDetail = bySide.get(side);
  const detail = type === 'moneyline1x2' ? market : number;
  const hit = byDetail?.get(detail);
  if (hit) return hit;
  const made = intern(entry.game, type, side, market, number);
  if (typeof made === 'string') return made;
  if (bySide.size < MAX_INTERNED_PER_GAME_TYPE) {
    if (!byDetail) bySide.set(side, (byDetail = new Map()));
    if (byDetail.size < MAX_INTERNED_PER_GAME_TYPE) byDetail.set(detail, made);
  }
  return made;
}

function intern(
  game: EngineGame,
  type: Selection['type'],
  side: unknown,
  market: unknown,
  number: unknown,
): InternedSelection | string {
  const selection = selectionOf(game, type, side, market, number);
  if (typeof selection === 'string') return selection;
  const takeSide = sideIndexOf(selection);
  return {
    gameID: game.id,
    selection,
    wire: wireOf(game, selection),
    bookKey: bookKeyOf(selection),
    takeSide,
    listedSide: takeSide === 0 ? 1 : 0,
    book: null,
  };
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
  return checkPlaceInput(input, (id) => (isObjectId(id) ? lookupGame(id) : undefined));
}

/**
 * `validatePlaceInput` for a lookup that only knows games with ObjectId ids (the engine's):
 * a game found proves the id well-formed, so the format is checked only on a miss.
 */
export function checkPlaceInput<E extends GameEntry>(
  input: PlaceInput,
  lookupGame: (id: string) => E | undefined,
): CheckedOrder<E> | string {
  if (input === null || typeof input !== 'object') return invalid('order must be an object');
  const { gameID, type, side, market, odds, bet, number, orderType, expirationMinutes, userReference } = input;
  if (typeof gameID !== 'string') return invalid('gameID is required');
  const entry = lookupGame(gameID);
  if (!entry) {
    if (gameID.length === 0) return invalid('gameID is required');
    if (!isObjectId(gameID)) return invalid(`invalid gameID format: ${truncate(gameID)}`);
    return invalid('game not found: invalid gameID');
  }
  const game = entry.game;
  if (game.ended) return invalid('game has ended');
  if (!isMarketType(type))
    return invalid(`invalid type: ${truncate(show(type))}; expected moneyline, spread, total or moneyline1x2`);
  if (!game.markets.includes(type)) return invalid(`market type ${type} is not offered on this game`);

  const ot = orderType === undefined || orderType === null ? 'limit' : orderType;
  if (typeof ot !== 'string' || !isOrderType(ot)) {
    return invalid(
      `invalid orderType: ${truncate(show(ot))}; expected limit, post, postArb, fillAndKill or fillOrKill`,
    );
  }
  if (typeof odds !== 'number' || !isValidAmericanOdds(odds)) {
    return invalid(`invalid odds: ${truncate(show(odds))}; American odds must be an integer with |odds| >= 100`);
  }
  if (typeof bet !== 'number' || !Number.isFinite(bet) || bet <= 0)
    return invalid(`invalid bet: ${truncate(show(bet))}; must be a positive number`);
  if (bet > MAX_BET) return invalid(`invalid bet: ${bet} exceeds the maximum of ${MAX_BET}`);
  // The engine treats amounts at or below DUST as zero: such a stake could neither fill nor rest.
  if (bet <= DUST) return invalid(`invalid bet: ${bet} is below the minimum stake`);
  let expiry: number | null = null;
  if (expirationMinutes !== undefined && expirationMinutes !== null) {
    if (typeof expirationMinutes !== 'number' || !Number.isFinite(expirationMinutes) || expirationMinutes <= 0) {
      return invalid(`invalid expirationMinutes: ${truncate(show(expirationMinutes))}; must be a positive number`);
    }
    if (expirationMinutes > MAX_EXPIRATION_MINUTES)
      return invalid(
        `invalid expirationMinutes: ${expirationMinutes} exceeds the maximum of ${MAX_EXPIRATION_MINUTES} (a year)`,
      );
    expiry = expirationMinutes;
  }
  let reference: string | null = null;
  if (userReference !== undefined && userReference !== null) {
    if (typeof userReference !== 'string') return invalid('userReference must be a string');
    if (userReference.length > MAX_USER_REFERENCE_LENGTH)
      return invalid(`userReference longer than ${MAX_USER_REFERENCE_LENGTH} characters`);
    reference = userReference;
  }

  const sel = interned(entry, type, side, market, number);
  if (typeof sel === 'string') return invalid(sel);
  return {
    gameID: gameID,
    selection: sel.selection,
    wire: sel.wire,
    odds: smallInteger(normalizeOdds(odds)),
    bet: smallInteger(bet),
    orderType: ot,
    expirationMinutes: expiry,
    userReference: reference,
    line: sel,
    entry,
  };
}

function selectionOf(
  game: EngineGame,
  type: Selection['type'],
  side: unknown,
  market: unknown,
  number: unknown,
): Selection | string {
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
      if (typeof number !== 'number' || !isQuarterMultiple(number) || number < 0)
        return 'total requires number: a non-negative multiple of 0.25';
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

/** The wire spelling of a canonical selection on a game (the engine's shape: `number` always present). */
export function wireOf(game: EngineGame, s: Selection): WireSelection {
  const w = wireFromSelection({ awayId: game.participants[0].id, homeId: game.participants[1].id }, s);
  return w.market !== undefined
    ? { type: w.type, side: w.side, market: w.market, number: null }
    : { type: w.type, side: w.side, number: w.number ?? null };
}

/**
 * The same number, as a small integer when it is one. A number computed elsewhere can be
 * boxed even when integral; order records that receive one store it boxed from then on.
 */
function smallInteger(x: number): number {
  return x >= -0x40000000 && x < 0x40000000 && Number.isInteger(x) ? x | 0 : x;
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
