import type { ObservedResponse } from '../../src/sim/server.ts';

/**
 * AWAITING_PARALLEL_WORK: mismatches owned by work running in parallel (the simulator's
 * shapes, and the published endpoints the simulator and the client do not have yet). Each
 * entry names its owner; an entry goes when that work lands. Everything else must match.
 */
export interface AwaitingEntry {
  readonly owner: 'h-simshapes' | 'h-endpoints';
  readonly method: string;
  readonly path: string;
  readonly what: string;
  /** Only answers whose every problem contains one of these fragments are excused; omitted, any problem of the route is. */
  readonly problems?: readonly string[];
}

const endpoint = (method: string, path: string): AwaitingEntry => ({ owner: 'h-endpoints', method, path, what: 'not served by the simulator and no client method yet' });

/** Published routes neither the simulator nor the client has yet (h-endpoints adds them). */
export const AWAITING_ENDPOINTS: readonly AwaitingEntry[] = [
  endpoint('POST', '/session/editOrder'),
  endpoint('POST', '/session/cancelByReference'),
  endpoint('POST', '/session/cancelAllOrdersForGame'),
  endpoint('POST', '/session/cancelAllForLeague'),
  endpoint('POST', '/session/cancelAllOrders'),
  endpoint('GET', '/user/getOrdersForGame'),
  endpoint('GET', '/user/getBetByID'),
  endpoint('GET', '/user/getBetByWagerRequestID'),
  endpoint('GET', '/user/getBetByUserReference'),
  endpoint('GET', '/exchange/getSingleOrderbook'),
  endpoint('GET', '/exchange/getOddsForAveragePrice'),
  endpoint('GET', '/exchange/getMatchedVolume'),
];

/** Response shapes h-simshapes is fixing. */
export const AWAITING_SHAPES: readonly AwaitingEntry[] = [];

export const AWAITING_PARALLEL_WORK: readonly AwaitingEntry[] = [...AWAITING_ENDPOINTS, ...AWAITING_SHAPES];

export function awaitingFor(r: ObservedResponse, problems: readonly string[]): AwaitingEntry | undefined {
  return AWAITING_PARALLEL_WORK.find(
    (e) => e.method === r.method && e.path === r.path && (e.problems === undefined || problems.every((p) => e.problems!.some((f) => p.includes(f)))),
  );
}
