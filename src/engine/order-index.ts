import type { IdToken, IdTokens } from './ids.ts';
import type { OrderState } from './order-state.ts';

/**
 * Orders by id. Every order is inserted once and, after its retention, deleted once. Ids
 * the engine holds as counters (see IdTokens) live in an open-addressing table keyed by
 * the counter, so neither step hashes or compares strings; ids from another generator
 * go to a Map.
 */
export class OrderIndex {
  /**
   * STRIDE entries per slot: the counter as two 26-bit halves (small integers on every
   * build), then the order, or undefined for a free slot. Key and value share a cache
   * line, so a probe costs one memory access.
   */
  #slots: (number | OrderState | undefined)[] = emptySlots(1024);
  #mask = 1023;
  #size = 0;
  readonly #strings = new Map<string, OrderState>();
  readonly #ids: IdTokens;

  constructor(ids: IdTokens) {
    this.#ids = ids;
  }

  /** Orders held (open, and closed within the retention). */
  get size(): number {
    return this.#size + this.#strings.size;
  }

  get(id: string): OrderState | undefined {
    const n = this.#ids.counterOf(id);
    if (n < 0) return this.#strings.get(id);
    const at = this.#find(n % HALF, Math.floor(n / HALF));
    return at < 0 ? undefined : (this.#slots[at + 2] as OrderState);
  }

  /** The order of an id as the engine keeps it (see IdTokens). */
  byToken(id: IdToken): OrderState | undefined {
    if (typeof id === 'string') return this.#strings.get(id);
    const at = this.#find(id % HALF, Math.floor(id / HALF));
    return at < 0 ? undefined : (this.#slots[at + 2] as OrderState);
  }

  set(id: IdToken, order: OrderState): void {
    if (typeof id === 'string') {
      this.#strings.set(id, order);
      return;
    }
    const lo = id % HALF;
    const hi = Math.floor(id / HALF);
    const at = this.#find(lo, hi);
    if (at >= 0) {
      this.#slots[at + 2] = order;
      return;
    }
    if (2 * (this.#size + 1) > this.#mask + 1) this.#grow();
    this.#insert(lo, hi, order);
    this.#size++;
  }

  delete(id: IdToken): void {
    if (typeof id === 'string') {
      this.#strings.delete(id);
      return;
    }
    const found = this.#find(id % HALF, Math.floor(id / HALF));
    if (found < 0) return;
    // Backward-shift deletion: later entries of the probe run move up, so lookups never
    // meet tombstones.
    const slots = this.#slots;
    const mask = this.#mask;
    let hole = found / STRIDE;
    let j = hole;
    for (;;) {
      j = (j + 1) & mask;
      const at = j * STRIDE;
      const v = slots[at + 2];
      if (v === undefined) break;
      const home = hash(slots[at] as number, slots[at + 1] as number) & mask;
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      const to = hole * STRIDE;
      slots[to] = slots[at];
      slots[to + 1] = slots[at + 1];
      slots[to + 2] = v;
      hole = j;
    }
    slots[hole * STRIDE + 2] = undefined;
    this.#size--;
  }

  /** Array offset of the slot holding the key, or -1. */
  #find(lo: number, hi: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    for (let i = hash(lo, hi) & mask; ; i = (i + 1) & mask) {
      const at = i * STRIDE;
      if (slots[at + 2] === undefined) return -1;
      if (slots[at] === lo && slots[at + 1] === hi) return at;
    }
  }

  #insert(lo: number, hi: number, order: OrderState): void {
    const slots = this.#slots;
    const mask = this.#mask;
    let i = hash(lo, hi) & mask;
    while (slots[i * STRIDE + 2] !== undefined) i = (i + 1) & mask;
    const at = i * STRIDE;
    slots[at] = lo;
    slots[at + 1] = hi;
    slots[at + 2] = order;
  }

  #grow(): void {
    const old = this.#slots;
    const capacity = 2 * (this.#mask + 1);
    this.#slots = emptySlots(capacity);
    this.#mask = capacity - 1;
    for (let at = 0; at < old.length; at += STRIDE) {
      const v = old[at + 2];
      if (v !== undefined) this.#insert(old[at] as number, old[at + 1] as number, v as OrderState);
    }
  }
}

const STRIDE = 3;
const HALF = 2 ** 26;

function emptySlots(capacity: number): (number | OrderState | undefined)[] {
  // Zeros, not holes: the array stays packed.
  const slots = new Array<number | OrderState | undefined>(capacity * STRIDE).fill(0);
  for (let at = 2; at < slots.length; at += STRIDE) slots[at] = undefined;
  return slots;
}

/**
 * The low half is added unmixed: counters taken one after the other land in neighbouring
 * slots, so inserting them touches memory just touched.
 */
function hash(lo: number, hi: number): number {
  const h = Math.imul(hi, 0x9e3779b1);
  return ((h ^ (h >>> 15)) + lo) | 0;
}
