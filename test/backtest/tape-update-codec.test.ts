import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { ChunkEncoder, decodeChunk, decodeEncodedChunk, TapeDecodeError } from '../../src/backtest/tape/codec.ts';
import { loadTape } from '../../src/backtest/tape.ts';
import { exact } from './support-exact.ts';

function roundTrip(values: readonly unknown[], chunkItems = Infinity): unknown[] {
  const enc = new ChunkEncoder();
  const out: unknown[] = [];
  for (const v of values) {
    enc.add(v);
    if (enc.count >= chunkItems) out.push(...decodeEncodedChunk(enc.finish()));
  }
  out.push(...decodeEncodedChunk(enc.finish()));
  return out;
}

const order = (id: string, sumUntaken: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'spread',
  sumUntaken,
  odds: -110,
  bet: 100,
  gameID: 'g1',
  takenRatio: 0,
  mockOrder: false,
  participantID: null,
  spread: -0.5,
  ...extra,
});
const update = (t: number, orders: readonly unknown[], payload: Record<string, unknown> = {}) => ({
  t,
  kind: 'price',
  event: {
    type: 'orderUpdate',
    payload: {
      epoch: t,
      gameID: 'g1',
      parentGameID: null,
      sport: 'soccer',
      type: 'spread',
      sideOrders: orders,
      ...payload,
    },
  },
});
type Decoded = { event: { payload: { sideOrders: unknown[] } } };
const ordersOf = (d: unknown) => (d as Decoded).event.payload.sideOrders;

