/**
 * The tape's chunk codec: a batch of parsed values (plain JSON-like objects, arrays,
 * strings, numbers, booleans, null) laid out in typed columns, so that reading them back
 * is walking arrays, not scanning text.
 *
 * - `tags`: one byte per value, what it is;
 * - `nums`: every number, as float64 (exact for any JSON number);
 * - `refs`: for a string its index in the chunk's string table, for an array its length,
 *   for an object the index of its shape (its keys, in order) in the shape table, for a
 *   repeated object the index of its first copy among the chunk's flat objects;
 * - the string and shape tables, once per chunk: an id or a label repeated on every book
 *   order is stored, and built again on reading, once.
 *
 * A flat object (at least one key, each value one tag: a string, number, boolean, null,
 * empty array, `{}` or repeated object) that equals one written before in the chunk is written as a reference
 * to it, and read back as that same object. A side update lists the side's every order
 * again, most of them unchanged since the update before: those are stored, decoded and
 * allocated once per chunk instead of once per update. Nothing changes a decoded item, so
 * sharing is safe; the values stay equal to the items encoded.
 *
 * Objects come back with their keys in the order written, and every value the way it was,
 * so a decoded item equals the item encoded (the tape tests compare them on the samples).
 */

import { TapeDecodeError } from './codec-error.ts';
import { UpdateDecoder, UpdateEncoder, type EncodedUpdates } from './update-codec.ts';

export { TapeDecodeError };

/** A value's tag; `Update` is a side update written to its own typed columns (`update-codec.ts`). */
const Tag = { Null: 0, False: 1, True: 2, Num: 3, Str: 4, Arr: 5, Obj: 6, Undef: 7, Same: 8, Update: 9 } as const;
type Tag = (typeof Tag)[keyof typeof Tag];

/** What one chunk holds, ready to be written: the typed columns and the tables as JSON text. */
export interface EncodedChunk {
  readonly count: number;
  readonly tags: Uint8Array;
  readonly nums: Float64Array;
  readonly refs: Uint32Array;
  readonly strings: string;
  readonly shapes: string;
  /** The side updates' columns and layout table (`update-codec.ts`). */
  readonly updates: EncodedUpdates;
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
  /** Every object shape met in this encoder's life, as a tree of keys in order; numbered per chunk. */
  readonly #root = new ShapeNode([]);
  /** Which chunk this is: a shape node numbered in another chunk is numbered again. */
  #chunk = 0;
  readonly #shapeKeys: number[][] = [];
  /** Flat objects written so far, by a hash of their columns: their ordinals. */
  readonly #flat = new Map<number, number[]>();
  /** Per flat object (by ordinal): where its tags, numbers and refs start and end. */
  #flatAt: number[] = [];
  /** An object's values while it is written, one array per nesting depth. */
  readonly #scratch: unknown[][] = [];
  #depth = 0;
  /** Side updates, in columns of their own; their strings go to this chunk's string table. */
  readonly #updates = new UpdateEncoder((s) => this.#string(s));

  get count(): number {
    return this.#count;
  }

  /** Bytes the chunk holds so far (about its size on disk). */
  get bytes(): number {
    return this.#nTags + this.#nNums * 8 + this.#nRefs * 4 + this.#updates.bytes;
  }

