import type { BookOrder, MatchedVolumeUpdate, OrderUpdate } from '../schemas/price-feed.ts';

/**
 * Hand-written shape checks for the two hot price-feed messages, accepting exactly what
 * the zod schemas in `schemas/price-feed.ts` accept (a test holds them to that on real and
 * mutated frames). They check in place and build nothing, which is what makes them cheap:
 * the parsed JSON itself becomes the typed payload. Keep them in step with the schemas.
 */

type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
// zod's z.number() refuses NaN and ±Infinity; JSON cannot carry them, but keep the same rule.
const num = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const id = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
const optStr = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
const optNum = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'number' && Number.isFinite(v));
const optBool = (v: unknown): boolean => v === undefined || v === null || typeof v === 'boolean';

export function isBookOrder(o: unknown): o is BookOrder {
  return (
    isRecord(o) &&
    id(o.id) &&
    optStr(o.type) &&
    num(o.sumUntaken) &&
    num(o.odds) &&
    num(o.bet) &&
    optStr(o.gameID) &&
    optNum(o.takenRatio) &&
    optStr(o.participantID) &&
    optStr(o.market) &&
    optStr(o.side) &&
    optStr(o.OU) &&
    optNum(o.total) &&
    optNum(o.spread) &&
    optBool(o.gameStartExpiry) &&
    optStr(o.expiry) &&
    optStr(o.createdAt) &&
    optBool(o.isPostArb) &&
    optStr(o.createdBy) &&
    optBool(o.mockOrder)
  );
}

export function isOrderUpdate(o: unknown): o is OrderUpdate {
  if (!(
    isRecord(o) &&
    optNum(o.epoch) &&
    id(o.gameID) &&
    optStr(o.parentGameID) &&
    typeof o.sport === 'string' &&
    typeof o.league === 'string' &&
    optBool(o.live) &&
    typeof o.type === 'string' &&
    optStr(o.participantID) &&
    optStr(o.market) &&
    optStr(o.side) &&
    optStr(o.OU) &&
    optNum(o.total) &&
    optNum(o.spread) &&
    optNum(o.mainHomeSpread) &&
    optNum(o.mainAwaySpread) &&
    optNum(o.mainTotal) &&
    Array.isArray(o.sideOrders)
  )) {
    return false;
  }
  const list = o.sideOrders as unknown[];
  for (let i = 0; i < list.length; i++) if (!isBookOrder(list[i])) return false;
  return true;
}

export function isMatchedVolumeUpdate(o: unknown): o is MatchedVolumeUpdate {
  return (
    isRecord(o) && id(o.gameID) && optStr(o.parentGameID) && optStr(o.league) && optStr(o.sport) && num(o.matchedVolume)
  );
}