describe('the tape codec: side updates in typed columns', () => {
  it('writes side updates to their own columns, no tag per value, and reads them back key for key', () => {
    const items = [update(1, [order('a', 5), order('b', 7)]), update(2, [order('a', 5)])];
    const enc = new ChunkEncoder();
    for (const it of items) enc.add(it);
    const c = enc.finish();
    // One tag per item, nothing in the generic columns.
    expect(c.tags.length).toBe(2);
    expect(c.nums.length).toBe(0);
    expect(c.refs.length).toBe(0);
    // Times and epochs, then the five numbers of each of the two distinct orders: a is not written twice.
    expect(c.updates.nums.length).toBe(2 * 2 + 2 * 5);
    const decoded = decodeEncodedChunk(c);
    expect(exact(decoded)).toEqual(exact(items));
    expect(ordersOf(decoded[1])[0]).toBe(ordersOf(decoded[0])[0]);
  });

  it('writes an order changed since its last copy again, and shares only equal ones, -0 told from 0', () => {
    const items = [
      update(1, [order('a', 5), order('b', 7)]),
      update(2, [order('a', 4), order('b', 7)]),
      update(3, [order('a', 5), order('b', -0)]),
      update(4, [order('a', 5), order('b', 0)]),
      update(5, [order('a', 5, { isPostArb: true }), order('b', 0)]),
      // The same keys in another order.
      update(6, [order('a', 5), Object.fromEntries(Object.entries(order('b', 0)).reverse())]),
    ];
    const decoded = roundTrip(items);
    expect(exact(decoded)).toEqual(exact(items));
    expect(ordersOf(decoded[1])[0]).not.toBe(ordersOf(decoded[0])[0]);
    expect(ordersOf(decoded[1])[1]).toBe(ordersOf(decoded[0])[1]);
    expect(Object.is((ordersOf(decoded[2])[1] as { sumUntaken: number }).sumUntaken, -0)).toBe(true);
    expect(ordersOf(decoded[3])[1]).not.toBe(ordersOf(decoded[2])[1]);
    expect(Object.keys(ordersOf(decoded[4])[0] as object)).toContain('isPostArb');
    // Matched against the last copy of its id only (update 5's), so written again.
    expect(ordersOf(decoded[5])[0]).toEqual(ordersOf(decoded[2])[0]);
    expect(ordersOf(decoded[5])[1]).not.toBe(ordersOf(decoded[4])[1]);
    expect(Object.keys(ordersOf(decoded[5])[1] as object)[0]).toBe('spread');
  });

  it('tells a copy of an order from one of another kind, key set or key order, and a payload likewise', () => {
    const base = order('a', 5);
    const items = [
      update(1, [base]),
      update(2, [order('a', 5)]),
      // The same values but one of another kind, one key more, one key fewer, two keys swapped.
      update(3, [order('a', 5, { odds: '-110' })]),
      update(4, [order('a', 5, { spread: null })]),
      update(5, [order('a', 5, { extra: 1 })]),
      update(6, [Object.fromEntries(Object.entries(base).filter(([k]) => k !== 'spread'))]),
      update(7, [{ type: base.type, id: base.id, ...Object.fromEntries(Object.entries(base).slice(2)) }]),
      update(8, [order('a', NaN)]),
      update(9, [order('a', NaN)]),
      // A payload of the layout before with a value of another kind, then its keys in another order.
      update(10, [order('a', 5)], { sport: null }),
      { t: 11, kind: 'price', event: { type: 'orderUpdate', payload: { sideOrders: [order('a', 5)], epoch: 11 } } },
      update(12, [order('a', 5)]),
      // New orders of the type of one before, in its layout and out of it.
      update(13, [order('c', 5), order('d', 5, { spread: null }), order('e', 5, { extra: 1 }), order('f', 6)]),
    ];
    const decoded = roundTrip(items);
    expect(exact(decoded)).toEqual(exact(items));
    expect(ordersOf(decoded[1])[0]).toBe(ordersOf(decoded[0])[0]);
    for (let i = 2; i <= 7; i++) expect(ordersOf(decoded[i])[0]).not.toBe(ordersOf(decoded[i - 1])[0]);
    expect(ordersOf(decoded[8])[0]).toBe(ordersOf(decoded[7])[0]);
    expect(Object.keys(ordersOf(decoded[6])[0] as object).slice(0, 2)).toEqual(['type', 'id']);
  });

  it('leaves to the generic codec what its layout does not hold, and reads each back the same', () => {
    const items = [
      { ...update(1, [order('a', 5)]), extra: 1 },
      { t: 2, event: update(2, []).event, kind: 'price' },
      update(3, [order('a', 5, { nested: { x: 1 } })]),
      update(4, [order('a', 5, { list: [1] })]),
      update(5, [order('a', 5), 'not an order']),
      update(6, [JSON.parse('{"id":"a","__proto__":{"x":1}}') as unknown]),
      update(7, [order('a', 5, { '7': 'index-like key' })]),
      update(8, [], { live: { nested: true } }),
      { t: 9, kind: 'price', event: { type: 'orderUpdate', payload: [] } },
      { t: 10, kind: 'price', event: { type: 'gameUpdate', payload: { id: 'g1' }, messageType: null } },
      { t: '11', kind: 'price', event: update(11, []).event },
      update(12, [order('a', 5)]),
    ];
    const enc = new ChunkEncoder();
    for (const it of items) enc.add(it);
    const c = enc.finish();
    const decoded = decodeEncodedChunk(c);
    expect(exact(decoded)).toEqual(exact(items));
    expect(Object.getPrototypeOf(ordersOf(decoded[5])[0])).toBe(Object.prototype);
    // Only the last one fits the typed layout: its time, epoch and order's five numbers.
    expect(c.updates.nums.length).toBe(2 + 5);
  });

  it('numbers orders per chunk: a reference never reaches into the chunk before', () => {
    const items = [update(1, [order('a', 5)]), update(2, [order('a', 5)]), update(3, [order('a', 5)])];
    const decoded = roundTrip(items, 1);
    expect(exact(decoded)).toEqual(exact(items));
    expect(ordersOf(decoded[1])[0]).not.toBe(ordersOf(decoded[0])[0]);
  });

  it('reads every item of a sample back key for key, in chunks of any size', async () => {
    const { items } = await loadTape([join('backtest/data', 'paper-seed13-deep')]);
    // As text: a deep comparison of every item takes the test runner far longer.
    expect(JSON.stringify(exact(roundTrip(items, 997)))).toBe(JSON.stringify(exact(items)));
  });

  it('throws a decode error, not garbage, for columns that do not hold what they say', () => {
    const enc = new ChunkEncoder();
    enc.add(update(1, [order('a', 5)]));
    enc.add(update(2, [order('a', 5)]));
    const c = enc.finish();
    const columns = (refs: Uint32Array, layouts = JSON.parse(c.updates.layouts) as string[][]) => ({
      count: c.count,
      tags: c.tags,
      nums: c.nums,
      refs: c.refs,
      strings: JSON.parse(c.strings) as string[],
      shapes: JSON.parse(c.shapes) as number[][],
      updates: { nums: c.updates.nums, refs, layouts },
    });
    expect(() => decodeChunk(columns(c.updates.refs))).not.toThrow();
    // The payload's layout, then a layout that is not there.
    const badLayout = c.updates.refs.slice();
    badLayout[0] = 99;
    expect(() => decodeChunk(columns(badLayout))).toThrow(TapeDecodeError);
    // The second update's order, a reference to the first, refers to one not yet read.
    const refs = c.updates.refs.slice();
    expect(refs[refs.length - 1]).toBe(2 * 0 + 1);
    refs[refs.length - 1] = 2 * 7 + 1;
    expect(() => decodeChunk(columns(refs))).toThrow(TapeDecodeError);
    expect(() => decodeChunk(columns(c.updates.refs, [['nx', 'a', 'b']]))).toThrow(TapeDecodeError);
    // A column cut short.
    expect(() => decodeChunk(columns(c.updates.refs.slice(0, 3)))).toThrow(TapeDecodeError);
  });
});

