import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

type U = { id: string; token: string; username: string };
const UNKNOWN_ID = 'ffffffffffffffffffffffff';

async function placeMany(t: TestSim, token: string, orders: unknown[]): Promise<any[]> {
  const res = await t.http('POST', '/session/v3/place', { token, body: { orders } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.createdSessions;
}

async function place(t: TestSim, token: string, order: Record<string, unknown>): Promise<any> {
  const [entry] = await placeMany(t, token, [order]);
  return entry;
}

async function rest(t: TestSim, token: string, order: Record<string, unknown>): Promise<string> {
  const entry = await place(t, token, order);
  expect(entry.matched, JSON.stringify(entry)).toEqual([]);
  return entry.unmatched.orderID as string;
}

describe('POST /session/v3/place', () => {
  let t: TestSim;
  let maker: U;
  let taker: U;
  let g: EngineGame;
  let soccer: EngineGame;
  beforeAll(async () => {
    t = await startTestSim();
    maker = await t.user('maker');
    taker = await t.user('taker');
    g = t.game({ league: 'NBA' });
    soccer = t.game({ league: 'EPL', sport: 'soccer' });
  });
  afterAll(() => t?.close());

  it('rests an order of every market type and echoes the unmatched part', async () => {
    const [away, home] = g.participants;
    const entries = await placeMany(t, maker.token, [
      { gameID: g.id, type: 'moneyline', side: home.id, odds: -120, bet: 100, userReference: 'ml-1' },
      { gameID: g.id, type: 'spread', side: away.id, number: 2.5, odds: 105, bet: 40 },
      { gameID: g.id, type: 'total', side: 'under', number: 200.5, odds: -115, bet: 60, expirationMinutes: 15 },
      { gameID: soccer.id, type: 'moneyline1x2', side: 'yes', market: 'draw', odds: 240, bet: 25 },
      { gameID: soccer.id, type: 'moneyline1x2', side: 'no', market: soccer.participants[1].id, odds: -140, bet: 70 },
    ]);
    expect(entries).toHaveLength(5);
    for (const e of entries) {
      expect(e.matched).toEqual([]);
      expect(e.unmatched.orderID).toMatch(/^[0-9a-f]{24}$/);
      expect(e.unmatched.wagerRequestID).toMatch(/^[0-9a-f]{24}$/);
    }
    expect(entries[0].unmatched).toMatchObject({
      offered: 100,
      odds: -120,
      type: 'moneyline',
      side: home.id,
      number: null,
      userReference: 'ml-1',
    });
    expect(entries[1].unmatched).toMatchObject({ offered: 40, odds: 105, type: 'spread', side: away.id, number: 2.5 });
    expect(entries[2].unmatched).toMatchObject({
      offered: 60,
      odds: -115,
      type: 'total',
      side: 'under',
      number: 200.5,
    });
    expect(entries[3].unmatched).toMatchObject({
      offered: 25,
      odds: 240,
      type: 'moneyline1x2',
      side: 'yes',
      market: 'draw',
      number: null,
    });
    expect(entries[4].unmatched).toMatchObject({
      offered: 70,
      type: 'moneyline1x2',
      side: 'no',
      market: soccer.participants[1].id,
    });
    expect(entries[1].unmatched).not.toHaveProperty('userReference');
    expect(t.sim.context.engine.openOrders(maker.id).map((o) => o.id)).toEqual(entries.map((e) => e.unmatched.orderID));
  });

  it('matches a crossing limit order as taker with commission and rests the remainder', async () => {
    const g2 = t.game();
    const [away, home] = g2.participants;
    const makerOrder = await rest(t, maker.token, {
      gameID: g2.id,
      type: 'moneyline',
      side: home.id,
      odds: -110,
      bet: 110,
    });
    const e = await place(t, taker.token, {
      gameID: g2.id,
      type: 'moneyline',
      side: away.id,
      odds: 110,
      bet: 150,
      userReference: 'tk',
    });
    expect(e.matched).toHaveLength(1);
    const m = e.matched[0];
    expect(m).toMatchObject({
      odds: 110,
      number: null,
      type: 'moneyline',
      side: away.id,
      orderID: makerOrder,
      userReference: 'tk',
    });
    expect(m.amount).toBeCloseTo(100, 9);
    expect(m.winWithoutCommission).toBeCloseTo(110, 9);
    expect(m.win).toBeCloseTo(108.9, 9);
    expect(m.risk).toBeCloseTo(101, 9);
    expect(m.txID).toMatch(/^[0-9a-f]{24}$/);
    expect(e.unmatched).toMatchObject({
      odds: 110,
      side: away.id,
      userReference: 'tk',
      wagerRequestID: m.wagerRequestID,
    });
    expect(e.unmatched.offered).toBeCloseTo(50, 9);
  });

  it('applies the post, fillAndKill, fillOrKill and postArb rules', async () => {
    const g3 = t.game();
    const [away, home] = g3.participants;
    const base = { gameID: g3.id, type: 'moneyline' };
    // Listed to away takers at +110 with capacity 100.
    const makerOrder = await rest(t, maker.token, { ...base, side: home.id, odds: -110, bet: 110 });

    expect(await place(t, taker.token, { ...base, side: away.id, odds: 105, bet: 10, orderType: 'post' })).toEqual({
      error: 'post order cannot have matches',
      errorType: 'rejected_order_type_rules',
    });
    const posted = await place(t, taker.token, { ...base, side: away.id, odds: 120, bet: 10, orderType: 'post' });
    expect(posted.unmatched.offered).toBe(10);

    expect(
      await place(t, taker.token, { ...base, side: away.id, odds: 150, bet: 10, orderType: 'fillAndKill' }),
    ).toEqual({
      error: 'fill and kill has no matches',
      errorType: 'rejected_order_type_rules',
    });
    expect(
      await place(t, taker.token, { ...base, side: away.id, odds: 110, bet: 150, orderType: 'fillOrKill' }),
    ).toEqual({
      error: 'fill or kill matched but not fully',
      errorType: 'rejected_order_type_rules',
    });
    expect(t.sim.context.engine.order(makerOrder)?.remaining).toBe(110);
    expect(
      await place(t, taker.token, { ...base, side: away.id, odds: 150, bet: 10, orderType: 'fillOrKill' }),
    ).toEqual({
      error: 'fill or kill has no matches',
      errorType: 'rejected_order_type_rules',
    });
    // postArb more than 1% away from the resting +110 is rejected.
    const far = await place(t, taker.token, { ...base, side: away.id, odds: 100, bet: 10, orderType: 'postArb' });
    expect(far.errorType).toBe('rejected_order_type_rules');
    // postArb within 1% matches without taker fees.
    const arb = await place(t, taker.token, { ...base, side: away.id, odds: 109, bet: 20, orderType: 'postArb' });
    expect(arb.matched).toHaveLength(1);
    expect(arb.matched[0].odds).toBe(110);
    expect(arb.matched[0].win).toBeCloseTo(arb.matched[0].winWithoutCommission, 9);
    expect(arb.matched[0].risk).toBeCloseTo(20, 9);
    expect(arb).not.toHaveProperty('isPostArb');
    // fillAndKill takes what is there (capacity 80 left) and kills the rest.
    const fak = await place(t, taker.token, { ...base, side: away.id, odds: 110, bet: 100, orderType: 'fillAndKill' });
    expect(fak.matched[0].amount).toBeCloseTo(80, 9);
    expect(fak.unmatched).toEqual({});
    // fillOrKill with a residual of at most 10 counts as complete.
    await rest(t, maker.token, { ...base, side: home.id, odds: -110, bet: 110 });
    const fok = await place(t, taker.token, { ...base, side: away.id, odds: 110, bet: 108, orderType: 'fillOrKill' });
    expect(fok.matched[0].amount).toBeCloseTo(100, 9);
    expect(fok.unmatched).toEqual({});
  });

  it('answers a batch positionally, failing entries in place with HTTP 200', async () => {
    const home = g.participants[1].id;
    const entries = await placeMany(t, maker.token, [
      { gameID: g.id, type: 'moneyline', side: home, odds: -150, bet: 10 },
      { gameID: UNKNOWN_ID, type: 'moneyline', side: home, odds: -150, bet: 10 },
      42,
      { gameID: g.id, type: 'moneyline', side: home, odds: 50, bet: 10 },
      { gameID: g.id, type: 'total', side: 'over', number: 201.5, odds: -150, bet: 10 },
    ]);
    expect(entries).toHaveLength(5);
    expect(entries[0].unmatched.offered).toBe(10);
    expect(entries[1]).toEqual({ error: 'game not found: invalid gameID', errorType: 'validation_error' });
    expect(entries[2]).toMatchObject({ errorType: 'validation_error' });
    expect(entries[3].errorType).toBe('validation_error');
    expect(entries[3].error).toContain('odds');
    expect(entries[4].unmatched.type).toBe('total');
  });

  it('rejects liability beyond the balance per entry', async () => {
    const poor = await t.user('poor', { balance: 50 });
    const [e] = await placeMany(t, poor.token, [
      { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: 200, bet: 100 },
    ]);
    expect(e).toEqual({ error: 'Insufficient balance.', errorType: 'rejected_liability' });
  });

  it.each([
    [{}, 'orders is required'],
    [{ orders: {} }, 'orders must be'],
    [{ orders: 'x' }, 'orders must be'],
    [{ orders: [] }, 'orders must be'],
    [[1, 2], 'JSON object'],
  ])('answers 400 for body %j', async (body, message) => {
    const res = await t.http('POST', '/session/v3/place', { token: maker.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  it('answers 400 for a batch above the maximum size', async () => {
    const max = t.sim.context.settings.maxBatch;
    const order = { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: -500, bet: 1 };
    const res = await t.http('POST', '/session/v3/place', {
      token: maker.token,
      body: { orders: Array.from({ length: max + 1 }, () => order) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(String(max));
    expect(t.sim.context.engine.openOrders(maker.id).filter((o) => o.odds === -500)).toEqual([]);
  });

  it('needs a token', async () => {
    const res = await t.http('POST', '/session/v3/place', { body: { orders: [] } });
    expect(res.status).toBe(401);
  });
});

describe('live delay', () => {
  let t: TestSim;
  afterEach(() => t?.close());

  async function setup() {
    t = await startTestSim({ time: manualTime(Date.UTC(2026, 4, 1, 18)) });
    const maker = await t.user('maker');
    const taker = await t.user('taker');
    const g = t.game({ league: 'NBA', live: true, start: Date.UTC(2026, 4, 1, 17) });
    const [away, home] = g.participants;
    // A non-crossing order on a live game is placed at once.
    const makerOrder = await rest(t, maker.token, {
      gameID: g.id,
      type: 'moneyline',
      side: home.id,
      odds: -110,
      bet: 110,
    });
    return { maker, taker, g, away, home, makerOrder, time: t.sim.context.time as ManualTimeSource };
  }

  async function pending(p: Promise<unknown>) {
    let settled = false;
    void p.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    return !settled;
  }

  it('holds a crossing order for the league delay (NBA 5 s), then answers with the fill', async () => {
    const { taker, g, away, makerOrder, time } = await setup();
    const now = time.clock.now();
    const req = t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: { orders: [{ gameID: g.id, type: 'moneyline', side: away.id, odds: 110, bet: 50 }] },
    });
    await vi.waitFor(() => expect(t.sim.context.engine.nextDueAt()).toBe(now + 5_000));
    time.advance(4_999);
    expect(await pending(req)).toBe(true);
    expect(t.sim.context.engine.order(makerOrder)?.filled).toBe(0);
    time.advance(1);
    const res = await req;
    expect(res.status).toBe(200);
    const [entry] = res.body.data.createdSessions;
    expect(entry.matched).toHaveLength(1);
    expect(entry.matched[0]).toMatchObject({ orderID: makerOrder, odds: 110 });
    expect(entry.matched[0].amount).toBeCloseTo(50, 9);
  });

  it('does not match when the liquidity left during the delay', async () => {
    const { maker, taker, g, away, makerOrder, time } = await setup();
    const now = time.clock.now();
    const req = t.http('POST', '/session/v3/place', {
      token: taker.token,
      body: { orders: [{ gameID: g.id, type: 'moneyline', side: away.id, odds: 110, bet: 50 }] },
    });
    await vi.waitFor(() => expect(t.sim.context.engine.nextDueAt()).toBe(now + 5_000));
    expect(
      (await t.http('POST', '/session/cancel', { token: maker.token, body: { sessionID: makerOrder } })).status,
    ).toBe(200);
    time.advance(5_000);
    const [entry] = (await req).body.data.createdSessions;
    expect(entry.matched).toEqual([]);
    expect(entry.unmatched.offered).toBe(50);
  });
});

describe('POST /session/cancel and /session/cancelMultiple', () => {
  let t: TestSim;
  let maker: U;
  let taker: U;
  let stranger: U;
  let g: EngineGame;
  beforeAll(async () => {
    t = await startTestSim();
    maker = await t.user('maker');
    taker = await t.user('taker');
    stranger = await t.user('stranger');
    g = t.game({
      league: 'NBA',
      participants: [
        { longName: 'Boston Celtics', shortName: 'BOS' },
        { longName: 'Miami Heat', shortName: 'MIA' },
      ],
    });
  });
  afterAll(() => t?.close());

  const cancel = (token: string, body: unknown) => t.http('POST', '/session/cancel', { token, body });
  const restHome = (odds = -110, bet = 110, extra: Record<string, unknown> = {}) =>
    rest(t, maker.token, { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds, bet, ...extra });

  it('cancels a partly filled order and reports the amounts at cancellation', async () => {
    const id = await restHome(-110, 110, { userReference: 'c-1' });
    const fill = await place(t, taker.token, {
      gameID: g.id,
      type: 'moneyline',
      side: g.participants[0].id,
      odds: 110,
      bet: 50,
    });
    expect(fill.matched[0].amount).toBeCloseTo(50, 9);
    const res = await cancel(maker.token, { sessionID: id });
    expect(res.status).toBe(200);
    const r = res.body.data;
    expect(r).toMatchObject({
      success: true,
      sessionID: id,
      description: 'Miami Heat moneyline @ -110',
      odds: -110,
      offered: 0,
      gameID: g.id,
      userReference: 'c-1',
    });
    expect(r.filled).toBeCloseTo(55, 9);
    expect(r.remaining).toBeCloseTo(55, 9);
    expect(t.sim.context.engine.order(id)?.status).toBe('cancelled');
  });

  it.each([
    ['a malformed id', 'not-an-id'],
    ['an unknown id', UNKNOWN_ID],
  ])('answers 400 invalid order id for %s', async (_what, sessionID) => {
    const res = await cancel(maker.token, { sessionID });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid order id' });
  });

  it('answers 400 naming sessionID when it is missing', async () => {
    const res = await cancel(maker.token, {});
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('sessionID');
  });

  it("answers 403 for another user's order and leaves it open", async () => {
    const id = await restHome();
    const res = await cancel(stranger.token, { sessionID: id });
    expect(res.status).toBe(403);
    expect(typeof res.body.error).toBe('string');
    expect(t.sim.context.engine.order(id)?.status).toBe('open');
  });

  it('answers 409 for an order already cancelled or fully filled', async () => {
    const id = await restHome();
    expect((await cancel(maker.token, { sessionID: id })).status).toBe(200);
    const again = await cancel(maker.token, { sessionID: id });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'order already cancelled' });

    const g2 = t.game();
    const filled = await rest(t, maker.token, {
      gameID: g2.id,
      type: 'moneyline',
      side: g2.participants[1].id,
      odds: -110,
      bet: 110,
    });
    const hit = await place(t, taker.token, {
      gameID: g2.id,
      type: 'moneyline',
      side: g2.participants[0].id,
      odds: 110,
      bet: 100,
    });
    expect(hit.matched[0].orderID).toBe(filled);
    const res = await cancel(maker.token, { sessionID: filled });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'order already filled' });
  });

  it.each([
    [{}, 'sessionIDs is required'],
    [{ sessionIDs: 'abc' }, 'sessionIDs must be an array'],
    [{ sessionIDs: { a: 1 } }, 'sessionIDs must be an array'],
  ])('cancelMultiple answers 400 for %j', async (body, message) => {
    const res = await t.http('POST', '/session/cancelMultiple', { token: maker.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  it('cancelMultiple fails the whole request when any id is malformed', async () => {
    const id = await restHome();
    const res = await t.http('POST', '/session/cancelMultiple', {
      token: maker.token,
      body: { sessionIDs: [id, 'bad-id'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('sessionIDs[1]');
    expect(t.sim.context.engine.order(id)?.status).toBe('open');
  });

  it('cancelMultiple answers one result per id, failures for unknown and foreign ids without sessionID', async () => {
    const mine = await restHome(-120, 60);
    const theirs = await rest(t, stranger.token, {
      gameID: g.id,
      type: 'total',
      side: 'over',
      number: 215.5,
      odds: -110,
      bet: 20,
    });
    const done = await restHome(-125, 10);
    expect((await cancel(maker.token, { sessionID: done })).status).toBe(200);
    const res = await t.http('POST', '/session/cancelMultiple', {
      token: maker.token,
      body: { sessionIDs: [mine, UNKNOWN_ID, theirs, done] },
    });
    expect(res.status).toBe(200);
    const [a, b, c, d] = res.body.data;
    expect(res.body.data).toHaveLength(4);
    expect(a).toMatchObject({
      success: true,
      sessionID: mine,
      odds: -120,
      filled: 0,
      offered: 0,
      remaining: 60,
      gameID: g.id,
    });
    expect(a).not.toHaveProperty('userReference');
    expect(b).toEqual({ success: false, reason: 'order not found' });
    expect(c.success).toBe(false);
    expect(typeof c.reason).toBe('string');
    expect(c).not.toHaveProperty('sessionID');
    expect(d).toMatchObject({ success: false, reason: 'order already cancelled', sessionID: done });
    expect(t.sim.context.engine.order(theirs)?.status).toBe('open');
    expect(t.sim.context.engine.order(mine)?.status).toBe('cancelled');
  });
});

describe('GET /session/lookupOrder', () => {
  let t: TestSim;
  let maker: U;
  let taker: U;
  let stranger: U;
  let g: EngineGame;
  let soccer: EngineGame;
  beforeAll(async () => {
    t = await startTestSim();
    maker = await t.user('maker');
    taker = await t.user('taker');
    stranger = await t.user('stranger');
    g = t.game({ league: 'NBA', eventName: 'Opening night' });
    soccer = t.game({ league: 'EPL', sport: 'soccer' });
  });
  afterAll(() => t?.close());

  const lookup = (token: string, orderID?: string) =>
    t.http('GET', `/session/lookupOrder${orderID === undefined ? '' : `?orderID=${encodeURIComponent(orderID)}`}`, {
      token,
    });

  it('returns a spread order in its own view with matched and unmatched risk', async () => {
    const [away, home] = g.participants;
    const id = await rest(t, maker.token, {
      gameID: g.id,
      type: 'spread',
      side: home.id,
      number: -3.5,
      odds: -110,
      bet: 110,
    });
    await place(t, taker.token, { gameID: g.id, type: 'spread', side: away.id, number: 3.5, odds: 110, bet: 50 });
    const res = await lookup(maker.token, id);
    expect(res.status).toBe(200);
    expect(res.body.data.order).toEqual({
      id,
      cancelled: false,
      isTheBestOffer: true,
      odds: -110,
      type: 'spread',
      OU: null,
      participant: home.id,
      participantLongName: home.longName,
      spread: -3.5,
      total: null,
      matchedRisk: '55.00',
      unmatchedRisk: '55.00',
      game: {
        id: g.id,
        isSpecials: false,
        eventName: 'Opening night',
        tournamentName: null,
        periodName: 'Game',
        league: 'NBA',
        sport: 'basketball',
        live: false,
        ended: false,
        parentGameID: null,
        start: new Date(g.start).toISOString(),
        isFutures: false,
        participants: [
          { id: away.id, longName: away.longName, shortName: away.shortName, homeAway: 'away' },
          { id: home.id, longName: home.longName, shortName: home.shortName, homeAway: 'home' },
        ],
      },
    });
  });

  it('flags the best offer and reports OU as the opposite side for totals', async () => {
    const worse = await rest(t, maker.token, {
      gameID: g.id,
      type: 'total',
      side: 'over',
      number: 210.5,
      odds: -110,
      bet: 50,
    });
    const better = await rest(t, maker.token, {
      gameID: g.id,
      type: 'total',
      side: 'over',
      number: 210.5,
      odds: -120,
      bet: 50,
    });
    const w = (await lookup(maker.token, worse)).body.data.order;
    const b = (await lookup(maker.token, better)).body.data.order;
    expect(b).toMatchObject({
      isTheBestOffer: true,
      OU: 'under',
      participant: null,
      total: 210.5,
      spread: null,
      matchedRisk: '0.00',
      unmatchedRisk: '50.00',
    });
    expect(w.isTheBestOffer).toBe(false);
  });

  it('carries market and side for moneyline1x2, and cancelled after a cancel', async () => {
    const home = soccer.participants[1];
    const id = await rest(t, maker.token, {
      gameID: soccer.id,
      type: 'moneyline1x2',
      side: 'no',
      market: home.id,
      odds: -150,
      bet: 30,
    });
    const before = (await lookup(maker.token, id)).body.data.order;
    expect(before).toMatchObject({
      type: 'moneyline1x2',
      market: home.id,
      side: 'no',
      participant: home.id,
      odds: -150,
      cancelled: false,
      OU: null,
    });
    await t.http('POST', '/session/cancel', { token: maker.token, body: { sessionID: id } });
    const after = (await lookup(maker.token, id)).body.data.order;
    expect(after).toMatchObject({ cancelled: true, isTheBestOffer: false, unmatchedRisk: '0.00' });
  });

  it("answers 403 for another user's order", async () => {
    const id = await rest(t, maker.token, {
      gameID: g.id,
      type: 'moneyline',
      side: g.participants[0].id,
      odds: 130,
      bet: 10,
    });
    const res = await lookup(stranger.token, id);
    expect(res.status).toBe(403);
    expect(typeof res.body.error).toBe('string');
  });

  it.each([
    ['malformed', 'zzz'],
    ['unknown', UNKNOWN_ID],
  ])('answers 404 invalid order id for a %s id', async (_what, id) => {
    const res = await lookup(maker.token, id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'invalid order id' });
  });

  it('answers 400 naming orderID when it is missing', async () => {
    const res = await lookup(maker.token);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('orderID');
  });
});
