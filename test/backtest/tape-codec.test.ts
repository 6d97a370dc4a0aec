import { describe, expect, it } from 'vitest';
import { ChunkEncoder, decodeEncodedChunk, type EncodedChunk } from '../../src/backtest/tape/codec.ts';

function roundTrip(values: readonly unknown[]): { decoded: unknown[]; chunk: EncodedChunk } {
  const enc = new ChunkEncoder();
  for (const v of values) enc.add(v);
  const chunk = enc.finish();
  const decoded = decodeEncodedChunk(chunk);
  return { decoded, chunk };
}

const order = (id: string, sumUntaken: number) => ({ id, odds: -110, sumUntaken, bet: 100, isPostArb: false });
const update = (epoch: number, orders: readonly unknown[]) => ({
  t: epoch,
  kind: 'price',
  event: { type: 'orderUpdate', payload: { epoch, gameID: 'g1', sideOrders: orders } },
});

describe('the tape chunk codec', () => {
  it('stores an order repeated by later side updates once, and reads every copy back as that one object', () => {
    const a = order('a', 50);
    const items = [
      update(1, [a, order('b', 20)]),
      update(2, [order('a', 50), order('b', 10)]),
      update(3, [order('a', 50), order('b', 10), order('c', 5)]),
    ];
    const { decoded, chunk } = roundTrip(items);
    expect(decoded).toEqual(items);
    const orders = (i: number) =>
      (decoded[i] as { event: { payload: { sideOrders: unknown[] } } }).event.payload.sideOrders;
    expect(orders(1)[0]).toBe(orders(0)[0]);
    expect(orders(2)[0]).toBe(orders(0)[0]);
    expect(orders(2)[1]).toBe(orders(1)[1]);
    expect(orders(1)[1]).not.toBe(orders(0)[1]);
    // Each distinct order's five values are written once: a, b at 20, b at 10, c.
    const { chunk: once } = roundTrip([
      update(1, [a, order('b', 20)]),
      update(2, [order('b', 10)]),
      update(3, [order('c', 5)]),
    ]);
    expect(chunk.updates.nums.length).toBe(once.updates.nums.length);
  });

  it('keeps apart values that only look alike: 0 and -0, a string and a number, other keys, other key order', () => {
    const items = [
      { x: 0, y: 'a' },
      { x: -0, y: 'a' },
      { x: 0, y: 'a' },
      { x: '0', y: 'a' },
      { y: 'a', x: 0 },
      { x: 0, z: 'a' },
      { x: 0, y: 'a', w: null },
      { x: 0, y: 'a', w: undefined },
      { x: 0, y: 'a', w: [] },
      { x: 0, y: 'a', w: {} },
      { x: 0, y: 'a', w: {} },
      { x: 0, y: 'a', w: [1] },
      { x: 0, y: 'a', w: [1] },
    ];
    const { decoded } = roundTrip(items);
    expect(decoded).toEqual(items);
    expect(Object.is((decoded[1] as { x: number }).x, -0)).toBe(true);
    expect(Object.keys(decoded[4] as object)).toEqual(['y', 'x']);
    expect(decoded[2]).toBe(decoded[0]);
    expect(decoded[1]).not.toBe(decoded[0]);
    expect(decoded[3]).not.toBe(decoded[0]);
    expect(decoded[10]).toBe(decoded[9]);
    // Not flat (a value of more than one tag): written and read again on its own.
    expect(decoded[12]).not.toBe(decoded[11]);
  });

  it('finds a repeat by its values, not its first one: the same id with other values, back and forth', () => {
    const items = [
      order('a', 50),
      order('a', 40),
      order('a', 50),
      order('a', 40),
      { ...order('a', 50), bet: -0 },
      { ...order('a', 50), bet: 0 },
      { ...order('a', 50), bet: -0 },
      { ...order('a', 50), bet: Number.NaN },
      { ...order('a', 50), bet: Number.NaN },
      { ...order('a', 50), extra: true },
    ];
    const { decoded } = roundTrip(items);
    expect(decoded).toEqual(items);
    expect(decoded[2]).toBe(decoded[0]);
    expect(decoded[3]).toBe(decoded[1]);
    expect(Object.is((decoded[4] as { bet: number }).bet, -0)).toBe(true);
    expect(Object.is((decoded[5] as { bet: number }).bet, 0)).toBe(true);
    expect(decoded[6]).toBe(decoded[4]);
    expect(decoded[8]).toBe(decoded[7]);
    expect(Object.keys(decoded[9] as object)).toEqual([...Object.keys(order('a', 50)), 'extra']);
  });

  it('numbers repeated objects per chunk: a reference never reaches into the chunk before', () => {
    const enc = new ChunkEncoder();
    enc.add(order('a', 1));
    enc.finish();
    enc.add(order('a', 1));
    enc.add(order('a', 1));
    const c = enc.finish();
    const decoded = decodeEncodedChunk(c);
    expect(decoded).toEqual([order('a', 1), order('a', 1)]);
    expect(decoded[1]).toBe(decoded[0]);
  });
});