  add(value: unknown): void {
    if (this.#updates.add(value)) this.#tag(Tag.Update);
    else {
      // A value that failed part way (not JSON) left the depth where it stopped.
      this.#depth = 0;
      this.#value(value);
    }
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
      updates: this.#updates.finish(),
    };
    this.#nTags = this.#nNums = this.#nRefs = this.#count = 0;
    this.#strings.clear();
    this.#chunk++;
    this.#shapeKeys.length = 0;
    this.#flat.clear();
    this.#flatAt = [];
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
    // The keys and values first (for-in over a plain object gives its own keys in Object.keys
    // order without making the array, and reads each value through the enumeration cache).
    const depth = this.#depth++;
    const vals = (this.#scratch[depth] ??= []);
    let node = this.#root;
    let n = 0;
    let primitive = true;
    for (const k in o) {
      node = node.next(k);
      const v = o[k];
      if (typeof v === 'object' && v !== null) primitive = false;
      vals[n++] = v;
    }
    if (node.chunk !== this.#chunk) {
      node.chunk = this.#chunk;
      node.id = this.#shapeKeys.length;
      this.#shapeKeys.push(node.keys.map((k) => this.#string(k)));
      node.seen.clear();
    }
    // An object of primitives met before in the chunk (a book order listed again) is found by
    // its first value and compared value by value, before any of it is written.
    const seen = primitive && n > 0 ? node.seen.get(vals[0]) : undefined;
    if (seen !== undefined && sameValues(seen.values, vals, n)) {
      this.#tag(Tag.Same);
      this.#ref(seen.ordinal);
      this.#depth--;
      return;
    }
    const t0 = this.#nTags;
    const n0 = this.#nNums;
    const r0 = this.#nRefs;
    this.#tag(Tag.Obj);
    this.#ref(node.id);
    for (let i = 0; i < n; i++) this.#value(vals[i]);
    this.#depth--;
    // Not `{}`: flat itself, and inside a flat object that is taken back it would be numbered for nothing.
    if (n > 0 && this.#nTags - t0 === 1 + n) {
      const ordinal = this.#flatObject(t0, n0, r0);
      if (primitive) node.seen.set(vals[0], { ordinal, values: vals.slice(0, n) });
    }
  }

  /**
   * The flat object just written at these starts: kept as it is if new, or taken back and
   * written as a reference to its first copy. Its ordinal, either way.
   */
  #flatObject(t0: number, n0: number, r0: number): number {
    const t1 = this.#nTags;
    const n1 = this.#nNums;
    const r1 = this.#nRefs;
    const tags = this.#tags;
    const nums = this.#nums;
    const refs = this.#refs;
    let h = 0;
    for (let i = t0; i < t1; i++) h = Math.imul(h ^ tags[i]!, 0x01000193);
    for (let i = r0; i < r1; i++) h = Math.imul(h ^ refs[i]!, 0x01000193);
    // Exactness is the comparison's job: the hash only has to spread the usual values.
    for (let i = n0; i < n1; i++) h = Math.imul(h ^ (nums[i]! * 4096), 0x01000193);
    const at = this.#flatAt;
    const seen = this.#flat.get(h);
    if (seen !== undefined) {
      for (const k of seen) {
        const b = k * 6;
        if (
          at[b + 1]! - at[b]! === t1 - t0 &&
          at[b + 3]! - at[b + 2]! === n1 - n0 &&
          at[b + 5]! - at[b + 4]! === r1 - r0 &&
          same(tags, at[b]!, t0, t1 - t0) &&
          same(nums, at[b + 2]!, n0, n1 - n0) &&
          same(refs, at[b + 4]!, r0, r1 - r0)
        ) {
          this.#nTags = t0;
          this.#nNums = n0;
          this.#nRefs = r0;
          this.#tag(Tag.Same);
          this.#ref(k);
          return k;
        }
      }
    }
    const k = at.length / 6;
    at.push(t0, t1, n0, n1, r0, r1);
    if (seen === undefined) this.#flat.set(h, [k]);
    else seen.push(k);
    return k;
  }
}

/**
 * One object shape (its keys, in order) in the encoder's tree of shapes: the shape of an
 * object is found by walking its keys from the root, one step per key, without building a
 * signature string. Most nodes have one child (the keys of a record kind follow each other
 * the same way every time), kept beside the node; others go in a map.
 */
class ShapeNode {
  readonly keys: readonly string[];
  /** The shape's number in the chunk `chunk` (a number is per chunk). */
  id = 0;
  chunk = -1;
  /** This chunk's flat objects of primitives of this shape, by their first value: the last one written. */
  readonly seen = new Map<unknown, { readonly ordinal: number; readonly values: readonly unknown[] }>();
  #key: string | undefined = undefined;
  #child: ShapeNode | undefined = undefined;
  #more: Map<string, ShapeNode> | undefined = undefined;

