/**
 * Deterministic 24-hex ObjectID-shaped ids. The first 8 hex digits come from the seed so
 * ids of two engines (or two runs with different seeds) do not collide; the remaining 16
 * are a counter, so ids also sort by creation.
 */
export interface IdGenerator {
  next(): string;
}

export const OBJECT_ID = /^[0-9a-f]{24}$/;

/** Same test as OBJECT_ID; a loop over char codes, since cancels check every id they get. */
export function isObjectId(x: unknown): x is string {
  if (typeof x !== 'string' || x.length !== 24) return false;
  for (let i = 0; i < 24; i++) {
    const c = x.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

export function createIdGenerator(seed = 1, start = 1): IdGenerator {
  return new CountingIds(seed, start);
}

const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

/**
 * The built-in generator: the seed's prefix and a counter. Because an id is its counter,
 * the engine can take one now and spell it only when something reads it (see IdTokens).
 */
export class CountingIds implements IdGenerator {
  readonly #prefix: string;
  readonly #codes: readonly number[];
  #counter: number;

  constructor(seed: number, start: number) {
    this.#prefix = (seed >>> 0 || 1).toString(16).padStart(8, '0').slice(-8);
    this.#codes = Array.from(this.#prefix, (ch) => ch.charCodeAt(0));
    this.#counter = start;
  }

  /** An own property, as the generator always had: it may be called detached. */
  readonly next = (): string => this.spell(this.#counter++);

  /** The next counter, without spelling it. */
  take(): number {
    return this.#counter++;
  }

  spell(n: number): string {
    // Concatenation would make a rope of several strings that every hash lookup flattens;
    // one fromCharCode call builds the flat 24-character string directly. Counters that
    // are not non-negative safe integers keep the general spelling.
    if (!isCounter(n)) return this.#prefix + n.toString(16).padStart(16, '0');
    const p = this.#codes;
    const h = HEX;
    const hi = Math.floor(n / 4294967296);
    const lo = n >>> 0;
    return String.fromCharCode(
      p[0]!,
      p[1]!,
      p[2]!,
      p[3]!,
      p[4]!,
      p[5]!,
      p[6]!,
      p[7]!,
      h[hi >>> 28]!,
      h[(hi >>> 24) & 15]!,
      h[(hi >>> 20) & 15]!,
      h[(hi >>> 16) & 15]!,
      h[(hi >>> 12) & 15]!,
      h[(hi >>> 8) & 15]!,
      h[(hi >>> 4) & 15]!,
      h[hi & 15]!,
      h[lo >>> 28]!,
      h[(lo >>> 24) & 15]!,
      h[(lo >>> 20) & 15]!,
      h[(lo >>> 16) & 15]!,
      h[(lo >>> 12) & 15]!,
      h[(lo >>> 8) & 15]!,
      h[(lo >>> 4) & 15]!,
      h[lo & 15]!,
    );
  }

  /** The counter `id` spells with this prefix, or -1 when it is not such an id. */
  counterOf(id: string): number {
    if (id.length !== 24) return -1;
    const p = this.#codes;
    for (let i = 0; i < 8; i++) if (id.charCodeAt(i) !== p[i]) return -1;
    let n = 0;
    for (let i = 8; i < 24; i++) {
      const c = id.charCodeAt(i);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (d < 0) return -1;
      n = n * 16 + d;
    }
    // Above 2^53 the sum is no longer exact; such counters are never taken.
    return n <= Number.MAX_SAFE_INTEGER ? n : -1;
  }
}

function isCounter(n: number): boolean {
  return n >= 0 && n <= Number.MAX_SAFE_INTEGER && Number.isInteger(n);
}

/**
 * An id as the engine keeps it: a counter of the built-in generator, spelled when read,
 * or the id string another generator made. Orders and bets outlive the call that made
 * them; holding numbers, they keep no strings alive.
 */
export type IdToken = number | string;

/** How many spellings IdTokens keeps (a power of two). */
const SPELT = 64;

/** Takes ids from the engine's generator as tokens and spells tokens back into ids. */
export class IdTokens {
  readonly #ids: IdGenerator;
  readonly #counting: CountingIds | null;
  /** The latest spellings, by the counter's low bits: a counter, and the id it spells. */
  readonly #spelt = new Float64Array(SPELT).fill(-1);
  readonly #spellings: string[] = new Array<string>(SPELT).fill('');

  constructor(ids: IdGenerator) {
    this.#ids = ids;
    this.#counting = ids instanceof CountingIds ? ids : null;
  }

  take(): IdToken {
    const counting = this.#counting;
    if (counting === null) return this.#ids.next();
    const n = counting.take();
    return isCounter(n) ? n : counting.spell(n);
  }

  spell(token: IdToken): string {
    if (typeof token === 'string') return token;
    // An order's ids are read several times in its first calls (its answer, its event, its
    // listing) and at its close: the latest spellings are kept, so each is built once and
    // every map it keys hashes one string.
    const at = token & (SPELT - 1);
    if (this.#spelt[at] === token) return this.#spellings[at]!;
    const id = this.#counting!.spell(token);
    this.#spelt[at] = token;
    this.#spellings[at] = id;
    return id;
  }

  /** The counter token of `id`, or -1 when `id` is not a counter this engine's generator spells. */
  counterOf(id: string): number {
    return this.#counting === null ? -1 : this.#counting.counterOf(id);
  }
}
