/**
 * The tape's typed layout for the record kind that makes up almost all of a recording: a
 * price feed side update (`{ t, kind: 'price', event: { type: 'orderUpdate', payload } }`,
 * its payload a flat object whose `sideOrders` lists flat orders). Such an item is written
 * to columns of its own, with no tag per value:
 *
 * - `nums`: the item's time, then its payload's numbers and each new order's numbers;
 * - `refs`: the payload's layout, its strings (ids in the chunk's string table), per order
 *   list its length, then per order either a reference to an order written before in the
 *   chunk (`ordinal * 2 + 1`) or a new order's layout (`layout * 2`) and its strings.
 *
 * A layout is an object's keys in order with the kind of each value (`n` number, `s` string,
 * `t` true, `f` false, `z` null, `u` undefined, `a` a list of flat orders): it says which
 * column each value is in, so reading an object back is one generated function per layout
 * that takes its values in line. Layouts are numbered per chunk, in a table of their own.
 *
 * A side update lists the side's every order again, most of them unchanged since the update
 * before: an order is looked up by its id among the orders written in the chunk, and one
 * equal to the last written with that id (same keys in the same order, same values) is
 * written as a reference and read back as that same object. Nothing changes a decoded item,
 * so sharing is safe. Anything else (another key order, a nested value in an order, an
 * unusual key) is left to the generic codec (`codec.ts`): `add` says no, and nothing of the
 * item is written.
 */

import { TapeDecodeError } from './codec-error.ts';

/** Value kinds of a layout, one character each. */
const NUM = 'n';
const STR = 's';
const TRUE = 't';
const FALSE = 'f';
const NULL = 'z';
const UNDEF = 'u';
const LIST = 'a';

/** One object layout: its keys in order and the kind of each value. */
class Layout {
  readonly keys: readonly string[];
  readonly kinds: string;
  /** Whether every key is one a generated object literal makes as JSON.parse does (`plainKey`). */
  readonly plain: boolean;
  /** Its number in chunk `chunk` (layouts are numbered per chunk). */
  id = 0;
  chunk = -1;
  #key: string | undefined = undefined;
  #kind = '';
  #child: Layout | undefined = undefined;
  #more: Map<string, Layout> | undefined = undefined;
  #fns: LayoutFns | undefined = undefined;

  constructor(keys: readonly string[], kinds: string, plain: boolean) {
    this.keys = keys;
    this.kinds = kinds;
    this.plain = plain;
  }

