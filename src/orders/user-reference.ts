/**
 * The userReference of every order linesmith places: `ls1:<strategy>:<clientId>`. It routes
 * orders and fills back to their strategy after a restart (the exchange echoes it on place
 * results, the user feed, open orders and bets) and is how a lost place is found again.
 */
export const REFERENCE_PREFIX = 'ls1:';
const MAX_STRATEGY_LENGTH = 48;

export function encodeReference(strategyId: string, clientId: string): string {
  const s = strategyId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, MAX_STRATEGY_LENGTH);
  return `${REFERENCE_PREFIX}${s}:${clientId}`;
}

/** The strategy and client id of one of our references; null for anything else. */
export function decodeReference(ref: string | null | undefined): { strategyId: string; clientId: string } | null {
  if (!ref || !ref.startsWith(REFERENCE_PREFIX)) return null;
  const rest = ref.slice(REFERENCE_PREFIX.length);
  const i = rest.lastIndexOf(':');
  if (i <= 0 || i === rest.length - 1) return null;
  return { strategyId: rest.slice(0, i), clientId: rest.slice(i + 1) };
}

/** Client order ids: a run prefix and a counter, unique across restarts. */
export class ClientIds {
  #next = 0;
  constructor(readonly runId: string) {}
  next(): string {
    return `${this.runId}${(this.#next++).toString(36)}`;
  }
}
