/**
 * Editing an order (feeds-and-semantics §9): the rules a place has that the reference
 * model leaves out (liability, refusals by id, events, userReference, expiry), driven
 * through the public MatchingEngine API. Matching itself is compared with the reference
 * model in model.property.test.ts.
 */
import { describe, it, expect } from 'vitest';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { createIdGenerator } from '../../src/engine/ids.ts';
import type { EditEntry, EditFailure, EditSuccess, EngineEvent } from '../../src/engine/types.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { G, AWAY, HOME, ML, ml, ok } from '../support/engine-fixture.ts';

const T0 = Date.UTC(2026, 0, 10, 18, 0, 0);
const HOUR = 3_600_000;

function newEngine(opts: { live?: boolean; makerBalance?: number } = {}) {
  const clock = new ManualClock(T0);
  const engine = new MatchingEngine({ clock, ids: createIdGenerator(9) });
  expect(engine.addUser({ id: 'maker', balance: opts.makerBalance ?? 1_000_000, commissionRate: 0.01 }).ok).toBe(true);
  expect(engine.addUser({ id: 'taker', balance: 1_000_000, commissionRate: 0.01 }).ok).toBe(true);
  const added = engine.addGame({
    id: G,
    league: 'NBA',
    sport: 'basketball',
    participants: [
      { id: AWAY, longName: 'Away Team', shortName: 'AWY' },
      { id: HOME, longName: 'Home Team', shortName: 'HOM' },
    ],
    start: T0 + HOUR,
    live: opts.live ?? false,
  });
  expect(added.ok).toBe(true);
  const events: EngineEvent[] = [];
  engine.onEvent((e) => events.push(e));
  return { clock, engine, events };
}

function rest(
  engine: MatchingEngine,
  user: string,
  team: 'home' | 'away',
  odds: number,
  bet: number,
  extra: Record<string, unknown> = {},
): string {
  const r = ok(engine.place(user, [ml(team, odds, bet, extra)])[0]);
  expect(r.unmatched).not.toBeNull();
  return r.unmatched!.orderID;
}

