import type { OwnOrder } from '../market-model/types.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../markets/types.ts';
import { americanDistance } from '../odds/american.ts';
import type { QuoteIntent } from '../strategy/types.ts';

/** Orders whose next state depends on an answer still on its way: nothing else is sent for them. */
const IN_FLIGHT = new Set(['pending-place', 'pending-cancel', 'unknown']);

export interface PlanInput {
  readonly strategyId: string;
  readonly gameID: string;
  readonly intents: readonly QuoteIntent[];
  /** This strategy's live orders on the game. */
  readonly orders: readonly OwnOrder[];
  /** Intent keys not to (re)send now (cooling down after a rejection or a one-shot). */
  readonly blockedKeys: ReadonlySet<string>;
}

export interface Plan {
  readonly cancels: OwnOrder[];
  readonly places: QuoteIntent[];
  /** Intents satisfied by an order already resting (or in flight). */
  readonly kept: number;
  /**
   * Per key to place: the order of that key among `cancels` that an edit could turn into the
   * intent instead (the first that rests with an order id); the order manager decides whether it does.
   */
  readonly replaceable: ReadonlyMap<string, OwnOrder>;
}

const sameSelection = (a: Selection, b: Selection) =>
  bookKeyOf(a) === bookKeyOf(b) && sideIndexOf(a) === sideIndexOf(b);

/** Whether a resting order still serves an intent, within the intent's tolerances. */
export function serves(o: OwnOrder, i: QuoteIntent): boolean {
  if (!sameSelection(o.selection, i.selection)) return false;
  if (americanDistance(o.odds, i.odds) > (i.toleranceCents ?? 0) + 1e-9) return false;
  const sizeTol = i.sizeTolerance ?? 0;
  return Math.abs(o.remaining - i.size) <= sizeTol * i.size + 1e-9;
}

/**
 * The fewest actions that turn a strategy's live orders on one game into its intents: keep
 * an order that serves its key's intent; cancel orders whose key is gone, whose intent moved
 * beyond tolerance, or that duplicate a key; place intents that nothing serves. An order
 * with an answer in flight is left alone, so no order ever has two actions in flight; while
 * its place is in flight its key gets no new order. An order being cancelled is on its way
 * out and covers no key.
 */
export function planGame(input: PlanInput): Plan {
  const byKey = new Map<string, QuoteIntent>();
  for (const i of input.intents) byKey.set(i.key, i);
  const cancels: OwnOrder[] = [];
  const covered = new Set<string>();
  const candidates = new Map<string, OwnOrder>();
  let kept = 0;
  for (const o of input.orders) {
    const key = o.intentKey;
    const intent = key === null ? undefined : byKey.get(key);
    if (IN_FLIGHT.has(o.status)) {
      // A place in flight (or of unknown outcome) may rest: its key waits for the answer. An
      // order being cancelled serves nothing: covering its key would make the order that
      // replaced it a duplicate, cancelled as soon as it rests.
      if (key !== null && o.status !== 'pending-cancel') covered.add(key);
      continue;
    }
    if (intent && !covered.has(intent.key) && serves(o, intent)) {
      covered.add(intent.key);
      kept++;
      continue;
    }
    cancels.push(o);
    if (
      intent &&
      o.orderID !== null &&
      (o.status === 'resting' || o.status === 'partly-filled') &&
      sameSelection(o.selection, intent.selection) &&
      !candidates.has(intent.key)
    )
      candidates.set(intent.key, o);
  }
  const places: QuoteIntent[] = [];
  const replaceable = new Map<string, OwnOrder>();
  for (const i of byKey.values()) {
    if (covered.has(i.key) || input.blockedKeys.has(i.key)) continue;
    places.push(i);
    const o = candidates.get(i.key);
    if (o !== undefined) replaceable.set(i.key, o);
  }
  return { cancels, places, kept, replaceable };
}
