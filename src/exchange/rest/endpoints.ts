import { z } from 'zod';
import { AffiliateCommissionResponse, GradedSinceResponse, GradedWindowResponse, LiabilityResponse, MatchedBetsResponse } from '../schemas/bets.ts';
import { GamesResponse, LeaguesResponse, OrderbookResponse, OrderbookV1Response, ParticipantsResponse } from '../schemas/exchange.ts';
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
} as const;
