/**
 * The tape's chunk codec: a batch of parsed values (plain JSON-like objects, arrays,
 * strings, numbers, booleans, null) laid out in typed columns, so that reading them back
 * is walking arrays, not scanning text.
 *
 * - `tags`: one byte per value, what it is;
 * - `nums`: every number, as float64 (exact for any JSON number);
 * - `refs`: for a string its index in the chunk's string table, for an array its length,
 *   for an object the index of its shape (its keys, in order) in the shape table;
 * - the string and shape tables, once per chunk: an id or a label repeated on every book
 *   order is stored, and built again on reading, once.
 *
 * Objects come back with their keys in the order written, and every value the way it was,
 * so a decoded item equals the item encoded (the tape tests compare them on the samples).
 */

const Tag = { Null: 0, False: 1, True: 2, Num: 3, Str: 4, Arr: 5, Obj: 6, Undef: 7 } as const;
type Tag = (typeof Tag)[keyof typeof Tag];

/** What one chunk holds, ready to be written: the typed columns and the two tables as JSON text. */
export interface EncodedChunk {
  readonly count: number;
  readonly tags: Uint8Array;
  readonly nums: Float64Array;
  readonly refs: Uint32Array;
  readonly strings: string;
  readonly shapes: string;
}

/** Collects values into one chunk's columns. */
export class ChunkEncoder {
  #tags = new Uint8Array(1 << 16);
  #nums = new Float64Array(1 << 13);
  #refs = new Uint32Array(1 << 14);
  #nTags = 0;
  #nNums = 0;
  #nRefs = 0;
  #count = 0;
  readonly #strings = new Map<string, number>();
  readonly #shapes = new Map<string, number>();
  readonly #shapeKeys: number[][] = [];

  get count(): number {
    return this.#count;
  }

  /** Bytes the chunk holds so far (about its size on disk). */
  get bytes(): number {
    return this.#nTags + this.#nNums * 8 + this.#nRefs * 4;
  }

  add(value: unknown): void {
    this.#value(value);
    this.#count++;
  }

  finish(): EncodedChunk {
    const strings = JSON.stringify([...this.#strings.keys()]);
    const shapes = JSON.stringify(this.#shapeKeys);
    const out: EncodedChunk = {
      count: this.#count,
      tags: this.#tags.slice(0, this.#nTags),
      nums: this.#nums.slice(0, this.#nNums),
      refs: this.#refs.slice(0, this.#nRefs),
      strings,
      shapes,
    };
    this.#nTags = this.#nNums = this.#nRefs = this.#count = 0;
    this.#strings.clear();
    this.#shapes.clear();
    this.#shapeKeys.length = 0;
    return out;
  }

  #tag(t: Tag): void {
    if (this.#nTags === this.#tags.length) this.#tags = grow(this.#tags, new Uint8Array(this.#tags.length * 2));
    this.#tags[this.#nTags++] = t;
  }

  #num(n: number): void {
    if (this.#nNums === this.#nums.length) this.#nums = grow(this.#nums, new Float64Array(this.#nums.length * 2));
    this.#nums[this.#nNums++] = n;
  }

  #ref(r: number): void {
    if (this.#nRefs === this.#refs.length) this.#refs = grow(this.#refs, new Uint32Array(this.#refs.length * 2));
    this.#refs[this.#nRefs++] = r;
  }

  #string(s: string): number {
    let id = this.#strings.get(s);
    if (id === undefined) {
      id = this.#strings.size;
      this.#strings.set(s, id);
    }
    return id;
  }

  #value(v: unknown): void {
    switch (typeof v) {
      case 'number':
        this.#tag(Tag.Num);
        this.#num(v);
        return;
      case 'string':
        this.#tag(Tag.Str);
        this.#ref(this.#string(v));
        return;
      case 'boolean':
        this.#tag(v ? Tag.True : Tag.False);
        return;
      case 'undefined':
        this.#tag(Tag.Undef);
        return;
      case 'object':
        if (v === null) {
          this.#tag(Tag.Null);
          return;
        }
        if (Array.isArray(v)) {
          this.#tag(Tag.Arr);
          this.#ref(v.length);
          for (const x of v) this.#value(x);
          return;
        }
        this.#object(v as Record<string, unknown>);
        return;
      default:
        throw new TypeError(`a tape holds JSON values, not ${typeof v}`);
    }
  }

  #object(o: Record<string, unknown>): void {
    const keys = Object.keys(o);
    const sig = keys.join('\u0000');
    let shape = this.#shapes.get(sig);
    if (shape === undefined) {
      shape = this.#shapeKeys.length;
      this.#shapes.set(sig, shape);
      this.#shapeKeys.push(keys.map((k) => this.#string(k)));
    }
    this.#tag(Tag.Obj);
    this.#ref(shape);
    for (const k of keys) this.#value(o[k]);
  }
}

