/**
 * JSON text of a value in pieces whose concatenation is exactly `JSON.stringify(value)`:
 * objects and arrays are opened down to `depth` levels and what lies below is stringified
 * whole. A large report then goes to its file a piece at a time instead of as one string
 * built beside the objects it is made from (JSON.stringify's parts, the flat copy, then the
 * bytes written: for a 15 MB report some 45 MB at once).
 *
 * Matches JSON.stringify for what JSON.stringify accepts: `toJSON` is called with the key,
 * a property whose value has no JSON (undefined, a function, a symbol) is left out of an
 * object and is `null` in an array, and accessor properties are read as JSON.stringify
 * reads them. Nothing is yielded for a root value that has no JSON.
 */
export function* jsonChunks(value: unknown, depth: number, key = ''): Generator<string> {
  const v = withToJson(value, key);
  if (depth <= 0 || v === null || typeof v !== 'object' || isBoxed(v)) {
    const text = JSON.stringify(v);
    if (text !== undefined) yield text;
    return;
  }
  if (Array.isArray(v)) {
    yield '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) yield ',';
      let any = false;
      for (const c of jsonChunks(v[i], depth - 1, String(i))) {
        any = true;
        yield c;
      }
      if (!any) yield 'null';
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const inner = jsonChunks(o[k], depth - 1, k);
    const head = inner.next();
    if (head.done) continue;
    yield `${first ? '' : ','}${JSON.stringify(k)}:${head.value}`;
    first = false;
    yield* inner;
  }
  yield '}';
}

function withToJson(value: unknown, key: string): unknown {
  if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return (toJSON as (k: string) => unknown).call(value, key);
  }
  return value;
}

/** Number, String and Boolean objects, which JSON.stringify writes as their primitive values. */
function isBoxed(v: object): boolean {
  return v instanceof Number || v instanceof String || v instanceof Boolean;
}