  /** Its generated checks (`layoutFns`); only for a plain layout, the only kind written. */
  get fns(): LayoutFns {
    return (this.#fns ??= layoutFns(this.keys, this.kinds));
  }

  /** The layout of these keys and kinds followed by key `k` holding a value of kind `kind`. */
  next(k: string, kind: string): Layout {
    if (this.#key === k && this.#kind === kind) return this.#child!;
    if (this.#child === undefined) {
      this.#key = k;
      this.#kind = kind;
      return (this.#child = this.#make(k, kind));
    }
    this.#more ??= new Map();
    const sig = kind + k;
    let c = this.#more.get(sig);
    if (c === undefined) this.#more.set(sig, (c = this.#make(k, kind)));
    return c;
  }

  #make(k: string, kind: string): Layout {
    return new Layout([...this.keys, k], this.kinds + kind, this.plain && plainKey(k));
  }
}

/** The last order written in the chunk with an id: its id, layout, the order itself, its values, string ids and ordinal. */
interface WrittenOrder {
  readonly id: string;
  readonly layout: Layout;
  readonly order: Record<string, unknown>;
  readonly values: readonly unknown[];
  /** Per value, its id in the string table (strings only; -1 otherwise). */
  readonly strings: readonly number[];
  readonly ordinal: number;
}

/** An order of the update being written: a reference to one written before, or a new one. */
type PendingOrder =
  | number
  | {
      readonly layout: Layout;
      readonly order: Record<string, unknown>;
      readonly values: readonly unknown[];
      /** The last copy of its id in the chunk, if any. */
      readonly before: WrittenOrder | undefined;
    };

/** The kind of a value that fits a layout (a primitive), or '' for one that does not. */
function kindOf(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return NUM;
    case 'string':
      return STR;
    case 'boolean':
      return v ? TRUE : FALSE;
    case 'undefined':
      return UNDEF;
    case 'object':
      return v === null ? NULL : '';
    default:
      return '';
  }
}

/** Keys a generated object literal would not make as plain own properties, or JSON.parse orders otherwise. */
const plainKey = (k: string): boolean => k !== '__proto__' && !/^(?:0|[1-9]\d*)$/.test(k);

/** What one chunk's side updates add to it: their columns and the layout table (JSON text). */
export interface EncodedUpdates {
  readonly nums: Float64Array;
  readonly refs: Uint32Array;
  readonly layouts: string;
}

/** Writes side updates to their typed columns; strings go to the chunk's string table (`string`). */
export class UpdateEncoder {
  #nums = new Float64Array(1 << 12);
  #refs = new Uint32Array(1 << 14);
  #nNums = 0;
  #nRefs = 0;
  readonly #string: (s: string) => number;
  readonly #root = new Layout([], '', true);
  readonly #layouts: Layout[] = [];
  #chunk = 0;
  /** Orders written in this chunk, by id: the last written with each id. */
  readonly #byId = new OrderTable();
  #ordinals = 0;
  /** The payload's values while it is checked. */
  readonly #values: unknown[] = [];
  /** The values of the payload being written: `#values`, or an array of its own. */
  #current: unknown[] = this.#values;
  /** Per payload `type`, the layout of the last payload of that type found by a walk over its keys. */
  readonly #payloadLayouts = new Map<string, Layout>();
  /** Per order `type`, the layout of the last new order of that type found by a walk over its keys. */
  readonly #orderLayouts = new Map<string, Layout>();
  /** Per list in the payload, its orders while they are checked. */
  readonly #lists: PendingOrder[][] = [];
  /** Per layout (by id in this chunk), the strings of the last payload written with it and their ids. */
  #lastStrings: (readonly unknown[] | undefined)[] = [];
  #lastIds: (number[] | undefined)[] = [];

  constructor(string: (s: string) => number) {
    this.#string = string;
  }

  get bytes(): number {
    return this.#nNums * 8 + this.#nRefs * 4;
  }

  /**
   * Writes `it` if it is a side update this layout holds, and says whether it did (nothing of
   * it is written otherwise).
   */
  add(it: unknown): boolean {
    if (typeof it !== 'object' || it === null) return false;
    const item = it as Record<string, unknown>;
    let n = 0;
    for (const k in item) {
      if (k !== (n === 0 ? 't' : n === 1 ? 'kind' : 'event')) return false;
      n++;
    }
    if (n !== 3 || typeof item['t'] !== 'number' || item['kind'] !== 'price') return false;
    const event = item['event'];
    if (typeof event !== 'object' || event === null) return false;
    const ev = event as Record<string, unknown>;
    n = 0;
    for (const k in ev) {
      if (k !== (n === 0 ? 'type' : 'payload')) return false;
      n++;
    }
    if (n !== 2 || ev['type'] !== 'orderUpdate') return false;
    const payload = ev['payload'];
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return false;
    const layout = this.#check(payload as Record<string, unknown>);
    if (layout === null) return false;
    this.#write(item['t'] as number, layout, this.#current);
    return true;
  }

