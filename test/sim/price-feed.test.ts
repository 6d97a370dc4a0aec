import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { Clients, FeedClient } from './ws-client.ts';

const PATH = '/price-stream';

let t: TestSim;
let maker: { id: string; token: string };
let taker: { id: string; token: string };
const clients = new Clients(() => t.url);

beforeAll(async () => {
  t = await startTestSim();
  maker = await t.user('pf-maker');
  taker = await t.user('pf-taker');
});
afterEach(() => clients.closeAll());
afterAll(() => t.close());

const engine = () => t.sim.context.engine;
const away = (g: EngineGame) => g.participants[0].id;
const home = (g: EngineGame) => g.participants[1].id;

function place(userId: string, order: Record<string, unknown>) {
  const [entry] = engine().place(userId, [order]);
  if (!entry || entry.status !== 'ok') throw new Error(`place failed: ${JSON.stringify(entry)}`);
  return entry;
}

/** A resting maker order on the home moneyline of the game (listed to takers of away). */
function restHome(g: EngineGame, odds = -120, bet = 100) {
  return place(maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds, bet });
}

const isOrderUpdate = (gameID: string) => (m: any) =>
  Array.isArray(m) && m[0] === 'orderUpdate' && m[1].gameID === gameID;
const isType = (type: string, gameID?: string) => (m: any) =>
  Array.isArray(m) && m[0] === type && (gameID === undefined || m[1].gameID === gameID || m[1].id === gameID);
const gamesOf = (frames: unknown[]) =>
  frames.filter((m): m is [string, any] => Array.isArray(m)).map((m) => m[1].gameID ?? m[1].id);

async function subscriber(): Promise<FeedClient> {
  const c = await clients.open(PATH, taker.token);
  await c.roundTrip();
  return c;
}

async function narrow(c: FeedClient, frame: unknown): Promise<void> {
  c.send(frame);
  await c.roundTrip();
}

