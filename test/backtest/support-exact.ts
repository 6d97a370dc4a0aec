/** Every value's keys in order and every value, -0 told from 0: what "the same item" means for the tape. */
export function exact(v: unknown): unknown {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : v;
  if (v === undefined) return '(undefined)';
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(exact);
  return Object.entries(v).map(([k, x]) => [k, exact(x)]);
}