  /** The payload's layout, its values and its lists' orders in the scratch arrays; null if it does not fit. */
  #check(p: Record<string, unknown>): Layout | null {
    // Most payloads have the layout of the last one of their type (a side of a total, a
    // spread, a moneyline): checked by its generated checks, without a walk over the keys.
    const type = p['type'];
    const last = typeof type === 'string' ? this.#payloadLayouts.get(type) : undefined;
    if (last !== undefined && last.fns.fits(p)) {
      const vals = last.fns.values(p);
      const kinds = last.kinds;
      let lists = 0;
      for (let i = 0; i < kinds.length; i++) {
        if (kinds.charCodeAt(i) !== 97 /* a */) continue;
        const list = (this.#lists[lists++] ??= []);
        if (!this.#checkOrders(vals[i] as unknown[], list)) return null;
      }
      this.#current = vals;
      return last;
    }
    const values = this.#values;
    this.#current = values;
    let node = this.#root;
    let n = 0;
    let lists = 0;
    for (const k in p) {
      const v = p[k];
      let kind = kindOf(v);
      if (kind === '') {
        if (!Array.isArray(v)) return null;
        const list = (this.#lists[lists] ??= []);
        if (!this.#checkOrders(v, list)) return null;
        lists++;
        kind = LIST;
      }
      node = node.next(k, kind);
      values[n++] = v;
    }
    if (n === 0 || !node.plain) return null;
    if (typeof type === 'string') this.#payloadLayouts.set(type, node);
    return node;
  }

  /** Each order of the list as a reference or a new order (in `out`); false if one does not fit. */
  #checkOrders(list: readonly unknown[], out: PendingOrder[]): boolean {
    out.length = list.length;
    for (let i = 0; i < list.length; i++) {
      const o = list[i];
      if (typeof o !== 'object' || o === null || Array.isArray(o)) return false;
      const order = o as Record<string, unknown>;
      const id = order['id'];
      const seen = typeof id === 'string' ? this.#byId.get(id) : undefined;
      if (seen !== undefined) {
        // Most orders are their last copy again, or a change of it in the same layout: the
        // layout's generated checks read each value by its key, where a walk over the keys
        // reads them through a generic lookup (the orders of a feed come in several shapes).
        const f = seen.layout.fns;
        if (f.same(order, seen.order)) {
          out[i] = seen.ordinal;
          continue;
        }
        if (f.fits(order)) {
          out[i] = { layout: seen.layout, order, values: f.values(order), before: seen };
          continue;
        }
      }
      // A new order: most have the layout of the last new order of their type.
      const type = order['type'];
      const like = typeof type === 'string' ? this.#orderLayouts.get(type) : undefined;
      if (like !== undefined && like.fns.fits(order)) {
        out[i] = { layout: like, order, values: like.fns.values(order), before: seen };
        continue;
      }
      let node = this.#root;
      const values: unknown[] = [];
      for (const k in order) {
        const v = order[k];
        const kind = kindOf(v);
        if (kind === '') return false;
        node = node.next(k, kind);
        values.push(v);
      }
      if (values.length === 0 || !node.plain) return false;
      if (typeof type === 'string') this.#orderLayouts.set(type, node);
      out[i] = { layout: node, order, values, before: seen };
    }
    return true;
  }

  #write(t: number, layout: Layout, values: unknown[]): void {
    this.#num(t);
    const id = this.#layoutId(layout);
    this.#ref(id);
    const kinds = layout.kinds;
    // The payload's strings: most are those of the payload written before with this layout.
    let lastStrings = this.#lastStrings[id];
    let lastIds = this.#lastIds[id];
    if (lastStrings === undefined || lastIds === undefined) {
      lastStrings = this.#lastStrings[id] = values.slice(0, kinds.length);
      lastIds = this.#lastIds[id] = new Array<number>(kinds.length).fill(-1);
    }
    let lists = 0;
    for (let i = 0; i < kinds.length; i++) {
      const v = values[i];
      switch (kinds.charCodeAt(i)) {
        case 110 /* n */:
          this.#num(v as number);
          break;
        case 115 /* s */: {
          let sid = lastIds[i]!;
          if (sid < 0 || lastStrings[i] !== v) {
            sid = this.#string(v as string);
            lastIds[i] = sid;
            (lastStrings as unknown[])[i] = v;
          }
          this.#ref(sid);
          break;
        }
        case 97 /* a */:
          this.#writeOrders(this.#lists[lists++]!);
          break;
      }
      values[i] = undefined;
    }
  }

  #writeOrders(list: PendingOrder[]): void {
    this.#ref(list.length);
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      list[i] = 0;
      if (typeof p === 'number') {
        this.#ref(p * 2 + 1);
        continue;
      }
      const { layout, order, values } = p;
      const lid = this.#layoutId(layout);
      this.#ref(lid * 2);
      const kinds = layout.kinds;
      const strings = new Array<number>(kinds.length);
      // A changed order keeps most of its strings: their ids are those of its last copy.
      // A new one shares many (its game, its type, often its times) with the last new order
      // of its layout.
      const before = p.before !== undefined && p.before.layout === layout ? p.before : undefined;
      let lastStrings = this.#lastStrings[lid];
      let lastIds = this.#lastIds[lid];
      if (lastStrings === undefined || lastIds === undefined) {
        lastStrings = this.#lastStrings[lid] = new Array<unknown>(kinds.length);
        lastIds = this.#lastIds[lid] = new Array<number>(kinds.length).fill(-1);
      }
      for (let k = 0; k < kinds.length; k++) {
        const v = values[k];
        const c = kinds.charCodeAt(k);
        if (c === 110 /* n */) {
          this.#num(v as number);
          strings[k] = -1;
        } else if (c === 115 /* s */) {
          let sid: number;
          if (before !== undefined && before.values[k] === v) sid = before.strings[k]!;
          else if (lastIds[k]! >= 0 && lastStrings[k] === v) sid = lastIds[k]!;
          else {
            sid = this.#string(v as string);
            lastIds[k] = sid;
            (lastStrings as unknown[])[k] = v;
          }
          this.#ref(sid);
          strings[k] = sid;
        } else strings[k] = -1;
      }
      const ordinal = this.#ordinals++;
      // Found again by its `id`, a string wherever it is among the keys.
      const id = layout.keys[0] === 'id' ? values[0] : values[layout.keys.indexOf('id')];
      if (typeof id === 'string') this.#byId.set({ id, layout, order, values, strings, ordinal });
    }
  }

