import { z } from 'zod';
import {
  AffiliateCommissionResponse,
  GradedSinceResponse,
  GradedWindowResponse,
  LiabilityResponse,
  MatchedBetsResponse,
} from '../schemas/bets.ts';
import {
  GamesResponse,
  LeaguesResponse,
  OrderbookResponse,
  OrderbookV1Response,
  ParticipantsResponse,
} from '../schemas/exchange.ts';
import { EditOrderResult, LeagueCancelAck } from '../schemas/edit.ts';
import { BetByIdBody, CombinedWagers, OrdersForGame } from '../schemas/lookups.ts';
import { AveragePriceResponse, MatchedVolume, SingleOrderbook } from '../schemas/market-reads.ts';
import { LookupOrder, PlaceResponse, UnmatchedOrder, WireCancelResult } from '../schemas/orders.ts';
import { HeartbeatAck, LoginResponse, MeResponse } from '../schemas/user.ts';
import { endpoint, type Endpoint } from './endpoint.ts';

/**
 * How long a place may wait for the request budget before it gives up unsent. Quotes are
 * re-decided on every market change and at least every second (the runtime's tick), so a
 * place older than this carries a price decided for a book that has likely moved.
 */
export const PLACE_MAX_QUEUE_MS = 2_000;

/** An endpoint as declared below: its name is its key in ENDPOINTS. */
type Declared<S extends z.ZodType = z.ZodType> = Omit<Endpoint<S>, 'name'>;
type Extra = Partial<Omit<Declared, 'path' | 'schema'>>;

/** A read: Bearer, retried after a failure that leaves it unknown, answered in `data`. */
function read<S extends z.ZodType>(path: string, schema: S, extra: Extra = {}): Declared<S> {
  return { method: 'GET', path, auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema, ...extra };
}

/** A read of graded bets: the raw token (exchange-api §5.3) and a limit of its own. */
function gradedRead<S extends z.ZodType>(path: string, schema: S, limit: 'graded' | 'gradedSince'): Declared<S> {
  return read(path, schema, { auth: 'raw', limit });
}

/** A write: Bearer, never sent again (its caller establishes the outcome), answered in `data`. */
function write<S extends z.ZodType>(path: string, schema: S, extra: Extra = {}): Declared<S> {
  return { method: 'POST', path, auth: 'bearer', retry: 'never', limit: null, envelope: 'data', schema, ...extra };
}

/** A cancel: a write ahead of everything waiting in the request budget. */
function cancel<S extends z.ZodType>(path: string, schema: S): Declared<S> {
  return write(path, schema, { priority: 'urgent' });
}

/**
 * A place or an edit: a write priced for the moment it was decided, so neither waited
 * behind a 429 nor behind the budget for long.
 */
function priced<S extends z.ZodType>(path: string, schema: S): Declared<S> {
  return write(path, schema, { on429: 'fail', maxQueueMs: PLACE_MAX_QUEUE_MS });
}

/** Each declaration named by its key, its schema compiled (`endpoint`). */
function named<T extends Record<string, Declared>>(defs: T): { readonly [K in keyof T]: Endpoint<T[K]['schema']> } {
  return Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, endpoint({ name, ...def })])) as {
    readonly [K in keyof T]: Endpoint<T[K]['schema']>;
  };
}

const CANCEL_RESULTS = z.array(WireCancelResult);

/** Every REST endpoint linesmith calls: exchange-api §4 plus feeds-and-semantics §6–§7. */
export const ENDPOINTS = named({
  // A repeated login only mints another token; earlier ones stay valid (exchange-api §5, 5).
  login: write('/user/login', LoginResponse, { auth: 'none', retry: 'safe' }),
  logout: write('/user/logout', z.unknown(), { envelope: 'top' }),
  getMe: read('/user/getMe', MeResponse),
  getOrderbookV1: read('/exchange/getOrderbook', OrderbookV1Response, { method: 'POST' }),
  getOrderbook: read('/exchange/v2/getOrderbook', OrderbookResponse),
  getGames: read('/exchange/v2/getGames', GamesResponse),
  place: priced('/session/v3/place', PlaceResponse),
  cancel: cancel('/session/cancel', WireCancelResult),
  cancelMultiple: cancel('/session/cancelMultiple', CANCEL_RESULTS),
  getGameLiability: read('/user/getGameLiability', LiabilityResponse),
  lookupOrder: read('/session/lookupOrder', z.object({ order: LookupOrder })),
  getParticipants: read('/exchange/getParticipants', ParticipantsResponse),
  getLeagues: read('/exchange/getLeagues', LeaguesResponse),
  getMatchedBets: read('/user/getMatchedBets', MatchedBetsResponse),
  getUnmatched: read('/user/getUnmatched', z.object({ unmatched: z.array(UnmatchedOrder) })),
  getGraded: gradedRead('/user/v2/getGraded', GradedWindowResponse, 'graded'),
  getGradedWagers: gradedRead('/user/getGradedWagers', GradedWindowResponse, 'graded'),
  getGradedSince: gradedRead('/user/v2/getGradedSince', GradedSinceResponse, 'gradedSince'),
  getAffiliateCommission: read('/affiliate/getAffiliateCommission', AffiliateCommissionResponse, { envelope: 'top' }),
  ordersHeartbeat: write('/user/ordersHeartbeat', HeartbeatAck),
  // The rest of the published API (feeds-and-semantics §9). An edit is priced like a place.
  editOrder: priced('/session/editOrder', EditOrderResult),
  editOrderV4: priced('/session/v4/editOrder', EditOrderResult),
  cancelAllOrders: cancel('/session/cancelAllOrders', CANCEL_RESULTS),
  cancelAllOrdersForGame: cancel('/session/cancelAllOrdersForGame', CANCEL_RESULTS),
  cancelByReference: cancel('/session/cancelByReference', CANCEL_RESULTS),
  cancelAllForLeague: cancel('/session/cancelAllForLeague', LeagueCancelAck),
  getOrdersForGame: read('/user/getOrdersForGame', OrdersForGame),
  getBetByID: read('/user/getBetByID', BetByIdBody, { envelope: 'top' }),
  getBetByWagerRequestID: read('/user/getBetByWagerRequestID', CombinedWagers),
  getBetByUserReference: read('/user/getBetByUserReference', CombinedWagers),
  getSingleOrderbook: read('/exchange/getSingleOrderbook', SingleOrderbook),
  getOddsForAveragePrice: read('/exchange/getOddsForAveragePrice', AveragePriceResponse, { envelope: 'top' }),
  getMatchedVolume: read('/exchange/getMatchedVolume', MatchedVolume),
});
