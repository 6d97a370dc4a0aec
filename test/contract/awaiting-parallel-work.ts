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

/** Published routes neither the simulator nor the client has yet (h-endpoints adds them). */
export const AWAITING_ENDPOINTS: readonly AwaitingEntry[] = [];

/** Response shapes h-simshapes is fixing. */
export const AWAITING_SHAPES: readonly AwaitingEntry[] = [];

export const AWAITING_PARALLEL_WORK: readonly AwaitingEntry[] = [...AWAITING_ENDPOINTS, ...AWAITING_SHAPES];

export function awaitingFor(r: ObservedResponse, problems: readonly string[]): AwaitingEntry | undefined {
  return AWAITING_PARALLEL_WORK.find(
    (e) => e.method === r.method && e.path === r.path && (e.problems === undefined || problems.every((p) => e.problems!.some((f) => p.includes(f)))),
  );
}