function grow<T extends Uint8Array | Float64Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** The columns of one chunk as read back (views on the chunk's bytes). */
export interface ChunkColumns {
  readonly count: number;
  readonly tags: Uint8Array;
  readonly nums: Float64Array;
  readonly refs: Uint32Array;
  readonly strings: readonly string[];
  readonly shapes: readonly (readonly number[])[];
}

/**
 * The values of one chunk, in order. Objects are made by one function per shape that
 * writes every key in one literal, so all objects of a shape share one hidden class, as
 * JSON.parse's would.
 */
export function decodeChunk(c: ChunkColumns): unknown[] {
  const { tags, nums, refs, strings } = c;
  const makers = c.shapes.map((keys) => shapeMaker(keys.map((k) => strings[k]!)));
  let ti = 0;
  let ni = 0;
  let ri = 0;
  const value = (): unknown => {
    switch (tags[ti++] as Tag) {
      case Tag.Num:
        return nums[ni++];
      case Tag.Str:
        return strings[refs[ri++]!];
      case Tag.Obj:
        return makers[refs[ri++]!]!(value);
      case Tag.Arr: {
        const n = refs[ri++]!;
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = value();
        return out;
      }
      case Tag.Null:
        return null;
      case Tag.False:
        return false;
      case Tag.True:
        return true;
      case Tag.Undef:
        return undefined;
      default:
        throw new TapeDecodeError(`unknown value tag ${tags[ti - 1]} at ${ti - 1}`);
    }
  };
  const out = new Array<unknown>(c.count);
  for (let i = 0; i < c.count; i++) out[i] = value();
  if (ti !== tags.length || ni !== nums.length || ri !== refs.length)
    throw new TapeDecodeError('the chunk holds more than its values');
  return out;
}

/** A chunk whose columns do not decode: a tape written by other code, or damaged past its checksum. */
export class TapeDecodeError extends Error {
  override readonly name = 'TapeDecodeError';
}

type Maker = (next: () => unknown) => Record<string, unknown>;

const makerCache = new Map<string, Maker>();

/**
 * A function that builds an object of these keys, values taken in order. Generated once per
 * shape (the same few shapes recur in every chunk): `{ "id": next(), "odds": next(), … }`.
 * A key that an object literal would treat specially (`__proto__`) is set as an own
 * property instead, as JSON.parse does.
 */
function shapeMaker(keys: readonly string[]): Maker {
  const sig = keys.join('\u0000');
  let m = makerCache.get(sig);
  if (m) return m;
  if (keys.includes('__proto__') || keys.length > 64) {
    m = (next) => {
      const o: Record<string, unknown> = {};
      for (const k of keys)
        Object.defineProperty(o, k, { value: next(), enumerable: true, writable: true, configurable: true });
      return o;
    };
  } else {
    // Keys go in as JSON string literals: no key can break out of them.
    const body = `return {${keys.map((k) => `${JSON.stringify(k)}: next()`).join(', ')}};`;
    m = new Function('next', body) as Maker;
  }
  if (makerCache.size < 4096) makerCache.set(sig, m);
  return m;
}
