import { z } from 'zod';
import {
  GameUpdate,
  MatchedVolumeUpdate,
  normaliseGameUpdate,
  OrderUpdate,
  type GameMessageType,
  type GameUpdateWire,
  type PriceFeedEvent,
} from '../schemas/price-feed.ts';
import { isMatchedVolumeUpdate, isOrderUpdate } from './price-guards.ts';

/**
 * Price-feed frames into typed events.
 *
 * Measured with `bench/price-parse.bench.ts`: 10,000 frames recorded from the simulator's
 * synthetic market (85% orderUpdate, 15% matchedVolumeUpdate, 0.1% gameUpdate; 1.23 kB
 * average), one core of a shared 2-core AMD EPYC, Node 20.20, median of 7 rounds, three
 * runs; per message, JSON.parse included:
 *
 *   JSON.parse alone               2.6–3.8 µs   262,000–382,000/s
 *   + zod safeParse                4.7–6.5 µs   154,000–212,000/s
 *   + z.compile(schema).safeParse  3.2–4.6 µs   217,000–309,000/s
 *   + z.compile(schema).validate   ~3.0 µs      ~330,000/s  (one-off measurement)
 *   + hand-written guards (`fast`) 2.8–3.5 µs   288,000–360,000/s
 *
 * Plain zod adds about 2 µs a message (~45% of the total), most of it building the
 * stripped copy of every book order, and alone would miss the 200,000/s goal under load.
 * So the hot types (orderUpdate, matchedVolumeUpdate) are checked in place by
 * `price-guards.ts` (~0.15 µs) and the parsed JSON is the payload; the rare, large
 * gameUpdate uses the compiled zod validator (assert only, no copy). JSON.parse is the
 * floor. On a rejected message the plain schema runs once more, only to say why.
 *
 * The schemas have no transforms, so what validates is already the output. The one wire
 * shape with two forms, a gameUpdate's collections (a list or an object keyed by the line,
 * feeds §8), is accepted in both by the schema and brought to the one internal form by
 * `normaliseGameUpdate` after the check, in every mode alike.
 */
export type PriceParseMode = 'fast' | 'compiled' | 'zod';

export type PriceFrameOutcome =
  | { readonly ok: true; readonly event: PriceFeedEvent }
  | { readonly ok: false; readonly problem: 'malformed'; readonly reason: string }
  | { readonly ok: false; readonly problem: 'unknownType'; readonly messageType: string };

type Check<T> = (payload: unknown) => T | undefined;

interface Checks {
  readonly orderUpdate: Check<OrderUpdate>;
  readonly gameUpdate: Check<GameUpdateWire>;
  readonly matchedVolumeUpdate: Check<MatchedVolumeUpdate>;
}

const SCHEMAS = { orderUpdate: OrderUpdate, gameUpdate: GameUpdate, matchedVolumeUpdate: MatchedVolumeUpdate } as const;

const viaParse =
  <S extends z.ZodType>(schema: S): Check<z.output<S>> =>
  (payload) => {
    const r = schema.safeParse(payload);
    return r.success ? r.data : undefined;
  };

// Sound only because the schemas have no transforms: what validates is already the output.
const viaValidate =
  <S extends z.ZodType>(schema: S): Check<z.output<S>> =>
  (payload) =>
    schema.validate(payload) ? (payload as z.output<S>) : undefined;

const viaGuard =
  <T>(guard: (v: unknown) => v is T): Check<T> =>
  (payload) =>
    guard(payload) ? payload : undefined;

function checksFor(mode: PriceParseMode): Checks {
  switch (mode) {
    case 'zod':
      return {
        orderUpdate: viaParse(OrderUpdate),
        gameUpdate: viaParse(GameUpdate),
        matchedVolumeUpdate: viaParse(MatchedVolumeUpdate),
      };
    case 'compiled':
      return {
        orderUpdate: viaParse(z.compile(OrderUpdate)),
        gameUpdate: viaParse(z.compile(GameUpdate)),
        matchedVolumeUpdate: viaParse(z.compile(MatchedVolumeUpdate)),
      };
    case 'fast':
      return {
        orderUpdate: viaGuard(isOrderUpdate),
        gameUpdate: viaValidate(z.compile(GameUpdate)),
        matchedVolumeUpdate: viaGuard(isMatchedVolumeUpdate),
      };
  }
}

const messageTypeOf = (v: string): GameMessageType | null => (v === 'marketOpen' || v === 'marketClosed' ? v : null);

/** A parser for one connection's frames; build once, call per frame. */
export function createPriceFrameParser(mode: PriceParseMode = 'fast'): (text: string) => PriceFrameOutcome {
  const check = createPriceFrameChecker(mode);
  return (text) => {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return { ok: false, problem: 'malformed', reason: 'not JSON' };
    }
    return check(frame);
  };
}

/**
 * The same checks on a frame already parsed from JSON: a recording's frames are read back
 * parsed, and the backtester must judge them exactly as the live socket would.
 */
export function createPriceFrameChecker(mode: PriceParseMode = 'fast'): (frame: unknown) => PriceFrameOutcome {
  const checks = checksFor(mode);
  return (frame) => {
    if (!Array.isArray(frame) || typeof frame[0] !== 'string')
      return { ok: false, problem: 'malformed', reason: 'not a [type, payload] tuple' };
    const type = frame[0];
    const payload: unknown = frame[1];
    switch (type) {
      case 'orderUpdate': {
        const p = checks.orderUpdate(payload);
        return p ? { ok: true, event: { type, payload: p } } : rejected(type, payload);
      }
      case 'matchedVolumeUpdate': {
        const p = checks.matchedVolumeUpdate(payload);
        return p ? { ok: true, event: { type, payload: p } } : rejected(type, payload);
      }
      case 'gameUpdate': {
        const p = checks.gameUpdate(payload);
        return p
          ? { ok: true, event: { type, payload: normaliseGameUpdate(p), messageType: messageTypeOf(p.messageType) } }
          : rejected(type, payload);
      }
      default:
        return { ok: false, problem: 'unknownType', messageType: type.slice(0, 64) };
    }
  };
}

function rejected(type: keyof typeof SCHEMAS, payload: unknown): PriceFrameOutcome {
  const r = SCHEMAS[type].safeParse(payload);
  const reason = r.success
    ? 'rejected by the fast check but accepted by the schema (fast check out of step)'
    : r.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
  return { ok: false, problem: 'malformed', reason: `${type}: ${reason}` };
}
