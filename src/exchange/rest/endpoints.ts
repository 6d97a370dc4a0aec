import { z } from 'zod';
import { AffiliateCommissionResponse, GradedSinceResponse, GradedWindowResponse, LiabilityResponse, MatchedBetsResponse } from '../schemas/bets.ts';
import { GamesResponse, LeaguesResponse, OrderbookResponse, OrderbookV1Response, ParticipantsResponse } from '../schemas/exchange.ts';
import { EditOrderResult, LeagueCancelAck } from '../schemas/edit.ts';
import { BetByIdBody, CombinedWagers, OrdersForGame } from '../schemas/lookups.ts';
import { AveragePriceResponse, MatchedVolume, SingleOrderbook } from '../schemas/market-reads.ts';
import { LookupOrder, PlaceResponse, UnmatchedOrder, WireCancelResult } from '../schemas/orders.ts';
import { HeartbeatAck, LoginResponse, MeResponse } from '../schemas/user.ts';
import { endpoint } from './endpoint.ts';

/**
 * How long a place may wait for the request budget before it gives up unsent. Quotes are
 * re-decided on every market change and at least every second (the runtime's tick), so a
 * place older than this carries a price decided for a book that has likely moved.
 */
export const PLACE_MAX_QUEUE_MS = 2_000;

