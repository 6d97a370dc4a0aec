import type { OwnOrder } from '../market-model/types.ts';
import { bookKeyOf, sideIndexOf, type Selection } from '../markets/types.ts';
import { americanDistance } from '../odds/american.ts';
import type { QuoteIntent } from '../strategy/types.ts';

/** Whether an order's next state depends on an answer still on its way: nothing else is sent for it. */
const inFlight = (status: OwnOrder['status']): boolean =>
  status === 'pending-place' || status === 'pending-cancel' || status === 'unknown';

const NONE_REPLACEABLE: ReadonlyMap<string, OwnOrder> = new Map();
const NO_CANCELS: readonly OwnOrder[] = [];
const NO_PLACES: readonly QuoteIntent[] = [];

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
  readonly cancels: readonly OwnOrder[];
  readonly places: readonly QuoteIntent[];
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
 * Up to this many intents a key is found by comparing keys in place (a strategy asks for a
 * few per game); more, and by a map.
 */
const SCAN_MAX = 16;

/**
 * Whether each planned intent is covered, by its index: reused by every call (the planner
 * runs to the end without calling out, so no call ever sees another's), grown as needed.
 */
let coveredScratch = new Uint8Array(64);

/**
 * Per intent index: for the first intent of each key, the index of the last intent of that
 * key (the one planned); -1 for a later one. Keys keep the order they first appear in.
 */
function lastOfKeys(intents: readonly QuoteIntent[], out: Int32Array): void {
  for (let f = 0; f < intents.length; f++) {
    const key = intents[f]!.key;
    let first = true;
    for (let m = 0; m < f; m++)
      if (intents[m]!.key === key) {
        first = false;
        break;
      }
    if (!first) {
      out[f] = -1;
      continue;
    }
    let last = f;
    for (let m = intents.length - 1; m > f; m--)
      if (intents[m]!.key === key) {
        last = m;
        break;
      }
    out[f] = last;
  }
}

/** The index of the last intent of `key`; undefined when none has it. */
function lastIndexOf(intents: readonly QuoteIntent[], key: string): number | undefined {
  for (let m = intents.length - 1; m >= 0; m--) if (intents[m]!.key === key) return m;
  return undefined;
}

/** What `lastOfKeys` writes, reused as `coveredScratch` is. */
let plannedScratch = new Int32Array(64);

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
  const count = intents.length;
  // Each key's intent by its index in `intents`: the last of a key is the one planned, and keys
  // keep the order they first appear in. Coverage is kept by that index, not by key again.
  // Few intents are searched in place; many go through a map.
  const at = count > SCAN_MAX ? new Map<string, number>() : null;
  if (at !== null) for (let n = 0; n < count; n++) at.set(intents[n]!.key, n);
  if (coveredScratch.length < count) coveredScratch = new Uint8Array(count * 2);
  const covered = coveredScratch;
  covered.fill(0, 0, count);
  // Both lists are made on their first entry: most plans cancel and place nothing.
  let cancels: OwnOrder[] | null = null;
  // Made on the first order cancelled that an edit could turn into its key's intent: most cycles cancel none.
  let candidates: Map<string, OwnOrder> | null = null;
  let kept = 0;
  for (const o of input.orders) {
    const key = o.intentKey;
    const n = key === null ? undefined : at !== null ? at.get(key) : lastIndexOf(intents, key);
    if (inFlight(o.status)) {
      // A place in flight (or of unknown outcome) may rest: its key waits for the answer. An
      // order being cancelled serves nothing: covering its key would make the order that
      // replaced it a duplicate, cancelled as soon as it rests. (A key no intent has needs no cover.)
      if (n !== undefined && o.status !== 'pending-cancel') covered[n] = 1;
      continue;
    }
    const intent = n === undefined ? undefined : intents[n]!;
    if (intent !== undefined && covered[n!] === 0 && serves(o, intent)) {
      covered[n!] = 1;
      kept++;
      continue;
    }
    (cancels ??= []).push(o);
    if (
      intent !== undefined &&
      o.orderID !== null &&
      (o.status === 'resting' || o.status === 'partly-filled') &&
      sameSelection(o.selection, intent.selection) &&
      (candidates === null || !candidates.has(intent.key))
    )
      (candidates ??= new Map()).set(intent.key, o);
  }
  let places: QuoteIntent[] | null = null;
  const blocked = input.blockedKeys;
  let replaceable: Map<string, OwnOrder> | null = null;
  // The index planned for each key, in the order keys first appear; -1 for a repeated key.
  if (plannedScratch.length < count) plannedScratch = new Int32Array(count * 2);
  const planned = plannedScratch;
  if (at === null) lastOfKeys(intents, planned);
  else {
    let f = 0;
    for (const n of at.values()) planned[f++] = n;
    planned.fill(-1, f, count);
  }
  for (let f = 0; f < count; f++) {
    const n = planned[f]!;
    if (n < 0 || covered[n] === 1) continue;
    const i = intents[n]!;
    if (blocked.size > 0 && blocked.has(i.key)) continue;
    (places ??= []).push(i);
    const o = candidates?.get(i.key);
    if (o !== undefined) (replaceable ??= new Map()).set(i.key, o);
  }
  return {
    cancels: cancels ?? NO_CANCELS,
    places: places ?? NO_PLACES,
    kept,
    replaceable: replaceable ?? NONE_REPLACEABLE,
  };
}