  constructor(keys: readonly string[]) {
    this.keys = keys;
  }

  next(k: string): ShapeNode {
    if (this.#key === k) return this.#child!;
    if (this.#child === undefined) {
      this.#key = k;
      return (this.#child = new ShapeNode([...this.keys, k]));
    }
    this.#more ??= new Map();
    let c = this.#more.get(k);
    if (c === undefined) this.#more.set(k, (c = new ShapeNode([...this.keys, k])));
    return c;
  }
}

/** Whether two objects' first `n` values are the same (`Object.is`: -0 is not 0, as the columns compare). */
function sameValues(a: readonly unknown[], b: readonly unknown[], n: number): boolean {
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Whether `a[i..i+n)` and `a[j..j+n)` hold the same values (numbers compared by their bits: -0 is not 0). */
function same(a: Uint8Array | Float64Array | Uint32Array, i: number, j: number, n: number): boolean {
  for (let x = 0; x < n; x++) {
    const u = a[i + x]!;
    const v = a[j + x]!;
    if (u !== v || (u === 0 && 1 / u !== 1 / v)) {
      // NaN is no JSON number; treated as equal to itself all the same.
      if (!(u !== u && v !== v)) return false;
    }
  }
  return true;
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
  /** The side updates' columns and layouts (`update-codec.ts`). */
  readonly updates: {
    readonly nums: Float64Array;
    readonly refs: Uint32Array;
    readonly layouts: readonly (readonly string[])[];
  };
}

/**
 * The values of one chunk, in order. Objects are made by one function per shape that
 * writes every key in one literal, so all objects of a shape share one hidden class, as
 * JSON.parse's would.
 */
export function decodeChunk(c: ChunkColumns): unknown[] {
  const d = new ChunkDecoder(c);
  const out = d.take(c.count);
  d.end();
  return out;
}

/** The values of a chunk just encoded (its tables parsed as a reader parses them): a round trip without a file. */
export function decodeEncodedChunk(c: EncodedChunk): unknown[] {
  return decodeChunk({
    count: c.count,
    tags: c.tags,
    nums: c.nums,
    refs: c.refs,
    strings: JSON.parse(c.strings) as string[],
    shapes: JSON.parse(c.shapes) as number[][],
    updates: {
      nums: c.updates.nums,
      refs: c.updates.refs,
      layouts: JSON.parse(c.updates.layouts) as string[][],
    },
  });
}

/**
 * Reads one chunk's values a few at a time, in order, from its columns: what a reader holds
 * decoded is the values it took and still uses, not the whole chunk. Values taken from one
 * decoder share its repeated flat objects, as `decodeChunk`'s do.
 */
export class ChunkDecoder {
  readonly #s: DecodeState;
  readonly #count: number;
  #taken = 0;

  constructor(c: ChunkColumns) {
    this.#count = c.count;
    this.#s = new DecodeState(c);
  }

  /** Values not taken yet. */
  get left(): number {
    return this.#count - this.#taken;
  }

  /** The next `n` values (fewer at the end of the chunk). */
  take(n: number): unknown[] {
    const k = Math.min(n, this.#count - this.#taken);
    const out = new Array<unknown>(k);
    const s = this.#s;
    for (let i = 0; i < k; i++) out[i] = s.other(s.tags[s.ti++]!);
    this.#taken += k;
    return out;
  }

  /** Checks that every value was taken and the columns hold nothing more. */
  end(): void {
    const s = this.#s;
    if (
      this.#taken !== this.#count ||
      s.ti !== s.tags.length ||
      s.ni !== s.nums.length ||
      s.ri !== s.refs.length ||
      !s.updates.done
    )
      throw new TapeDecodeError('the chunk holds more than its values');
  }
}

/**
 * Where a decoder is in its chunk's columns. The shape makers (`shapeMaker`) read it and move
 * it on: each decodes a string or a number in line, and hands every other tag to `other`.
 * Past the end of a column a typed array gives `undefined`, which no tag is: `other` throws.
 */
class DecodeState {
  readonly tags: Uint8Array;
  readonly nums: Float64Array;
  readonly refs: Uint32Array;
  readonly strings: readonly string[];
  readonly makers: readonly Maker[];
  readonly widths: readonly number[];
  readonly flat: unknown[] = [];
  readonly updates: UpdateDecoder;
  ti = 0;
  ni = 0;
  ri = 0;

  constructor(c: ChunkColumns) {
    this.tags = c.tags;
    this.nums = c.nums;
    this.refs = c.refs;
    this.strings = c.strings;
    this.makers = c.shapes.map((keys) => shapeMaker(keys.map((k) => c.strings[k]!)));
    this.widths = c.shapes.map((keys) => 1 + keys.length);
    this.updates = new UpdateDecoder({ ...c.updates, strings: c.strings });
  }

  /** The value of tag `t`, just read (the tag column is past it). */
  other(t: number | undefined): unknown {
    switch (t as Tag) {
      case Tag.Num:
        return this.nums[this.ni++];
      case Tag.Str:
        return this.strings[this.refs[this.ri++]!];
      case Tag.Same: {
        const k = this.refs[this.ri++]!;
        const flat = this.flat;
        if (k >= flat.length) throw new TapeDecodeError(`a reference to flat object ${k} of ${flat.length}`);
        return flat[k];
      }
      case Tag.Obj: {
        const t0 = this.ti - 1;
        const shape = this.refs[this.ri++]!;
        const make = this.makers[shape];
        if (make === undefined) throw new TapeDecodeError(`unknown shape ${shape}`);
        const o = make(this);
        // Flat (each value one tag): the encoder numbered it, so a later copy can refer to it.
        const w = this.widths[shape]!;
        if (w > 1 && this.ti - t0 === w) this.flat.push(o);
        return o;
      }
      case Tag.Arr: {
        const n = this.refs[this.ri++]!;
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = this.other(this.tags[this.ti++]!);
        return out;
      }
      case Tag.Update:
        return this.updates.next();
      case Tag.Null:
        return null;
      case Tag.False:
        return false;
      case Tag.True:
        return true;
      case Tag.Undef:
        return undefined;
      default:
        throw new TapeDecodeError(`unknown value tag ${t} at ${this.ti - 1}`);
    }
  }
}

type Maker = (s: DecodeState) => Record<string, unknown>;

const makerCache = new Map<string, Maker>();

/**
 * A function that builds an object of these keys, values taken in order. Generated once per
 * shape (the same few shapes recur in every chunk): every key in one literal, so all
 * objects of a shape share one hidden class, as JSON.parse's would; a string or a number
 * (most values) is read in line, without a call:
 *
 *   { "id": (t = s.tags[s.ti++]) === Str ? s.strings[s.refs[s.ri++]] : t === Num ? s.nums[s.ni++] : s.other(t), … }
 *
 * A key that an object literal would treat specially (`__proto__`) is set as an own
 * property instead, as JSON.parse does.
 */
function shapeMaker(keys: readonly string[]): Maker {
  const sig = keys.join('\u0000');
  let m = makerCache.get(sig);
  if (m) return m;
  if (keys.includes('__proto__') || keys.length > 64) {
    m = (s) => {
      const o: Record<string, unknown> = {};
      for (const k of keys)
        Object.defineProperty(o, k, {
          value: s.other(s.tags[s.ti++]!),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return o;
    };
  } else {
    const value =
      `(t = s.tags[s.ti++]) === ${Tag.Str} ? s.strings[s.refs[s.ri++]] : ` +
      `t === ${Tag.Num} ? s.nums[s.ni++] : s.other(t)`;
    // Keys go in as JSON string literals: no key can break out of them.
    const body = `let t; return {${keys.map((k) => `${JSON.stringify(k)}: ${value}`).join(', ')}};`;
    m = new Function('s', body) as Maker;
  }
  if (makerCache.size < 4096) makerCache.set(sig, m);
  return m;
}