/** Every REST endpoint linesmith calls: exchange-api §4 plus feeds-and-semantics §6–§7. */
export const ENDPOINTS = {
  // A repeated login only mints another token; earlier ones stay valid (exchange-api §5, 5).
  login: endpoint({ name: 'login', method: 'POST', path: '/user/login', auth: 'none', retry: 'safe', limit: null, envelope: 'data', schema: LoginResponse }),
  logout: endpoint({ name: 'logout', method: 'POST', path: '/user/logout', auth: 'bearer', retry: 'never', limit: null, envelope: 'top', schema: z.unknown() }),
  getMe: endpoint({ name: 'getMe', method: 'GET', path: '/user/getMe', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: MeResponse }),
  getOrderbookV1: endpoint({ name: 'getOrderbookV1', method: 'POST', path: '/exchange/getOrderbook', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: OrderbookV1Response }),
  getOrderbook: endpoint({ name: 'getOrderbook', method: 'GET', path: '/exchange/v2/getOrderbook', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: OrderbookResponse }),
  getGames: endpoint({ name: 'getGames', method: 'GET', path: '/exchange/v2/getGames', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: GamesResponse }),
  place: endpoint({ name: 'place', method: 'POST', path: '/session/v3/place', auth: 'bearer', retry: 'never', limit: null, on429: 'fail', maxQueueMs: PLACE_MAX_QUEUE_MS, envelope: 'data', schema: PlaceResponse }),
  cancel: endpoint({ name: 'cancel', method: 'POST', path: '/session/cancel', auth: 'bearer', retry: 'never', limit: null, priority: 'urgent', envelope: 'data', schema: WireCancelResult }),
  cancelMultiple: endpoint({ name: 'cancelMultiple', method: 'POST', path: '/session/cancelMultiple', auth: 'bearer', retry: 'never', limit: null, priority: 'urgent', envelope: 'data', schema: z.array(WireCancelResult) }),
  getGameLiability: endpoint({ name: 'getGameLiability', method: 'GET', path: '/user/getGameLiability', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: LiabilityResponse }),
  lookupOrder: endpoint({ name: 'lookupOrder', method: 'GET', path: '/session/lookupOrder', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: z.object({ order: LookupOrder }) }),
  getParticipants: endpoint({ name: 'getParticipants', method: 'GET', path: '/exchange/getParticipants', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: ParticipantsResponse }),
  getLeagues: endpoint({ name: 'getLeagues', method: 'GET', path: '/exchange/getLeagues', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: LeaguesResponse }),
  getMatchedBets: endpoint({ name: 'getMatchedBets', method: 'GET', path: '/user/getMatchedBets', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: MatchedBetsResponse }),
  getUnmatched: endpoint({ name: 'getUnmatched', method: 'GET', path: '/user/getUnmatched', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: z.object({ unmatched: z.array(UnmatchedOrder) }) }),
  getGraded: endpoint({ name: 'getGraded', method: 'GET', path: '/user/v2/getGraded', auth: 'raw', retry: 'safe', limit: 'graded', envelope: 'data', schema: GradedWindowResponse }),
  getGradedWagers: endpoint({ name: 'getGradedWagers', method: 'GET', path: '/user/getGradedWagers', auth: 'raw', retry: 'safe', limit: 'graded', envelope: 'data', schema: GradedWindowResponse }),
  getGradedSince: endpoint({ name: 'getGradedSince', method: 'GET', path: '/user/v2/getGradedSince', auth: 'raw', retry: 'safe', limit: 'gradedSince', envelope: 'data', schema: GradedSinceResponse }),
  getAffiliateCommission: endpoint({ name: 'getAffiliateCommission', method: 'GET', path: '/affiliate/getAffiliateCommission', auth: 'bearer', retry: 'safe', limit: null, envelope: 'top', schema: AffiliateCommissionResponse }),
  ordersHeartbeat: endpoint({ name: 'ordersHeartbeat', method: 'POST', path: '/user/ordersHeartbeat', auth: 'bearer', retry: 'never', limit: null, envelope: 'data', schema: HeartbeatAck }),
  // The rest of the published API (feeds-and-semantics §9). An edit is priced like a place:
  // never resent, not waited behind a 429 or the budget for long.
  editOrder: endpoint({ name: 'editOrder', method: 'POST', path: '/session/editOrder', auth: 'bearer', retry: 'never', limit: null, on429: 'fail', maxQueueMs: PLACE_MAX_QUEUE_MS, envelope: 'data', schema: EditOrderResult }),
  editOrderV4: endpoint({ name: 'editOrderV4', method: 'POST', path: '/session/v4/editOrder', auth: 'bearer', retry: 'never', limit: null, on429: 'fail', maxQueueMs: PLACE_MAX_QUEUE_MS, envelope: 'data', schema: EditOrderResult }),
  cancelAllOrders: endpoint({ name: 'cancelAllOrders', method: 'POST', path: '/session/cancelAllOrders', auth: 'bearer', retry: 'never', limit: null, priority: 'urgent', envelope: 'data', schema: z.array(WireCancelResult) }),
  cancelAllOrdersForGame: endpoint({ name: 'cancelAllOrdersForGame', method: 'POST', path: '/session/cancelAllOrdersForGame', auth: 'bearer', retry: 'never', limit: null, priority: 'urgent', envelope: 'data', schema: z.array(WireCancelResult) }),
  cancelByReference: endpoint({ name: 'cancelByReference', method: 'POST', path: '/session/cancelByReference', auth: 'bearer', retry: 'never', limit: null, priority: 'urgent', envelope: 'data', schema: z.array(WireCancelResult) }),
  cancelAllForLeague: endpoint({ name: 'cancelAllForLeague', method: 'POST', path: '/session/cancelAllForLeague', auth: 'bearer', retry: 'never', limit: null, priority: 'urgent', envelope: 'data', schema: LeagueCancelAck }),
  getOrdersForGame: endpoint({ name: 'getOrdersForGame', method: 'GET', path: '/user/getOrdersForGame', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: OrdersForGame }),
  getBetByID: endpoint({ name: 'getBetByID', method: 'GET', path: '/user/getBetByID', auth: 'bearer', retry: 'safe', limit: null, envelope: 'top', schema: BetByIdBody }),
  getBetByWagerRequestID: endpoint({ name: 'getBetByWagerRequestID', method: 'GET', path: '/user/getBetByWagerRequestID', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: CombinedWagers }),
  getBetByUserReference: endpoint({ name: 'getBetByUserReference', method: 'GET', path: '/user/getBetByUserReference', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: CombinedWagers }),
  getSingleOrderbook: endpoint({ name: 'getSingleOrderbook', method: 'GET', path: '/exchange/getSingleOrderbook', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: SingleOrderbook }),
  getOddsForAveragePrice: endpoint({ name: 'getOddsForAveragePrice', method: 'GET', path: '/exchange/getOddsForAveragePrice', auth: 'bearer', retry: 'safe', limit: null, envelope: 'top', schema: AveragePriceResponse }),
  getMatchedVolume: endpoint({ name: 'getMatchedVolume', method: 'GET', path: '/exchange/getMatchedVolume', auth: 'bearer', retry: 'safe', limit: null, envelope: 'data', schema: MatchedVolume }),
} as const;
