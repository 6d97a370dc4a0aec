import type { KillSwitchReason } from '../orders/gate-close-reason.ts';

/** A connection whose loss halts trading until it is back. */
export type HaltingConnection = 'price feed' | 'user feed' | 'orders socket';

/**
 * Why the runtime is halted. A halt holds until the same reason is lifted; several may hold
 * at once, and `RuntimeStatus.haltReasons` lists them as these texts.
 */
export type HaltReason =
  | typeof STARTING
  | typeof RESYNC
  | typeof USER_FEED_RECOVERING
  | typeof SHUTTING_DOWN
  | `${HaltingConnection} down`
  | KillSwitchReason;

/** Until start-up has read the account and the feeds are open. */
export const STARTING = 'starting';

/** While the books are read again after a price-feed reconnect. */
export const RESYNC = 'price feed reconnected: reading the books again';

/**
 * While the user feed catches up after a drop or a gap: until its replay or REST
 * reconciliation is in, fills made meanwhile are missing from the own book, and the risk
 * checks and strategies would work from a position that is not ours.
 */
export const USER_FEED_RECOVERING = 'user feed catching up: replay or reconciliation under way';

/** From a clean shutdown's start: it cancels everything and never lifts. */
export const SHUTTING_DOWN = 'shutting down';

export function connectionDown(connection: HaltingConnection): HaltReason {
  return `${connection} down`;
}