  #layoutId(l: Layout): number {
    if (l.chunk !== this.#chunk) {
      l.chunk = this.#chunk;
      l.id = this.#layouts.length;
      this.#layouts.push(l);
    }
    return l.id;
  }

  #num(n: number): void {
    if (this.#nNums === this.#nums.length) {
      const to = new Float64Array(this.#nums.length * 2);
      to.set(this.#nums);
      this.#nums = to;
    }
    this.#nums[this.#nNums++] = n;
  }

  #ref(r: number): void {
    if (this.#nRefs === this.#refs.length) {
      const to = new Uint32Array(this.#refs.length * 2);
      to.set(this.#refs);
      this.#refs = to;
    }
    this.#refs[this.#nRefs++] = r;
  }

  /** The chunk's columns and layout table; the next chunk numbers its layouts and orders afresh. */
  finish(): EncodedUpdates {
    const out: EncodedUpdates = {
      nums: this.#nums.slice(0, this.#nNums),
      refs: this.#refs.slice(0, this.#nRefs),
      layouts: JSON.stringify(this.#layouts.map((l) => [l.kinds, ...l.keys])),
    };
    this.#nNums = this.#nRefs = 0;
    this.#chunk++;
    this.#layouts.length = 0;
    this.#byId.clear();
    this.#ordinals = 0;
    this.#lastStrings = [];
    this.#lastIds = [];
    return out;
  }
}

/** A layout's generated checks of an object (`layoutFns`). */
interface LayoutFns {
  /** Whether `o` has exactly the layout's keys, in its order, each holding a value of its kind. */
  readonly fits: (o: Record<string, unknown>) => boolean;
  /**
   * Whether `o` has exactly the layout's keys, in its order, with the values of `p` (an
   * object of the layout): -0 is not 0, as the columns tell them apart; NaN is itself.
   */
  readonly same: (o: Record<string, unknown>, p: Record<string, unknown>) => boolean;
  /** `o`'s values in the layout's order (for an object that fits it). */
  readonly values: (o: Record<string, unknown>) => unknown[];
}

const fnsCache = new Map<string, LayoutFns>();

/**
 * The checks of a layout, generated once per layout (the same few recur in every chunk):
 * each value read by its key, so each read sees the few shapes of its layout's objects, not
 * every shape of the feed. The key order is checked by a walk over the keys alone.
 *
 *   fits: { let i = 0; for (const k in o) if (k !== K[i++]) return false; return i === 3 &&
 *           typeof o["id"] === "string" && typeof o["odds"] === "number" && o["mockOrder"] === false; }
 */
function layoutFns(keys: readonly string[], kinds: string): LayoutFns {
  const sig = kinds + '\u0000' + keys.join('\u0000');
  let f = fnsCache.get(sig);
  if (f) return f;
  const at = (k: string) => `[${JSON.stringify(k)}]`;
  const walk = `let i = 0; for (const k in o) if (k !== K[i++]) return false; if (i !== ${keys.length}) return false;`;
  const fits = keys.map((k, i) => {
    const v = `o${at(k)}`;
    switch (kinds[i]) {
      case NUM:
        return `typeof ${v} === 'number'`;
      case STR:
        return `typeof ${v} === 'string'`;
      case TRUE:
        return `${v} === true`;
      case FALSE:
        return `${v} === false`;
      case NULL:
        return `${v} === null`;
      case UNDEF:
        return `${v} === undefined`;
      default:
        return `Array.isArray(${v})`;
    }
  });
  const same = keys.map((k, i) =>
    kinds[i] === NUM
      ? `((a = o${at(k)}) === (b = p${at(k)}) ? a !== 0 || 1 / a === 1 / b : a !== a && b !== b && typeof a === 'number')`
      : `o${at(k)} === p${at(k)}`,
  );
  const make = new Function(
    'K',
    `return {
      fits: (o) => { ${walk} return ${fits.join(' && ') || 'true'}; },
      same: (o, p) => { ${walk} let a, b; return ${same.join(' && ') || 'true'}; },
      values: (o) => [${keys.map((k) => `o${at(k)}`).join(', ')}],
    };`,
  ) as (k: readonly string[]) => LayoutFns;
  f = make(keys);
  if (fnsCache.size < 4096) fnsCache.set(sig, f);
  return f;
}

/**
 * The orders written in a chunk, by id: an open-addressing table hashed on the id's last
 * characters. A string read from JSON has no hash yet, and V8 computes one over the whole
 * string on its first use as a map key; a few characters read in line cost a fraction of
 * that, and ids (which differ at their end) spread well on them. A match is the whole id.
 */
class OrderTable {
  #slots = new Int32Array(1 << 12);
  #entries: WrittenOrder[] = [];

  get(id: string): WrittenOrder | undefined {
    const mask = this.#slots.length - 1;
    for (let at = hashId(id) & mask; ; at = (at + 1) & mask) {
      const e = this.#slots[at]!;
      if (e === 0) return undefined;
      const w = this.#entries[e - 1]!;
      if (w.id === id) return w;
    }
  }

  /** Puts `w` in the place of the order of its id, if any. */
  set(w: WrittenOrder): void {
    const mask = this.#slots.length - 1;
    for (let at = hashId(w.id) & mask; ; at = (at + 1) & mask) {
      const e = this.#slots[at]!;
      if (e === 0) {
        this.#entries.push(w);
        this.#slots[at] = this.#entries.length;
        if (this.#entries.length * 2 > this.#slots.length) this.#grow();
        return;
      }
      if (this.#entries[e - 1]!.id === w.id) {
        this.#entries[e - 1] = w;
        return;
      }
    }
  }

  clear(): void {
    this.#slots.fill(0);
    this.#entries = [];
  }

  #grow(): void {
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    this.#entries.forEach((w, i) => {
      let at = hashId(w.id) & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      slots[at] = i + 1;
    });
    this.#slots = slots;
  }
}