function edited(e: EditEntry): EditSuccess {
  if (e.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(e)}`);
  return e;
}

function refused(e: EditEntry): EditFailure {
  if (e.status !== 'error') throw new Error(`expected error, got ${JSON.stringify(e)}`);
  return e;
}

describe('edit: amending an unfilled order', () => {
  it('keeps the id and the wagerRequestID, rests at the new odds and volume', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', 'home', 120, 50);
    const before = engine.order(id)!;
    const r = edited(engine.edit('maker', { sessionID: id, orderOdds: 130, orderVolume: 80 }));
    expect(r.edit.mode).toBe('amended');
    expect(r.edit.original).toMatchObject({ id, odds: 120, bet: 50, status: 'open' });
    expect(r.matched).toEqual([]);
    expect(r.unmatched).toMatchObject({ orderID: id, wagerRequestID: before.wagerRequestID, offered: 80, odds: 130 });
    expect(engine.order(id)).toMatchObject({
      status: 'open',
      odds: 130,
      bet: 80,
      remaining: 80,
      createdAt: before.createdAt,
    });
    expect(engine.openOrders('maker').map((o) => o.id)).toEqual([id]);
    expect(engine.bookSide(G, ML, 1).map((l) => [l.order.id, l.listedOdds])).toEqual([[id, -130]]);
  });

  it('null or missing odds and volume keep the order’s', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', 'home', 120, 50);
    edited(engine.edit('maker', { sessionID: id, orderOdds: null, orderVolume: 30 }));
    expect(engine.order(id)).toMatchObject({ odds: 120, bet: 30 });
    edited(engine.edit('maker', { sessionID: id, orderOdds: 125 }));
    expect(engine.order(id)).toMatchObject({ odds: 125, bet: 30 });
  });

  it('a lower volume at the same odds keeps time priority; higher odds go to the back', () => {
    const { engine } = newEngine();
    const first = rest(engine, 'maker', 'home', 120, 50);
    const second = rest(engine, 'taker', 'home', 120, 50);
    edited(engine.edit('maker', { sessionID: first, orderVolume: 40 }));
    expect(engine.bookSide(G, ML, 1).map((l) => l.order.id)).toEqual([first, second]);
    edited(engine.edit('maker', { sessionID: first, orderVolume: 60 }));
    expect(engine.bookSide(G, ML, 1).map((l) => l.order.id)).toEqual([second, first]);
  });

  it('new odds that cross take the book as a taker under the same id, and the rest rests', () => {
    const { engine, events } = newEngine();
    const resting = rest(engine, 'taker', 'away', -110, 110); // listed to home takers at +110, pays 100
    const id = rest(engine, 'maker', 'home', 120, 150);
    const r = edited(engine.edit('maker', { sessionID: id, orderOdds: 105 }));
    expect(r.matched).toHaveLength(1);
    expect(r.matched[0]).toMatchObject({ orderID: resting, odds: 110, amount: 100 });
    expect(r.unmatched).toMatchObject({ orderID: id, offered: 50, odds: 105 });
    const fill = events.find((e) => e.kind === 'fill');
    expect(fill?.kind === 'fill' && fill.fill.taker.orderID).toBe(id);
    expect(engine.order(id)).toMatchObject({ filled: 100, remaining: 50, bet: 150 });
  });

  it('a new userReference and expiry apply; the old expiry no longer closes the order', () => {
    const { engine, clock } = newEngine();
    const id = rest(engine, 'maker', 'home', 120, 50, { expirationMinutes: 1, userReference: 'a' });
    const r = edited(engine.edit('maker', { sessionID: id, userReference: 'b', expiryChange: '5' }));
    expect(r.unmatched?.userReference).toBe('b');
    clock.advance(2 * 60_000);
    engine.advance();
    expect(engine.order(id)).toMatchObject({ status: 'open', userReference: 'b', expiresAt: T0 + 5 * 60_000 });
    clock.advance(3 * 60_000);
    engine.advance();
    expect(engine.order(id)?.status).toBe('expired');
  });

  it('announces the amended order as placed on its new terms', () => {
    const { engine, events } = newEngine();
    const id = rest(engine, 'maker', 'home', 120, 50);
    events.length = 0;
    edited(engine.edit('maker', { sessionID: id, orderOdds: 125 }));
    const placed = events.filter((e) => e.kind === 'orderPlaced');
    expect(placed).toHaveLength(1);
    expect(placed[0]?.kind === 'orderPlaced' && placed[0].order).toMatchObject({ id, odds: 125 });
    expect(events.some((e) => e.kind === 'orderCancelled')).toBe(false);
  });
});

describe('edit: a partly filled order is cancelled and replaced', () => {
  it('cancels the original and places a new order for the whole new volume', () => {
    const { engine, events } = newEngine();
    const id = rest(engine, 'maker', 'home', 100, 100, { userReference: 'q1' });
    ok(engine.place('taker', [ml('away', -100, 40)])[0]);
    events.length = 0;
    const r = edited(engine.edit('maker', { sessionID: id, orderOdds: 110, orderVolume: 100 }));
    expect(r.edit.mode).toBe('replaced');
    expect(r.edit.original).toMatchObject({ id, status: 'cancelled', filled: 40, remaining: 60 });
    expect(r.unmatched?.orderID).not.toBe(id);
    expect(r.unmatched).toMatchObject({ offered: 100, odds: 110, userReference: 'q1' });
    expect(engine.order(id)?.status).toBe('cancelled');
    expect(events.find((e) => e.kind === 'orderCancelled')).toMatchObject({ order: { id } });
    expect(engine.openOrders('maker').map((o) => o.id)).toEqual([r.unmatched!.orderID]);
  });

  it('without a volume the new order is for the original stake (fills are not netted)', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', 'home', 100, 100);
    ok(engine.place('taker', [ml('away', -100, 40)])[0]);
    const r = edited(engine.edit('maker', { sessionID: id, orderOdds: 105 }));
    expect(r.unmatched?.offered).toBe(100);
  });
});

describe('edit: every rule of a place holds', () => {
  it('liability: the edited order’s own risk is not counted twice, a larger stake beyond the balance is refused', () => {
    // A resting stake of 100 may cost 101 with commission: room for it, not for two of it.
    const { engine } = newEngine({ makerBalance: 101.5 });
    const id = rest(engine, 'maker', 'home', 120, 100);
    edited(engine.edit('maker', { sessionID: id, orderOdds: 130 }));
    const r = refused(engine.edit('maker', { sessionID: id, orderVolume: 150 }));
    expect(r.errorType).toBe('rejected_liability');
    expect(engine.order(id)).toMatchObject({ status: 'open', odds: 130, bet: 100 });
    expect(engine.account('maker')?.exposure).toBeCloseTo(-100, 9);
  });

  it('post: an edit that would cross is refused and the order stays as it was', () => {
    const { engine } = newEngine();
    rest(engine, 'taker', 'away', -110, 110);
    const id = rest(engine, 'maker', 'home', 120, 50, { orderType: 'post' });
    const r = refused(engine.edit('maker', { sessionID: id, orderOdds: 105 }));
    expect(r).toMatchObject({ errorType: 'rejected_order_type_rules', error: 'post order cannot have matches' });
    expect(engine.order(id)).toMatchObject({ status: 'open', odds: 120 });
  });

  it('orderType: fillAndKill without liquidity is refused; with it, the remainder is killed', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', 'home', 120, 50);
    expect(refused(engine.edit('maker', { sessionID: id, orderType: 'fillAndKill' })).error).toBe(
      'fill and kill has no matches',
    );
    rest(engine, 'taker', 'away', -110, 22);
    const r = edited(engine.edit('maker', { sessionID: id, orderOdds: 105, orderType: 'fillAndKill' }));
    expect(r.matched).toHaveLength(1);
    expect(r.unmatched).toBeNull();
    expect(engine.order(id)).toMatchObject({ status: 'cancelled', closeReason: 'fillAndKill' });
  });

  it('blockIfNoOtherSideOrders: refused while nothing rests to take, carried out once something does', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', 'home', 120, 50);
    const r = refused(engine.edit('maker', { sessionID: id, orderOdds: 125, blockIfNoOtherSideOrders: true }));
    expect(r).toMatchObject({ errorType: 'rejected_order_type_rules', error: 'no orders on the other side' });
    // Listed to home takers at -110: it does not cross +125, but it is there.
    rest(engine, 'taker', 'away', 110, 10);
    expect(
      edited(engine.edit('maker', { sessionID: id, orderOdds: 125, blockIfNoOtherSideOrders: true })).unmatched?.odds,
    ).toBe(125);
  });

  it('validation: bad odds, volume, type or expiry are validation errors and change nothing', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', 'home', 120, 50);
    for (const bad of [
      { orderOdds: 50 },
      { orderOdds: 'x' },
      { orderVolume: -1 },
      { orderType: 'market' },
      { expiryChange: 'soon' },
      { expiryChange: 0 },
      { userReference: 7 },
    ]) {
      const r = refused(engine.edit('maker', { sessionID: id, ...bad }));
      expect(r.errorType, JSON.stringify(bad)).toBe('validation_error');
    }
    expect(engine.order(id)).toMatchObject({ status: 'open', odds: 120, bet: 50 });
  });

  it('names: a malformed, unknown, foreign or closed order is refused with its code', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', 'home', 120, 50);
    expect(refused(engine.edit('maker', { sessionID: 'nope' })).code).toBe('invalid_id');
    expect(refused(engine.edit('maker', { sessionID: 'ffffffffffffffffffffffff' })).code).toBe('not_found');
    expect(refused(engine.edit('taker', { sessionID: id, orderOdds: 130 })).code).toBe('not_yours');
    engine.cancel('maker', id);
    expect(refused(engine.edit('maker', { sessionID: id, orderOdds: 130 }))).toMatchObject({
      code: 'not_open',
      error: 'order already cancelled',
    });
    expect(refused(engine.edit('ghost', { sessionID: id })).errorType).toBe('validation_error');
  });

  it('live delay: a crossing edit on a live game waits, the order unchanged meanwhile', () => {
    const { engine, clock, events } = newEngine({ live: true });
    rest(engine, 'taker', 'away', -110, 110);
    const id = rest(engine, 'maker', 'home', 120, 50);
    const d = engine.edit('maker', { sessionID: id, orderOdds: 105 });
    expect(d).toMatchObject({ status: 'delayed', executeAt: T0 + 5_000 });
    expect(engine.order(id)).toMatchObject({ odds: 120, status: 'open' });
    clock.advance(5_000);
    engine.advance();
    const ran = events.find((e) => e.kind === 'delayedExecuted');
    expect(ran?.kind === 'delayedExecuted' && ran.outcome).toMatchObject({ status: 'ok', edit: { mode: 'amended' } });
    expect(engine.order(id)).toMatchObject({ status: 'filled', odds: 105, filled: 50 });
  });

  it('live delay: an order filled during the wait makes the delayed edit fail', () => {
    const { engine, clock, events } = newEngine({ live: true });
    rest(engine, 'taker', 'away', -110, 110);
    const id = rest(engine, 'maker', 'home', 120, 50);
    expect(engine.edit('maker', { sessionID: id, orderOdds: 105 }).status).toBe('delayed');
    engine.cancel('maker', id);
    clock.advance(5_000);
    engine.advance();
    const ran = events.find((e) => e.kind === 'delayedExecuted');
    expect(ran?.kind === 'delayedExecuted' && ran.outcome).toMatchObject({
      status: 'error',
      errorType: 'validation_error',
    });
  });
});
