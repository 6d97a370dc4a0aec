import { z } from 'zod';

const count = z.number().nonnegative();
const seconds = z.number().nonnegative().nullable();

const SocketReport = z.object({
  status: z.string(),
  reconnects: count,
});

const FeedReport = SocketReport.extend({
  events: count,
  /** Wall seconds since its last event; null before the first. */
  idleSeconds: seconds,
  /** Exchange epoch to local receipt of the latest timed event (price feed); null when the feed carries no time. */
  epochLagSeconds: seconds,
});

/**
 * What `GET /status` answers and `linesmith status` shows: Runtime.status() and the
 * metrics' own readings in one JSON object. Checked with this schema on the reading side
 * (unknown keys are ignored, so a newer runtime still reads).
 */
export const StatusReport = z.object({
  format: z.literal('linesmith-status/1'),
  session: z.enum(['live', 'paper']),
  uptimeSeconds: count,
  mode: z.enum(['active', 'reducing', 'halted']),
  haltReasons: z.array(z.string()),
  games: count,
  quotedGames: count,
  openOrders: count,
  orders: z.object({
    placesSent: count,
    cancelsSent: count,
    riskRejected: count,
    exchangeRejected: count,
    unknown: count,
  }),
  /** Times the exchange's dead man's switch fired on us and the orders it cancelled (absent from older runtimes). */
  heartbeat: z.object({ lapses: count, cancelledOrders: count }).optional(),
  /** Since start, settled games included. */
  fills: z.object({ maker: count, taker: count, makerVolume: count, takerVolume: count }),
  /** Projected worst case over unsettled games (≤ 0), and the games contributing most. */
  worstCase: z.number(),
  topGames: z.array(z.object({ gameID: z.string(), name: z.string(), worstCase: z.number() })),
  realizedPnl: z.number(),
  feeds: z.object({ price: FeedReport, user: FeedReport, orders: SocketReport.nullable() }),
  /** Null when the venue has no REST request budget to read (a backtest). */
  rateLimit: z.object({ waits: count, waitSeconds: count, responses429: count }).nullable(),
  reconcile: z.object({ adopted: count, closed: count, foreign: count, foreignCancelled: count }),
  tickToOrder: z.object({ count, p50Seconds: seconds, p99Seconds: seconds }),
});
export type StatusReport = z.output<typeof StatusReport>;