/** A hash of a string's length and last eight characters. */
function hashId(s: string): number {
  const n = s.length;
  let h = n;
  for (let i = n > 8 ? n - 8 : 0; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/** A chunk's side update columns as read back (views on the chunk's bytes), with the chunk's string table. */
export interface UpdateColumns {
  readonly nums: Float64Array;
  readonly refs: Uint32Array;
  readonly strings: readonly string[];
  /** Per layout: its kinds, then its keys. */
  readonly layouts: readonly (readonly string[])[];
}

type Maker = (s: UpdateDecoder) => Record<string, unknown>;

/** Reads side updates back from their columns, in the order written. */
export class UpdateDecoder {
  readonly nums: Float64Array;
  readonly refs: Uint32Array;
  readonly strings: readonly string[];
  readonly #makers: readonly Maker[];
  /** The chunk's new orders so far, by ordinal. */
  readonly #orders: Record<string, unknown>[] = [];
  ni = 0;
  ri = 0;

  constructor(c: UpdateColumns) {
    this.nums = c.nums;
    this.refs = c.refs;
    this.strings = c.strings;
    this.#makers = c.layouts.map((l) => layoutMaker(l));
  }

  /** The next side update. */
  next(): unknown {
    const t = this.nums[this.ni++];
    if (t === undefined) throw new TapeDecodeError('a side update past the end of its columns');
    return { t, kind: 'price', event: { type: 'orderUpdate', payload: this.#make(this.refs[this.ri++]) } };
  }

  #make(layout: number | undefined): Record<string, unknown> {
    const make = layout === undefined ? undefined : this.#makers[layout];
    if (make === undefined) throw new TapeDecodeError(`unknown layout ${layout}`);
    return make(this);
  }

  /** A list of orders (the makers call it for a value of kind `a`). */
  orders(): Record<string, unknown>[] {
    const n = this.refs[this.ri++];
    if (n === undefined) throw new TapeDecodeError('an order list past the end of its columns');
    const out = new Array<Record<string, unknown>>(n);
    const orders = this.#orders;
    for (let i = 0; i < n; i++) {
      const r = this.refs[this.ri++]!;
      if (r & 1) {
        const o = orders[r >>> 1];
        if (o === undefined) throw new TapeDecodeError(`a reference to order ${r >>> 1} of ${orders.length}`);
        out[i] = o;
      } else {
        const o = this.#make(r >>> 1);
        orders.push(o);
        out[i] = o;
      }
    }
    return out;
  }

  /** Whether every column was read to its end. */
  get done(): boolean {
    return this.ni === this.nums.length && this.ri === this.refs.length;
  }
}

const makerCache = new Map<string, Maker>();

/**
 * A function that builds an object of a layout, values taken in order from their columns:
 * every key in one literal, so all objects of a layout share one hidden class, as
 * JSON.parse's would.
 *
 *   { "id": s.strings[s.refs[s.ri++]], "odds": s.nums[s.ni++], "mockOrder": false, … }
 */
function layoutMaker(l: readonly string[]): Maker {
  const sig = l.join('\u0000');
  let m = makerCache.get(sig);
  if (m) return m;
  const [kinds, ...keys] = l;
  if (
    typeof kinds !== 'string' ||
    kinds.length !== keys.length ||
    keys.some((k) => typeof k !== 'string' || !plainKey(k))
  )
    throw new TapeDecodeError('a malformed layout');
  const value = (c: string): string => {
    switch (c) {
      case NUM:
        return 's.nums[s.ni++]';
      case STR:
        return 's.strings[s.refs[s.ri++]]';
      case TRUE:
        return 'true';
      case FALSE:
        return 'false';
      case NULL:
        return 'null';
      case UNDEF:
        return 'undefined';
      case LIST:
        return 's.orders()';
      default:
        throw new TapeDecodeError(`a layout with a value of kind ${JSON.stringify(c)}`);
    }
  };
  // Keys go in as JSON string literals: no key can break out of them.
  const body = `return {${keys.map((k, i) => `${JSON.stringify(k)}: ${value(kinds[i]!)}`).join(', ')}};`;
  m = new Function('s', body) as Maker;
  if (makerCache.size < 4096) makerCache.set(sig, m);
  return m;
}
