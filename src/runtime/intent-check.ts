import { isQuarterMultiple } from '../markets/types.ts';
import { isValidAmericanOdds } from '../odds/american.ts';
import { INTENT_ORDER_TYPES, type QuoteIntent } from '../strategy/types.ts';

/**
 * What a strategy's quote() returned, checked before the loop acts on it. A strategy is
 * plugin code typed only at compile time: a value it returns (undefined, NaN odds, a
 * selection missing its team) is read by the live policy, the planner and the risk checks
 * inside the one event loop, where it would throw, or worse, price an order.
 */
export type IntentCheck =
  /** Usable as it is (the same array when nothing was dropped). */
  | { readonly ok: true; readonly intents: readonly QuoteIntent[]; readonly dropped: readonly IntentProblem[] }
  /** Not a list of intents at all: nothing of it is used. */
  | { readonly ok: false; readonly problem: string };

export interface IntentProblem {
  readonly index: number;
  readonly key: unknown;
  readonly problem: string;
}

const ORDER_TYPES: ReadonlySet<unknown> = new Set(INTENT_ORDER_TYPES);

/** The usual case, shared: no list made per evaluation. */
const NONE_DROPPED: readonly IntentProblem[] = Object.freeze([]);

export function checkIntents(result: unknown): IntentCheck {
  if (!Array.isArray(result))
    return { ok: false, problem: `quote() returned ${describe(result)}, not an array of intents` };
  let dropped: IntentProblem[] | null = null;
  for (let i = 0; i < result.length; i++) {
    const problem = intentProblem(result[i]);
    if (problem !== null)
      (dropped ??= []).push({ index: i, key: (result[i] as { key?: unknown } | null)?.key, problem });
  }
  if (dropped === null) return { ok: true, intents: result as QuoteIntent[], dropped: NONE_DROPPED };
  const bad = new Set(dropped.map((d) => d.index));
  return { ok: true, intents: (result as QuoteIntent[]).filter((_, i) => !bad.has(i)), dropped };
}

/** Why one intent cannot be acted on, or null when it can. */
function intentProblem(x: unknown): string | null {
  if (typeof x !== 'object' || x === null) return `intent is ${describe(x)}`;
  const i = x as Record<string, unknown>;
  if (typeof i.key !== 'string') return `key is ${describe(i.key)}, not a string`;
  const selection = selectionProblem(i.selection);
  if (selection !== null) return selection;
  if (!isValidAmericanOdds(i.odds)) return `odds ${describe(i.odds)} are not American odds (an integer, |odds| ≥ 100)`;
  if (typeof i.size !== 'number' || !Number.isFinite(i.size) || i.size <= 0)
    return `size ${describe(i.size)} is not a finite positive stake`;
  if (i.orderType !== undefined && !ORDER_TYPES.has(i.orderType))
    return `orderType ${describe(i.orderType)} is unknown`;
  // The optional numbers, each read by its name: every intent of every evaluation is
  // checked, and a read through a list of names is a keyed lookup on each.
  if (!optionalNumber(i.expirationMinutes)) return `expirationMinutes ${describe(i.expirationMinutes)} ${NOT_NUMBER}`;
  if (!optionalNumber(i.toleranceCents)) return `toleranceCents ${describe(i.toleranceCents)} ${NOT_NUMBER}`;
  if (!optionalNumber(i.sizeTolerance)) return `sizeTolerance ${describe(i.sizeTolerance)} ${NOT_NUMBER}`;
  return null;
}

const NOT_NUMBER = 'is not a finite number ≥ 0';

/** An optional numeric field: absent, or a finite number ≥ 0. */
function optionalNumber(v: unknown): boolean {
  return v === undefined || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
}

function selectionProblem(x: unknown): string | null {
  if (typeof x !== 'object' || x === null) return `selection is ${describe(x)}`;
  const s = x as Record<string, unknown>;
  const team = s.team === 'home' || s.team === 'away';
  const line = typeof s.line === 'number' && isQuarterMultiple(s.line);
  switch (s.type) {
    case 'moneyline':
      return team ? null : `moneyline selection without a team (${describe(s.team)})`;
    case 'spread':
      return team && line
        ? null
        : `spread selection needs a team and a line in quarters (${describe(s.team)}, ${describe(s.line)})`;
    case 'total':
      return (s.ou === 'over' || s.ou === 'under') && line
        ? null
        : `total selection needs over/under and a line in quarters (${describe(s.ou)}, ${describe(s.line)})`;
    case 'moneyline1x2':
      return (s.outcome === 'home' || s.outcome === 'away' || s.outcome === 'draw') && typeof s.yes === 'boolean'
        ? null
        : `moneyline1x2 selection needs an outcome and yes (${describe(s.outcome)}, ${describe(s.yes)})`;
    default:
      return `selection type ${describe(s.type)} is unknown`;
  }
}

/** A short, safe rendering of a bad value for the log. */
function describe(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}
