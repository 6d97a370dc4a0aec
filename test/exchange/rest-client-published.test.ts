/**
 * The client's methods for the rest of the published API (feeds-and-semantics §9), against
 * the real simulator over loopback: edit, cancels by scope, bet lookups, market reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { ExchangeRestClient } from '../../src/exchange/rest/rest-client.ts';
import { etDay } from '../../src/sim/rest/matched-volume.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { clientFor } from './support-rest.ts';

let t: TestSim;
let maker: ExchangeRestClient;
let taker: ExchangeRestClient;
let g: EngineGame;
let g2: EngineGame;

beforeAll(async () => {
  t = await startTestSim();
  maker = (await clientFor(t, 'pub-maker', { balance: 10_000 })).client;
  taker = (await clientFor(t, 'pub-taker')).client;
  g = t.game({ league: 'NBA' });
  g2 = t.game({ league: 'NHL', sport: 'hockey' });
});
afterAll(async () => {
  await Promise.all([maker?.close(), taker?.close()]);
  await t?.close();
});

const home = () => g.participants[1].id;
const away = () => g.participants[0].id;

async function rest(
  c: ExchangeRestClient,
  game: EngineGame,
  odds: number,
  bet: number,
  userReference?: string,
): Promise<string> {
  const [e] = await c.place([
    {
      gameID: game.id,
      type: 'moneyline',
      side: game.participants[1].id,
      odds,
      bet,
      ...(userReference ? { userReference } : {}),
    },
  ]);
  if (e?.status !== 'accepted' || !e.resting) throw new Error(`not resting: ${JSON.stringify(e)}`);
  return e.resting.orderID;
}

describe('ExchangeRestClient.editOrder', () => {
  it('amends an unfilled order under its id, with the old terms as cancelled', async () => {
    const id = await rest(maker, g, 150, 40, 'pub-e1');
    const e = await maker.editOrder({ orderID: id, odds: 160, volume: 60 });
    if (e.status !== 'edited') throw new Error(JSON.stringify(e));
    expect(e.unmatched).toMatchObject({ orderID: id, offered: 60, odds: 160, userReference: 'pub-e1' });
    expect(e.matched).toEqual([]);
    expect(e.cancelled).toMatchObject({ ok: true, orderID: id, odds: 150 });
    expect((await maker.lookupOrder(id)).odds).toBe(160);
  });

  it('replaces a partly filled order; the whole new volume rests under a new id', async () => {
    await maker.cancelAllOrders();
    const id = await rest(maker, g, 100, 100);
    const [taken] = await taker.place([{ gameID: g.id, type: 'moneyline', side: away(), odds: -100, bet: 30 }]);
    expect(taken?.status).toBe('accepted');
    const e = await maker.editOrder({ orderID: id, odds: 110 });
    if (e.status !== 'edited') throw new Error(JSON.stringify(e));
    expect(e.unmatched?.orderID).not.toBe(id);
    expect(e.unmatched).toMatchObject({ offered: 100, odds: 110 });
    expect(e.cancelled).toMatchObject({ ok: true, orderID: id, filled: 30 });
  });

  it('a refusal is a value with the status, the reason and (v4) the errorType', async () => {
    const id = await rest(maker, g, 300, 10);
    const v4 = await maker.editOrder({ orderID: id, volume: 1e7 });
    expect(v4).toMatchObject({
      status: 'refused',
      orderID: id,
      httpStatus: 400,
      reason: 'Insufficient balance.',
      errorType: 'rejected_liability',
    });
    const v1 = await maker.editOrder({ orderID: id, odds: 5 }, { version: 'v1' });
    expect(v1).toMatchObject({ status: 'refused', httpStatus: 400, errorType: null });
    const blocked = await maker.editOrder({ orderID: id, odds: 310, blockIfNoOtherSideOrders: true });
    expect(blocked).toMatchObject({ status: 'refused', errorType: 'rejected_order_type_rules' });
    const gone = await maker.editOrder({ orderID: 'ffffffffffffffffffffffff', odds: 120 });
    expect(gone).toMatchObject({ status: 'refused', errorType: 'validation_error' });
  });

  it('a 429 is not waited out: the edit comes back failed, not sent again, the order as it was', async () => {
    const id = await rest(maker, g, 400, 10);
    const before = { ...maker.stats };
    expect((await t.http('POST', '/admin/faults', { body: { rateLimitBurst: 1 } })).status).toBe(200);
    const e = await maker.editOrder({ orderID: id, odds: 410 });
    expect(e).toMatchObject({ status: 'failed', orderID: id, outcomeUnknown: false });
    expect(maker.stats.calls - before.calls).toBe(1);
    expect(maker.stats.retries - before.retries).toBe(0);
    expect(maker.stats.rateLimited - before.rateLimited).toBe(1);
    expect((await maker.lookupOrder(id)).odds).toBe(400);
  });
});

describe('ExchangeRestClient cancels by scope', () => {
  it('cancelAllOrders and cancelAllOrdersForGame answer cancel entries', async () => {
    await maker.cancelAllOrders();
    const a = await rest(maker, g, 200, 10);
    const b = await rest(maker, g2, 200, 10);
    const forGame = await maker.cancelAllOrdersForGame(g2.id, 'moneyline');
    expect(forGame).toMatchObject({ ok: true, entries: [{ ok: true, orderID: b, gameID: g2.id }] });
    const all = await maker.cancelAllOrders();
    expect(all).toMatchObject({ ok: true, entries: [{ ok: true, orderID: a }] });
    expect(await maker.getUnmatched()).toEqual([]);
  });

  it('cancelByReference and cancelAllForLeague', async () => {
    const a = await rest(maker, g, 200, 10, 'pub-ref-a');
    await rest(maker, g, 200, 10, 'pub-ref-b');
    const hockey = await rest(maker, g2, 200, 10, 'pub-ref-a');
    const byRef = await maker.cancelByReference(g.id, ['pub-ref-a']);
    expect(byRef).toMatchObject({ ok: true, entries: [{ ok: true, orderID: a, userReference: 'pub-ref-a' }] });
    expect(await maker.cancelAllForLeague('NBA')).toEqual({ ok: true, ordersReceived: true });
    expect((await maker.getUnmatched()).map((o) => o.id)).toEqual([hockey]);
  });

  it('a refused scope is a value, not a throw', async () => {
    expect(await maker.cancelAllOrdersForGame('not-a-game')).toMatchObject({
      ok: false,
      httpStatus: 400,
      outcomeUnknown: false,
    });
    expect(await maker.cancelAllForLeague('NO-SUCH-LEAGUE')).toMatchObject({
      ok: false,
      httpStatus: 400,
      outcomeUnknown: false,
    });
  });
});

describe('ExchangeRestClient bet lookups', () => {
  it('getBetByUserReference, getOrdersForGame, getBetByWagerRequestID and getBetByID, typed', async () => {
    await maker.cancelAllOrders();
    const [placed] = await maker.place([
      { gameID: g.id, type: 'moneyline', side: home(), odds: 100, bet: 50, userReference: 'pub-look' },
    ]);
    if (placed?.status !== 'accepted' || !placed.resting) throw new Error(JSON.stringify(placed));
    const [taken] = await taker.place([{ gameID: g.id, type: 'moneyline', side: away(), odds: -100, bet: 20 }]);
    if (taken?.status !== 'accepted') throw new Error(JSON.stringify(taken));

    const byRef = await maker.getBetByUserReference('pub-look', g.id);
    expect(byRef.unmatched.map((o) => o.id)).toEqual([placed.resting.orderID]);
    expect(byRef.matched).toHaveLength(1);
    expect(byRef.matched[0]).toMatchObject({ origin: 'offer', userReference: 'pub-look', risk: 20 });
    expect(byRef.graded).toEqual([]);

    const forGame = await maker.getOrdersForGame(g.id);
    expect(forGame.unmatched.map((o) => o.id)).toEqual([placed.resting.orderID]);
    // The game's earlier fills of the maker are listed too.
    expect(forGame.matched.map((b) => b.id)).toContain(byRef.matched[0]!.id);

    const byRequest = await maker.getBetByWagerRequestID(placed.resting.wagerRequestID);
    expect(byRequest).toMatchObject({ unmatched: [], graded: [] });
    expect(byRequest.matched).toHaveLength(1);

    const bet = await maker.getBetByID({ id: byRef.matched[0]!.id });
    expect(bet).toMatchObject({ kind: 'matched', bet: { txID: byRef.matched[0]!.txID } });
    const open = await maker.getBetByID({ id: placed.resting.orderID });
    expect(open).toMatchObject({ kind: 'open', bet: { id: placed.resting.orderID, remaining: 30 } });
    expect(await maker.getBetByID({ txID: 'ffffffffffffffffffffffff' })).toBeNull();
  });

  it('bad lookups are typed HTTP errors', async () => {
    await expect(maker.getBetByUserReference('x', 'not-a-game')).rejects.toMatchObject({
      code: 'LS_ERR_HTTP_STATUS',
      status: 408,
    });
    await expect(maker.getOrdersForGame('ffffffffffffffffffffffff')).rejects.toMatchObject({ status: 404 });
  });
});

describe('ExchangeRestClient market reads', () => {
  it('getSingleOrderbook, getOddsForAveragePrice and getMatchedVolume', async () => {
    await maker.cancelAllOrders();
    await rest(maker, g, 120, 100);
    const book = await maker.getSingleOrderbook(g.id);
    expect(book.game.id).toBe(g.id);
    expect(book.game.awayMoneylines.map((o) => o.odds)).toEqual([-120]);
    expect(book.orderSummary).toHaveLength(1);

    const prices = await taker.getOddsForAveragePrice('NBA');
    const mine = prices.find((x) => x.id === g.id);
    expect(mine?.odds).toMatchObject({ bestAwayMoneyline: -120, bestHomeMoneyline: null });

    const today = etDay(t.sim.context.time.clock.now());
    const volume = await taker.getMatchedVolume(today, today);
    expect(volume.startDate).toBe(today);
    expect(volume.matchedVolume).toBeGreaterThan(0);
    await expect(taker.getMatchedVolume('2020-01-02', '2020-01-01')).rejects.toMatchObject({ status: 400 });
  });
});
