import type { OwnOrder } from '../market-model/types.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../markets/types.ts';
import { americanDistance } from '../odds/american.ts';
import type { QuoteIntent } from '../strategy/types.ts';

/** Whether an order's next state depends on an answer still on its way: nothing else is sent for it. */
const inFlight = (status: OwnOrder['status']): boolean =>
  status === 'pending-place' || status === 'pending-cancel' || status === 'unknown';

const NONE_REPLACEABLE: ReadonlyMap<string, OwnOrder> = new Map();

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

/**
 * Whether two selections back the same side of the same book: `bookKeyOf` and `sideIndexOf`
 * agree. Compared field by field, which says the same without spelling either key: the side
 * fixes the team (or over/under, or yes/no), and for that side the key is a function of the
 * line alone, one to one on numbers (0 and -0 name the same book, as `===` says). The planner
 * asks it for every order on every cycle.
 */
export function sameSelection(a: Selection, b: Selection): boolean {
  if (a === b) return true;
  switch (a.type) {
    case 'moneyline':
      return b.type === 'moneyline' && a.team === b.team;
    case 'spread':
      return b.type === 'spread' && a.team === b.team && a.line === b.line;
    case 'total':
      return b.type === 'total' && a.ou === b.ou && a.line === b.line;
    case 'moneyline1x2':
      return b.type === 'moneyline1x2' && a.outcome === b.outcome && !a.yes === !b.yes;
    default:
      return bookKeyOf(a) === bookKeyOf(b) && sideIndexOf(a) === sideIndexOf(b);
  }
}

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
  const intents = input.intents;
  // Each key's intent by its index in `intents`: the last of a key is the one planned, and keys
  // keep the order they first appear in. Coverage is kept by that index, not by key again.
  const at = new Map<string, number>();
  for (let n = 0; n < intents.length; n++) at.set(intents[n]!.key, n);
  const covered: boolean[] = new Array<boolean>(intents.length).fill(false);
  const cancels: OwnOrder[] = [];
  // Made on the first order cancelled that an edit could turn into its key's intent: most cycles cancel none.
  let candidates: Map<string, OwnOrder> | null = null;
  let kept = 0;
  for (const o of input.orders) {
    const key = o.intentKey;
    const n = key === null ? undefined : at.get(key);
    if (inFlight(o.status)) {
      // A place in flight (or of unknown outcome) may rest: its key waits for the answer. An
      // order being cancelled serves nothing: covering its key would make the order that
      // replaced it a duplicate, cancelled as soon as it rests. (A key no intent has needs no cover.)
      if (n !== undefined && o.status !== 'pending-cancel') covered[n] = true;
      continue;
    }
    const intent = n === undefined ? undefined : intents[n]!;
    if (intent !== undefined && !covered[n!] && serves(o, intent)) {
      covered[n!] = true;
      kept++;
      continue;
    }
    cancels.push(o);
    if (
      intent !== undefined &&
      o.orderID !== null &&
      (o.status === 'resting' || o.status === 'partly-filled') &&
      sameSelection(o.selection, intent.selection) &&
      (candidates === null || !candidates.has(intent.key))
    )
      (candidates ??= new Map()).set(intent.key, o);
  }
  const places: QuoteIntent[] = [];
  const blocked = input.blockedKeys;
  let replaceable: Map<string, OwnOrder> | null = null;
  for (const n of at.values()) {
    if (covered[n]) continue;
    const i = intents[n]!;
    if (blocked.size > 0 && blocked.has(i.key)) continue;
    places.push(i);
    const o = candidates?.get(i.key);
    if (o !== undefined) (replaceable ??= new Map()).set(i.key, o);
  }
  return { cancels, places, kept, replaceable: replaceable ?? NONE_REPLACEABLE };
}