describe('price feed messages', () => {
  it('orderUpdate on place, fill and cancel carries the full side list, and an empty list when the side empties', async () => {
    const g = t.game();
    const c = await subscriber();

    const first = restHome(g, -120, 100);
    const second = restHome(g, -125, 50);
    const u1 = (await c.take(isOrderUpdate(g.id))).value[1];
    expect(u1).toMatchObject({
      gameID: g.id,
      parentGameID: null,
      sport: 'basketball',
      league: 'NBA',
      live: false,
      type: 'moneyline',
      participantID: away(g),
      mainHomeSpread: null,
      mainAwaySpread: null,
      mainTotal: null,
    });
    expect(typeof u1.epoch).toBe('number');
    expect(u1.sideOrders).toHaveLength(1);
    expect(u1.sideOrders[0]).toMatchObject({
      id: first.unmatched!.orderID,
      type: 'moneyline',
      odds: 120,
      bet: 100,
      gameID: g.id,
      takenRatio: 0,
      participantID: away(g),
    });
    expect(u1.sideOrders[0].sumUntaken).toBeCloseTo(100 / 1.2, 9);
    expect(u1.sideOrders[0]).not.toHaveProperty('isPostArb');
    expect(u1.sideOrders[0]).not.toHaveProperty('createdBy');

    // The second order: the full list, best price for the taker first.
    const u2 = (await c.take(isOrderUpdate(g.id))).value[1];
    expect(u2.sideOrders.map((o: any) => o.id)).toEqual([second.unmatched!.orderID, first.unmatched!.orderID]);
    expect(u2.sideOrders.map((o: any) => o.odds)).toEqual([125, 120]);
    expect(u2.epoch).toBeGreaterThan(u1.epoch);

    // A taker takes all of the +125 order and part of the +120 one.
    place(taker.id, { gameID: g.id, type: 'moneyline', side: away(g), odds: 120, bet: 100 });
    const u3 = (await c.take(isOrderUpdate(g.id))).value[1];
    expect(u3.epoch).toBeGreaterThan(u2.epoch);
    expect(u3.sideOrders).toHaveLength(1);
    expect(u3.sideOrders[0].id).toBe(first.unmatched!.orderID);
    // The -125 maker risking 50 absorbs a stake of 50 × 0.8 = 40 at +125; the other 60 at +120
    // takes 60 × 1.2 = 72 of the first maker's risk.
    expect(u3.sideOrders[0].takenRatio).toBeCloseTo(0.72, 9);
    expect(u3.sideOrders[0].sumUntaken).toBeCloseTo((100 - 72) / 1.2, 9);

    const mv = (await c.take(isType('matchedVolumeUpdate', g.id))).value;
    expect(mv[1]).toEqual({
      gameID: g.id,
      parentGameID: null,
      league: 'NBA',
      sport: 'basketball',
      matchedVolume: engine().matchedVolume(g.id),
    });
    expect(mv[1].matchedVolume).toBeCloseTo(40 + 50 + 60 + 72, 9);

    engine().cancel(maker.id, first.unmatched!.orderID);
    const u4 = (await c.take(isOrderUpdate(g.id))).value[1];
    expect(u4.sideOrders).toEqual([]);
    expect(u4.participantID).toBe(away(g));
    expect(u4.epoch).toBeGreaterThan(u3.epoch);
  });

  it('sends matchedVolumeUpdate once per game per engine call', async () => {
    const g = t.game();
    const c = await subscriber();
    restHome(g, -110, 50);
    restHome(g, -110, 50);
    // One batch, two taker orders, three fills: one volume update.
    engine().place(taker.id, [
      { gameID: g.id, type: 'moneyline', side: away(g), odds: 110, bet: 30 },
      { gameID: g.id, type: 'moneyline', side: away(g), odds: 110, bet: 60 },
    ]);
    await c.take(isType('matchedVolumeUpdate', g.id));
    restHome(g, -110, 10); // a later update marks the end of what the batch produced
    await c.take((m) => isOrderUpdate(g.id)(m) && m[1].sideOrders.length === 2);
    const volumes = c.frames.filter((f) => isType('matchedVolumeUpdate', g.id)(f.json));
    expect(volumes).toHaveLength(1);
  });

  it('labels totals (participantID null, OU, total) and moneyline1x2 (participantID "", market + side, no OU/total/spread)', async () => {
    const c = await subscriber();
    const g = t.game();
    place(maker.id, { gameID: g.id, type: 'total', side: 'over', number: 209.5, odds: -104, bet: 265.2 });
    const tot = (await c.take((m) => isOrderUpdate(g.id)(m) && m[1].type === 'total')).value[1];
    expect(tot).toMatchObject({
      participantID: null,
      OU: 'under',
      total: 209.5,
      spread: null,
      mainTotal: 209.5,
      mainHomeSpread: null,
    });
    expect(tot.sideOrders[0]).toMatchObject({ odds: 104, OU: 'under', total: 209.5 });
    expect(tot.sideOrders[0].sumUntaken).toBeCloseTo(255, 9);

    place(maker.id, { gameID: g.id, type: 'spread', side: home(g), number: -3.5, odds: -110, bet: 110 });
    const sp = (await c.take((m) => isOrderUpdate(g.id)(m) && m[1].type === 'spread')).value[1];
    expect(sp).toMatchObject({
      participantID: away(g),
      spread: 3.5,
      OU: null,
      total: null,
      mainHomeSpread: -3.5,
      mainAwaySpread: 3.5,
      mainTotal: 209.5,
    });

    const s = t.game({ league: 'EPL', sport: 'soccer' });
    place(maker.id, { gameID: s.id, type: 'moneyline1x2', market: 'draw', side: 'yes', odds: 250, bet: 10 });
    const x = (await c.take(isOrderUpdate(s.id))).value[1];
    expect(x).toMatchObject({
      type: 'moneyline1x2',
      participantID: '',
      market: 'draw',
      side: 'no',
      sport: 'soccer',
      league: 'EPL',
    });
    expect(x).not.toHaveProperty('OU');
    expect(x).not.toHaveProperty('total');
    expect(x).not.toHaveProperty('spread');
    expect(x.sideOrders[0]).toMatchObject({ odds: -250, market: 'draw', side: 'no' });
  });

  it('marks postArb orders with isPostArb: true only', async () => {
    const c = await subscriber();
    const g = t.game();
    place(maker.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: -120, bet: 10, orderType: 'postArb' });
    const u = (await c.take(isOrderUpdate(g.id))).value[1];
    expect(u.sideOrders[0].isPostArb).toBe(true);
  });

  it('gameUpdate on creation, admin changes and settlement, with marketOpen / marketClosed', async () => {
    const c = await subscriber();
    const g = t.game({ league: 'NHL', sport: 'hockey' });
    const created = (await c.take(isType('gameUpdate', g.id))).value[1];
    expect(created).toMatchObject({
      id: g.id,
      league: 'NHL',
      sport: 'hockey',
      ended: false,
      live: false,
      parentGameID: null,
      messageType: 'marketOpen',
    });
    expect(created.participants.map((p: any) => p.homeAway)).toEqual(['away', 'home']);
    for (const k of ['homeMoneylines', 'awayMoneylines', 'homeMoneylines1x2', 'awayMoneylines1x2', 'draw1x2']) {
      expect(created[k]).toEqual([]);
    }
    // Spread and total collections are keyed by the line (feeds §8).
    for (const k of ['homeSpreads', 'awaySpreads', 'over', 'under']) expect(created[k]).toEqual({});
    expect(created).toHaveProperty('mainHomeSpread', null);
    expect(created).toHaveProperty('mainTotal', null);

    restHome(g, -150, 30);
    await c.take(isOrderUpdate(g.id));
    expect(engine().updateGame(g.id, { start: engine().now() + 3_600_000 }).ok).toBe(true);
    const updated = (await c.take(isType('gameUpdate', g.id))).value[1];
    expect(updated.messageType).toBe('marketOpen');
    expect(updated.awayMoneylines).toHaveLength(1);
    expect(updated.awayMoneylines[0]).toMatchObject({ odds: 150, bet: 30 });

    expect(engine().updateGame(g.id, { live: true }).ok).toBe(true);
    const live = (await c.take((m) => isType('gameUpdate', g.id)(m) && m[1].live === true)).value[1];
    expect(live.messageType).toBe('marketOpen');

    expect(engine().settleGame(g.id, { away: 1, home: 3 }).ok).toBe(true);
    const ended = (await c.take((m) => isType('gameUpdate', g.id)(m) && m[1].ended === true)).value[1];
    expect(ended.messageType).toBe('marketClosed');
    expect(ended.participants[1].score).toBe(3);
  });

  it('survives malformed client frames', async () => {
    const c = await subscriber();
    c.send('not json at all');
    c.send({ type: 'bogus' });
    c.send({ type: 'subscribe', leagueIDs: 'NBA' });
    c.send([1, 2, 3]);
    await c.roundTrip();
    const g = t.game();
    restHome(g);
    await c.take(isOrderUpdate(g.id));
    expect(c.closed).toBe(false);
  });
});

