/** One invariant over the simulator's ledger: how much was checked, what broke. */
export interface InvariantResult {
  readonly name: string;
  /** How many things were checked (orders, fills, …, as `unit` says). */
  readonly checked: number;
  readonly unit: string;
  readonly violations: number;
  /** Up to a few examples of what broke, and other facts worth printing. */
  readonly notes: readonly string[];
}

export const passed = (r: InvariantResult): boolean => r.violations === 0;

const MAX_EXAMPLES = 5;

/**
 * An invariant's result. A check that had nothing to check proves nothing, so it fails: a
 * soak whose story did not happen (no fills, no lapse, nothing found at the restart) must
 * not read as a pass.
 */
export function result(
  name: string,
  checked: number,
  unit: string,
  broken: readonly string[],
  notes: readonly string[] = [],
): InvariantResult {
  const all = checked > 0 ? broken : [`nothing to check: 0 ${unit}`, ...broken];
  return { name, checked, unit, violations: all.length, notes: [...notes, ...all.slice(0, MAX_EXAMPLES)] };
}
