import type { PlaceOrderInput } from './types.ts';

/**
 * The userReference of every order linesmith places, one scheme for all of them:
 * `ls1:<strategy>:<clientId>` on a strategy's order (the order manager gives it), and
 * `ls1:<clientId>` on one placed through the exchange client without a reference of its own.
 *
 * The exchange echoes a reference on place results, the user feed, open orders and bets
 * and looks orders up by it, so it is both how a place whose answer was lost is found again
 * instead of being sent twice, and how a restarted runtime routes an earlier run's orders
 * and fills back to their strategy (`decodeReference`). An order without a strategy is not
 * adopted: the runtime leaves it to whoever placed it, like any order of another origin.
 *
 * A client id is a run id and a base36 counter, unique across runs while run ids differ.
 * The contract sets no bound on a reference; the simulator's, 128 characters, is far above
 * what the scheme makes (the strategy part is cut to 48).
 */
export const REFERENCE_PREFIX = 'ls1:';
const MAX_STRATEGY_LENGTH = 48;

/** The reference of an order: a strategy's, or (null) one placed without a strategy. */
export function encodeReference(strategyId: string | null, clientId: string): string {
  if (strategyId === null) return `${REFERENCE_PREFIX}${clientId}`;
  return strategyReferencePrefix(strategyId) + clientId;
}

/** What every reference of a strategy's orders starts with: `ls1:<strategy>:`, the strategy part cleaned and cut. */
export function strategyReferencePrefix(strategyId: string): string {
  const s = strategyId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, MAX_STRATEGY_LENGTH);
  return `${REFERENCE_PREFIX}${s}:`;
}

/**
 * Strategies' references, each strategy's prefix cleaned once: the order manager makes a
 * reference for every order it places, and a run has a handful of strategies.
 */
export class StrategyReferences {
  readonly #prefixes = new Map<string, string>();

  /** The same string as `encodeReference(strategyId, clientId)`. */
  of(strategyId: string, clientId: string): string {
    let prefix = this.#prefixes.get(strategyId);
    if (prefix === undefined) this.#prefixes.set(strategyId, (prefix = strategyReferencePrefix(strategyId)));
    return prefix + clientId;
  }
}

/** The strategy and client id of a strategy's order; null for anything else. */
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

/**
 * Fills in a reference (`ls1:<clientId>`) on every order placed through the client that has
 * none, so that a place whose answer is lost can be found again.
 */
export class UserReferences {
  readonly #ids: ClientIds;

  /** `runId` should differ between runs (e.g. random base36); tests pass a fixed one. */
  constructor(runId: string) {
    this.#ids = new ClientIds(runId);
  }

  next(): string {
    return encodeReference(null, this.#ids.next());
  }

  ensure(orders: readonly PlaceOrderInput[]): PlaceOrderInput[] {
    return orders.map((o) => (o.userReference ? o : { ...o, userReference: this.next() }));
  }
}

/** A run id from a random source: 8 base36 characters. */
export function randomRunId(random: () => number): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += Math.floor(random() * 36).toString(36);
  return s;
}
