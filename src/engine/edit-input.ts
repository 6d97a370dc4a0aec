import type { EditInput, OrderView, PlaceInput } from './types.ts';

/** What an edit asks for, read against the order it edits. */
export interface EditRequest {
  /** The edited order's terms with the requested changes, for the same checks as a place. */
  readonly place: PlaceInput;
  /** Minutes from the edit to the new expiry; null keeps the order's expiry. */
  readonly expiryMinutes: number | null;
}

const NUMERIC = /^\s*\d+(\.\d+)?\s*$/;

/** `expiryChange` is minutes, as a number or a numeric string (the exchange describes a string). */
function expiryMinutesOf(raw: unknown): number | null | string {
  if (raw === undefined || raw === null || raw === '') return null;
  const minutes = typeof raw === 'number' ? raw : typeof raw === 'string' && NUMERIC.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(minutes) || minutes <= 0) return 'invalid expiryChange: must be a positive number of minutes';
  return minutes;
}

/**
 * The place input an edit amounts to: the order's own game, selection and terms, with the
 * odds, volume, order type and reference the edit gives (left out or null: unchanged).
 * Returns the message of a `validation_error` for a bad `expiryChange`; the other fields
 * are checked as a place's are.
 */
export function editRequestOf(order: OrderView, input: EditInput): EditRequest | string {
  const expiry = expiryMinutesOf(input.expiryChange);
  if (typeof expiry === 'string') return expiry;
  const wire = order.wire;
  const gameID = order.gameID;
  const type = wire.type;
  const side = wire.side;
  const market = wire.market;
  const number = wire.number;
  const odds = input.orderOdds ?? order.odds;
  const bet = input.orderVolume ?? order.bet;
  const orderType = input.orderType ?? order.orderType;
  const userReference = input.userReference ?? order.userReference;
  // One literal per shape, the fields in the order a spread of each part would lay them out,
  // the expiry last when there is one: spreads in the middle of a literal cost an order of
  // magnitude more than the literal, on every edit.
  const place: { -readonly [K in keyof PlaceInput]: PlaceInput[K] } =
    market !== undefined
      ? number !== null
        ? { gameID, type, side, market, number, odds, bet, orderType, userReference }
        : { gameID, type, side, market, odds, bet, orderType, userReference }
      : number !== null
        ? { gameID, type, side, number, odds, bet, orderType, userReference }
        : { gameID, type, side, odds, bet, orderType, userReference };
  if (expiry !== null) place.expirationMinutes = expiry;
  return { place, expiryMinutes: expiry };
}