const id = fc.constantFrom('a', 'b', 'c', '000000070000000000000062', 'draw', '', 'x'.repeat(30));
const scalar = fc.oneof(
  fc.double({ noNaN: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1.5, -110),
  fc.string({ maxLength: 6 }),
  fc.constantFrom('spread', 'total', 'g1', '2026-01-15T12:30:00.000Z'),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.constantFrom('odds', 'bet', 'sumUntaken', 'type', 'gameID', 'side', 'mockOrder', 'total', 'OU', 'x');
/** An order: an id (mostly first), then a few of the usual keys in any order, sometimes an odd value. */
const orderArb = fc
  .tuple(
    id,
    fc.dictionary(key, scalar, { maxKeys: 6 }),
    fc.boolean(),
    fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, fc.constant({ nested: [1] }), fc.constant([])),
  )
  .map(([i, rest, idLast, odd]) => {
    const o: Record<string, unknown> = idLast ? { ...rest, id: i } : { id: i, ...rest };
    if (odd !== null) o['odd'] = odd;
    return o;
  });
/** A short list of orders, drawn from a few so that they repeat. */
const ordersArb = fc.array(orderArb, { minLength: 1, maxLength: 5 }).chain((pool) =>
  fc.array(
    fc.nat(pool.length - 1).map((i) => ({ ...pool[i]! })),
    { maxLength: 6 },
  ),
);
const t = fc.integer({ min: 0, max: 2e12 });
const sideUpdate = fc
  .tuple(t, ordersArb, fc.dictionary(key, scalar, { maxKeys: 4 }))
  .map(([at, orders, rest]) => update(at, orders, rest));
const recordArb = fc.oneof(
  { weight: 6, arbitrary: sideUpdate },
  fc.tuple(t, fc.array(orderArb, { maxLength: 3 })).map(([at, o]) => ({
    t: at,
    kind: 'price',
    event: { type: 'gameUpdate', payload: { id: 'g1', homeSpreads: o, awaySpreads: [] }, messageType: null },
  })),
  t.map((at) => ({
    t: at,
    kind: 'price',
    event: { type: 'matchedVolumeUpdate', payload: { gameID: 'g1', matchedVolume: at / 7 } },
  })),
  fc
    .tuple(t, fc.array(orderArb, { maxLength: 3 }))
    .map(([at, o]) => ({ t: at, kind: 'snapshot', batch: 1, reason: 'start', game: { id: 'g1', over: o } })),
  t.map((at) => ({ t: at, kind: 'snapshotDone', batch: 1, reason: 'reconnect' })),
  t.map((at) => ({ t: at, kind: 'gap', feed: 'price', from: at - 5, to: at, resumed: true })),
  t.map((at) => ({ t: at, kind: 'result', gameID: 'g1', away: { id: 'a', score: 2 }, home: { id: 'h', score: 0 } })),
  fc.tuple(t, orderArb).map(([at, o]) => ({ t: at, kind: 'user', frame: { matched: o } })),
);

describe('the tape codec, property', () => {
  test.prop([fc.array(recordArb, { maxLength: 40 }), fc.integer({ min: 1, max: 50 })], { numRuns: 300 })(
    'reads back random records of every kind key for key, whatever the chunk size',
    (items, chunkItems) => {
      expect(exact(roundTrip(items, chunkItems))).toEqual(exact(items));
    },
  );
});