describe('price feed subscriptions', () => {
  it('replace: true installs exactly the lists; league matching is case-insensitive', async () => {
    const nba = t.game({ league: 'NBA', sport: 'basketball' });
    const nhl = t.game({ league: 'NHL', sport: 'hockey' });
    const c = await subscriber();
    await narrow(c, { type: 'subscribe', gameIDs: [], leagueIDs: ['nba'], sportIDs: [], replace: true });
    restHome(nhl);
    restHome(nba);
    const { skipped } = await c.take(isOrderUpdate(nba.id));
    expect(gamesOf(skipped)).not.toContain(nhl.id);
    // A second replace drops NBA for hockey (sport, upper case).
    await narrow(c, { type: 'subscribe', gameIDs: [], leagueIDs: [], sportIDs: ['HOCKEY'], replace: true });
    restHome(nba);
    restHome(nhl);
    const second = await c.take(isOrderUpdate(nhl.id));
    expect(gamesOf(second.skipped)).not.toContain(nba.id);
  });

  it('an all-empty replace delivers nothing until the next subscribe', async () => {
    const g = t.game();
    const c = await subscriber();
    await narrow(c, { type: 'subscribe', gameIDs: [], leagueIDs: [], sportIDs: [], replace: true });
    restHome(g, -120, 10);
    t.game(); // a gameUpdate, also not delivered
    await narrow(c, { type: 'subscribe', gameIDs: [g.id], replace: false });
    restHome(g, -130, 10);
    const { value, skipped } = await c.take(isOrderUpdate(g.id));
    expect(skipped).toEqual([]);
    expect(value[1].sideOrders).toHaveLength(2); // the first update delivered is the second change
  });

  it('an all-empty additive subscribe is a no-op (broadcast-all stays); empty strings are ignored', async () => {
    const nhl = t.game({ league: 'NHL', sport: 'hockey' });
    const c = await subscriber();
    await narrow(c, { type: 'subscribe', gameIDs: [], leagueIDs: [''], sportIDs: [], replace: false });
    restHome(nhl);
    await c.take(isOrderUpdate(nhl.id));
  });

  it('replace: false adds to the lists (the first one narrows broadcast-all)', async () => {
    const nba = t.game({ league: 'NBA', sport: 'basketball' });
    const nhl = t.game({ league: 'NHL', sport: 'hockey' });
    const mlb = t.game({ league: 'MLB', sport: 'baseball' });
    const c = await subscriber();
    await narrow(c, { type: 'subscribe', leagueIDs: ['NBA'], replace: false });
    restHome(nhl);
    restHome(nba);
    expect(gamesOf((await c.take(isOrderUpdate(nba.id))).skipped)).not.toContain(nhl.id);
    await narrow(c, { type: 'subscribe', sportIDs: ['Hockey'], replace: false });
    restHome(mlb);
    restHome(nhl);
    expect(gamesOf((await c.take(isOrderUpdate(nhl.id))).skipped)).not.toContain(mlb.id);
    restHome(nba);
    await c.take(isOrderUpdate(nba.id));
  });

  it('unsubscribe removes from the lists', async () => {
    const nba = t.game({ league: 'NBA', sport: 'basketball' });
    const nhl = t.game({ league: 'NHL', sport: 'hockey' });
    const c = await subscriber();
    await narrow(c, { type: 'subscribe', leagueIDs: ['NBA', 'NHL'], replace: true });
    restHome(nhl);
    await c.take(isOrderUpdate(nhl.id));
    await narrow(c, { type: 'unsubscribe', gameIDs: [], leagueIDs: ['nhl'], sportIDs: [] });
    restHome(nhl);
    restHome(nba);
    expect(gamesOf((await c.take(isOrderUpdate(nba.id))).skipped)).not.toContain(nhl.id);
  });

  it('subscribeAll returns to broadcast-all', async () => {
    const nhl = t.game({ league: 'NHL', sport: 'hockey' });
    const c = await subscriber();
    await narrow(c, { type: 'subscribe', replace: true });
    await narrow(c, { type: 'subscribeAll' });
    restHome(nhl);
    await c.take(isOrderUpdate(nhl.id));
  });

  it('a game subscription reaches child games through parentGameID', async () => {
    const parent = t.game({ league: 'NBA', sport: 'basketball' });
    const child = t.game({ league: 'NBA-1H', sport: 'basketball', parentGameID: parent.id });
    const other = t.game({ league: 'NBA', sport: 'basketball' });
    const c = await subscriber();
    await narrow(c, { type: 'subscribe', gameIDs: [parent.id], replace: true });
    restHome(other);
    restHome(child);
    const { value, skipped } = await c.take(isOrderUpdate(child.id));
    expect(value[1].parentGameID).toBe(parent.id);
    expect(gamesOf(skipped)).not.toContain(other.id);
    restHome(parent);
    await c.take(isOrderUpdate(parent.id));
  });

  it('malformedFeedRate replaces outgoing frames with unparseable ones', async () => {
    const c = await subscriber();
    const g = t.game();
    const ctx = t.sim.context;
    ctx.faults.malformedFeedRate = 1;
    try {
      restHome(g, -140, 10);
    } finally {
      ctx.faults.malformedFeedRate = 0;
    }
    restHome(g, -150, 10);
    const { value, skipped } = await c.take(isOrderUpdate(g.id));
    expect(value[1].sideOrders).toHaveLength(2);
    expect(skipped.some((f) => typeof f === 'string')).toBe(true);
    for (const f of skipped.filter((x): x is string => typeof x === 'string')) expect(() => JSON.parse(f)).toThrow();
  });

  it('serialises each message once for every subscriber (same bytes to all)', async () => {
    const a = await subscriber();
    const b = await subscriber();
    const g = t.game();
    restHome(g, -105, 12.5);
    const fa = await a.take(isOrderUpdate(g.id));
    const fb = await b.take(isOrderUpdate(g.id));
    expect(fb.value).toEqual(fa.value);
    const rawA = a.frames.find((f) => isOrderUpdate(g.id)(f.json))!.raw;
    const rawB = b.frames.find((f) => isOrderUpdate(g.id)(f.json))!.raw;
    expect(rawB).toBe(rawA);
  });
});

describe('price feed epoch', () => {
  it('increases strictly even when the clock stands still', async () => {
    const sim = await startTestSim({ time: manualTime() });
    try {
      const u = await sim.user('pf-epoch');
      const g = sim.game();
      const c = await FeedClient.open(sim.url, PATH, u.token);
      await c.roundTrip();
      for (let i = 0; i < 5; i++)
        sim.sim.context.engine.place(u.id, [
          { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: -110 - i, bet: 10 },
        ]);
      const epochs: number[] = [];
      for (let i = 0; i < 5; i++) epochs.push((await c.take(isOrderUpdate(g.id))).value[1].epoch);
      for (let i = 1; i < epochs.length; i++) expect(epochs[i]!).toBeGreaterThan(epochs[i - 1]!);
      await c.close();
    } finally {
      await sim.close();
    }
  });
});

describe('price feed authentication', () => {
  it('rejects a handshake without a valid token with 401', async () => {
    await expect(clients.open(PATH, null)).rejects.toMatchObject({ status: 401 });
    await expect(clients.open(PATH, 'f'.repeat(256))).rejects.toMatchObject({ status: 401 });
    const ok = await clients.open(PATH, `Bearer ${taker.token}`);
    expect(ok.closed).toBe(false);
  });
});
