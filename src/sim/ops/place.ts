import type { PlaceEntry, PlaceInput, PlaceOutcome } from '../../engine/types.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';

/** REST spells the failure field `errorType`, the orders socket `error_type`. */
export type Spelling = 'rest' | 'socket';

export type WirePlaceEntry =
  | { matched: unknown[]; unmatched: Record<string, unknown> }
  | { error: string; errorType: string }
  | { error: string; error_type: string };

/** One engine outcome as the wire spells it; shared with the backtester's simulated venue. */
export function renderPlaceOutcome(outcome: PlaceOutcome, spelling: Spelling): WirePlaceEntry {
  if (outcome.status === 'error') {
    return spelling === 'rest'
      ? { error: outcome.error, errorType: outcome.errorType }
      : { error: outcome.error, error_type: outcome.errorType };
  }
  return { matched: [...outcome.matched], unmatched: outcome.unmatched ? { ...outcome.unmatched } : {} };
}

/** The socket spells the game field `gameId`; accept both everywhere. */
function normalise(raw: unknown): PlaceInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw as PlaceInput;
  const o = raw as Record<string, unknown>;
  return o.gameID === undefined && o.gameId !== undefined ? { ...o, gameID: o.gameId } : (o as PlaceInput);
}

/**
 * Place a batch for a user and wait for any live-delayed entries, so the reply holds each
 * order's final outcome, positional with the input.
 */
export async function placeBatch(
  ctx: SimContext,
  user: SimUser,
  orders: readonly unknown[],
  spelling: Spelling,
): Promise<WirePlaceEntry[]> {
  const entries: PlaceEntry[] = ctx.engine.place(user.id, orders.map(normalise));
  const outcomes = await Promise.all(
    entries.map((e) => (e.status === 'delayed' ? ctx.pump.awaitTicket(e.ticket) : Promise.resolve(e))),
  );
  return outcomes.map((o) => renderPlaceOutcome(o, spelling));
}
