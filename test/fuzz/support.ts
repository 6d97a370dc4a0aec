import fc from 'fast-check';
import { LinesmithError } from '../../src/shared/errors.ts';

/**
 * How hard a run fuzzes. Each property's written run count is its thorough figure; `npm test`
 * runs a quarter of it (at least 10, or the figure when smaller), with a fresh seed each
 * time, so the suite stays fast and runs add up to the thorough figure and beyond.
 * `LINESMITH_FUZZ_RUNS=4` runs four times the written figures (`=1`: exactly them);
 * `LINESMITH_FUZZ_SEED=<n>` fixes fast-check's seed, to replay a failure it reported.
 */
const FUZZ_SCALE = positiveNumber('LINESMITH_FUZZ_RUNS') ?? 0.25;
const FUZZ_SEED = process.env.LINESMITH_FUZZ_SEED;
if (FUZZ_SEED !== undefined && FUZZ_SEED !== '') {
  const seed = Number(FUZZ_SEED);
  if (!Number.isInteger(seed)) throw new Error(`LINESMITH_FUZZ_SEED is an integer, not ${FUZZ_SEED}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}

function positiveNumber(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`${name} is a positive number, not ${text}`);
  return n;
}

/** The runs of a property written with `written` runs, as this run fuzzes (see FUZZ_SCALE). */
export function fuzzRuns(written: number): number {
  return Math.max(Math.min(written, 10), Math.round(written * FUZZ_SCALE));
}

/**
 * Shared arbitraries for the edge-parser fuzz tests: valid values mutated one or a few
 * fields at a time (dropped, wrong type, huge or non-finite numbers, "NaN" strings, deep
 * nesting, odd unicode, prototype keys), their JSON text damaged (truncated, garbage
 * spliced in), and random JSON. Every arbitrary yields *text*, since that is what crosses
 * the edge; what JSON.stringify cannot write (nesting deeper than the stack, `1e400`) goes
 * in through sentinels replaced in the text.
 */

/** Sentinels replaced in the serialised text. */
const DEEP = '\u0000ls-deep\u0000';
const HUGE = '\u0000ls-huge\u0000';
const TINY = '\u0000ls-tiny\u0000';

/** Nesting far beyond any schema's depth; JSON.parse copes, JSON.stringify and naive recursion do not. */
export const DEEP_DEPTH = 20_000;
export const deepJsonText = (depth = DEEP_DEPTH): string => '['.repeat(depth) + ']'.repeat(depth);
export const deepObjectText = (depth = DEEP_DEPTH): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** JSON.stringify, then the sentinels turned into what it cannot produce. */
export function toText(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll(JSON.stringify(DEEP), deepJsonText())
    .replaceAll(JSON.stringify(HUGE), '1e400')
    .replaceAll(JSON.stringify(TINY), '-1e-400');
}

/** Values that stand in for a field: wrong types, extremes, odd text. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -0,
    -1,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    5e-324,
    0.1 + 0.2,
    '',
    ' ',
    'NaN',
    'Infinity',
    '-Infinity',
    'null',
    'undefined',
    '1e400',
    '0x1f',
    '٣',
    '\ud800',
    '\u202e\u0000',
    '💥'.repeat(3),
    'a'.repeat(70_000),
    [],
    {},
    [null],
    { __proto__: null, toString: 'x' },
    JSON.parse('{"__proto__":{"polluted":1}}') as unknown,
    DEEP,
    HUGE,
    TINY,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.jsonValue({ maxDepth: 2 }),
);

type Path = readonly (string | number)[];

/** Every path into a JSON value (the root included), depth first. */
export function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  return out;
}

type Mutation =
  | { readonly kind: 'drop' }
  | { readonly kind: 'set'; readonly value: unknown }
  | { readonly kind: 'addKey'; readonly key: string; readonly value: unknown }
  | { readonly kind: 'wrap' };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Mutation>({ kind: 'drop' }) },
  { weight: 5, arbitrary: oddValue.map((value): Mutation => ({ kind: 'set', value })) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', ''), fc.string({ maxLength: 8 })),
        value: oddValue,
      })
      .map((r): Mutation => ({ kind: 'addKey', ...r })),
  },
  { weight: 1, arbitrary: fc.constant<Mutation>({ kind: 'wrap' }) },
);

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function apply(root: unknown, path: Path, m: Mutation): unknown {
  // A copy: the constants are shared instances, and a later step could put one inside itself.
  const value = m.kind === 'set' || m.kind === 'addKey' ? clone(m.value) : undefined;
  if (path.length === 0) {
    if (m.kind === 'set') return value;
    if (m.kind === 'wrap') return [root];
    if (m.kind === 'drop') return undefined;
  }
  const parentPath = m.kind === 'addKey' ? path : path.slice(0, -1);
  let parent: unknown = root;
  for (const k of parentPath) parent = (parent as Record<string | number, unknown>)[k];
  if (m.kind === 'addKey') {
    if (parent !== null && typeof parent === 'object' && !Array.isArray(parent))
      Object.defineProperty(parent, m.key, { value, enumerable: true, writable: true, configurable: true });
    return root;
  }
  const key = path[path.length - 1]!;
  const p = parent as Record<string | number, unknown>;
  if (m.kind === 'drop') {
    if (Array.isArray(p)) p.splice(key as number, 1);
    else delete p[key];
  } else if (m.kind === 'wrap') p[key] = [p[key]];
  else p[key] = value;
  return root;
}

/** A valid value with one to three fields mutated. */
export function mutatedValue(valid: unknown): fc.Arbitrary<unknown> {
  return fc.array(fc.tuple(fc.nat(), mutationArb), { minLength: 1, maxLength: 3 }).map((steps) => {
    let v = clone(valid);
    for (const [n, m] of steps) {
      if (v === undefined) break;
      const paths = pathsOf(v);
      v = apply(v, paths[n % paths.length]!, m);
    }
    return v;
  });
}

/** Damage done to the text itself. */
export function damagedText(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    text,
    fc.tuple(text, fc.nat()).map(([t, n]) => t.slice(0, n % Math.max(1, t.length))),
    fc.tuple(text, fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 4 })).map(([t, n, junk]) => {
      const i = n % (t.length + 1);
      return t.slice(0, i) + junk + t.slice(i);
    }),
    fc.tuple(text, fc.nat(), fc.nat({ max: 16 })).map(([t, n, k]) => {
      const i = n % (t.length + 1);
      return t.slice(0, i) + t.slice(i + k);
    }),
  );
}

/** The text of a valid value mutated, sometimes damaged as text too. */
export function mutatedText(valid: unknown): fc.Arbitrary<string> {
  const mutated = mutatedValue(valid).map((v) => (v === undefined ? '' : toText(v)));
  return fc.oneof(
    { weight: 4, arbitrary: mutated },
    { weight: 1, arbitrary: damagedText(fc.constant(toText(valid))) },
    { weight: 1, arbitrary: damagedText(mutated) },
  );
}

/** Random text: JSON of any shape, near-JSON, and plain junk. */
export const randomText: fc.Arbitrary<string> = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify([typeof v === 'string' ? v : 'x', v])),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom(
    '',
    ' ',
    '[',
    ']',
    '{}',
    '[]',
    '[""]',
    '["orderUpdate"]',
    'null',
    'true',
    '"x"',
    '1e400',
    '[1e400]',
    '-',
    '\u0000',
    '\ufeff[]',
    deepJsonText(),
    deepObjectText(),
    `[${'"a",'.repeat(50_000)}"a"]`,
  ),
);

/** Mutations of every valid sample, and random text, in one arbitrary. */
export function frameText(valid: readonly unknown[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...valid).chain(mutatedText) },
    { weight: 1, arbitrary: randomText },
  );
}

/** The error classes an edge parser may raise; anything else is a bug. */
export function expectTyped(err: unknown, ...allowed: (abstract new (...args: never[]) => Error)[]): void {
  const classes = allowed.length > 0 ? allowed : [LinesmithError];
  if (!classes.some((c) => err instanceof c)) {
    const e = err as Error;
    throw new Error(`untyped error ${e?.constructor?.name ?? typeof err}: ${String(e?.message ?? err).slice(0, 300)}`, {
      cause: err,
    });
  }
}

/** Rejects when `p` has not settled within `ms`: a hang is a failure, not a stuck test. */
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One fuzzed HTTP request: raw body text and the Authorization header as sent, if any. */
export interface FuzzHttpRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  readonly authorization?: string | undefined;
}

/** Sends it (bounded at 5 s, so a hang fails) and reads the answer, parsed when it is JSON. */
export async function sendFuzzed(
  baseUrl: string,
  req: FuzzHttpRequest,
): Promise<{ status: number; body: unknown; contentType: string | null }> {
  const headers: Record<string, string> = {};
  if (req.authorization !== undefined) headers.authorization = req.authorization;
  if (req.body !== undefined) headers['content-type'] = req.contentType ?? 'application/json';
  const res = await fetch(baseUrl + req.path, {
    method: req.method,
    headers,
    ...(req.body !== undefined && req.method !== 'GET' ? { body: req.body } : {}),
    signal: AbortSignal.timeout(5_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* kept as text: a caller checking for {error} fails on it */
  }
  return { status: res.status, body, contentType: res.headers.get('content-type') };
}

/** Whether an answer carries an error the contract's way: `{error: string}` or `{error: {message}}`. */
export const hasErrorBody = (body: unknown): boolean => {
  const e = (body as { error?: unknown } | null)?.error;
  return (
    typeof e === 'string' ||
    (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string')
  );
};
