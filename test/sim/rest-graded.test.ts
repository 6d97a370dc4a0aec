import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { EngineGame, PlaceInput } from '../../src/engine/types.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { createUser } from '../../src/sim/ops/admin-ops.ts';
import { decodeCursor, encodeCursor, parseIsoInstant, settledThroughAt } from '../../src/sim/rest/graded-cursor.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

const T0 = Date.UTC(2026, 2, 1, 12);
const HOUR = 3_600_000;
const DAY = 86_400_000;
const UNAUTHORIZED = { error: { message: 'InvalidCredentials', code: 401 } };
const iso = (ms: number) => new Date(ms).toISOString();

interface U {
  readonly id: string;
  readonly token: string;
}

function mkUser(t: TestSim, username: string, commission = 0.01): U {
  const made = createUser(t.sim.context, { username, password: `pw-${username}`, balance: 1_000_000, commission });
  if (!made.ok) throw new Error(made.error);
  return { id: made.value.id, token: t.sim.context.tokens.issue(made.value.id) };
}

const away = (g: EngineGame) => g.participants[0].id;
const home = (g: EngineGame) => g.participants[1].id;

/**
 * `n` separate fills on the home moneyline of `g`: the maker rests away at -110, the
 * taker takes home at +110 with `n` orders of `stake` each. Returns the txIDs.
 */
function fills(t: TestSim, g: EngineGame, maker: U, taker: U, n: number, stake = 1, userReference?: string): string[] {
  const engine = t.sim.context.engine;
  const [rest] = engine.place(maker.id, [
    { gameID: g.id, type: 'moneyline', side: away(g), odds: -110, bet: n * stake * 1.2 },
  ]);
  if (rest?.status !== 'ok' || rest.matched.length !== 0)
    throw new Error(`maker order failed: ${JSON.stringify(rest)}`);
  const orders: PlaceInput[] = Array.from({ length: n }, () => ({
    gameID: g.id,
    type: 'moneyline',
    side: home(g),
    odds: 110,
    bet: stake,
    ...(userReference ? { userReference } : {}),
  }));
  const out: string[] = [];
  for (const e of engine.place(taker.id, orders)) {
    if (e.status !== 'ok' || e.matched.length !== 1) throw new Error(`taker order failed: ${JSON.stringify(e)}`);
    out.push(e.matched[0]!.txID);
  }
  return out;
}

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(): Promise<TestSim & { time: ManualTimeSource }> {
  const time = manualTime(T0);
  t = await startTestSim({ time });
  return Object.assign(t, { time });
}

type Row = {
  txID: string;
  outcome: string;
  settledAt: string;
  result: string;
  adminRefund: boolean;
  game: { id: string };
};

/** GET getGradedSince with the raw token. */
async function since(s: TestSim, u: U, query: string) {
  return s.http('GET', `/user/v2/getGradedSince?${query}`, { token: u.token, raw: true });
}

describe('GET|POST /user/v2/getGraded and /user/getGradedWagers', () => {
  /** Four games starting 40, 10 and 1 day ago and tomorrow, one graded fill each. */
  async function history() {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const a = s.game({ start: T0 - 40 * DAY });
    const b = s.game({ start: T0 - 10 * DAY });
    const c = s.game({ start: T0 - DAY });
    const d = s.game({ start: T0 + DAY });
    const [txA] = fills(s, a, maker, taker, 1, 100, 'ref-a');
    const [txB] = fills(s, b, maker, taker, 1, 50);
    const [txC] = fills(s, c, maker, taker, 1, 20);
    const [txD] = fills(s, d, maker, taker, 1, 10);
    const e = s.sim.context.engine;
    expect(e.settleGame(a.id, { away: 1, home: 2 }).ok).toBe(true); // taker wins 100 × 1.1 × 0.99 = 108.90
    expect(e.settleGame(b.id, { away: 2, home: 1 }).ok).toBe(true); // taker loses 50 + 0.50
    expect(e.settleGame(c.id, { away: 1, home: 2 }).ok).toBe(true); // taker wins 20 × 1.089 = 21.78
    expect(e.settleGame(d.id, { away: 1, home: 2 }).ok).toBe(true); // starts after now: outside the default window
    return { s, maker, taker, a, b, c, d, txA: txA!, txB: txB!, txC: txC!, txD: txD! };
  }

  it('selects by game start: startDate inclusive, endDate exclusive, default end now, with a summary', async () => {
    const { s, taker, a, b, c, txA, txB, txC } = await history();
    const get = (q: string) => s.http('GET', `/user/v2/getGraded${q}`, { token: taker.token, raw: true });

    const all = await get('');
    expect(all.status).toBe(200);
    expect(all.body.data.graded.map((r: Row) => r.txID)).toEqual([txA, txB, txC]);
    expect(all.body.data.summary.pnl).toBeCloseTo(108.9 - 50.5 + 21.78, 9);
    expect(all.body.data.summary.volume).toBe(170);
    // pnl is the sum of the rows' 2-decimal results, to the cent.
    const cents = all.body.data.graded.reduce((sum: number, r: Row) => sum + Math.round(Number(r.result) * 100), 0);
    expect(all.body.data.summary.pnl).toBe(cents / 100);

    const last20 = await get(`?startDate=${iso(T0 - 20 * DAY)}`);
    expect(last20.body.data.graded.map((r: Row) => r.txID)).toEqual([txB, txC]);
    expect(last20.body.data.summary).toEqual({ pnl: -28.72, volume: 70 });

    const exact = await get(`?startDate=${iso(b.start)}&endDate=${iso(c.start)}`);
    expect(exact.body.data.graded.map((r: Row) => r.txID)).toEqual([txB]);
    expect(exact.body.data.summary).toEqual({ pnl: -50.5, volume: 50 });

    // Any ISO 8601: a date alone, an offset, a basic form.
    const dateOnly = await get(`?startDate=2026-01-15&endDate=2026-02-15`);
    expect(dateOnly.body.data.graded.map((r: Row) => r.txID)).toEqual([txA]);
    expect(dateOnly.body.data.graded[0].game.id).toBe(a.id);
    const offset = await get(`?startDate=${encodeURIComponent('2026-02-19T13:00:00+01:00')}&endDate=20260228T1201Z`);
    expect(offset.body.data.graded.map((r: Row) => r.txID)).toEqual([txB, txC]);
  });

  it('answers 400 for a window wider than 35 days, a reversed window or a non-ISO date', async () => {
    const { s, taker, txA } = await history();
    const get = (q: string) => s.http('GET', `/user/v2/getGraded${q}`, { token: taker.token, raw: true });
    for (const q of [
      `?startDate=${iso(T0 - 50 * DAY)}`,
      `?startDate=${iso(T0 - 36 * DAY)}&endDate=${iso(T0 - DAY + 1)}`,
      `?startDate=${iso(T0)}&endDate=${iso(T0 - DAY)}`,
      `?startDate=yesterday`,
      `?endDate=2026-13-01`,
    ]) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    const exactly35 = await get(`?startDate=${iso(T0 - 50 * DAY)}&endDate=${iso(T0 - 15 * DAY)}`);
    expect(exactly35.status).toBe(200);
    expect(exactly35.body.data.graded.map((r: Row) => r.txID)).toEqual([txA]);
  });

  it('renders graded rows per the contract, and takes the same parameters as a POST body on both URLs', async () => {
    const { s, taker, maker, a, txA } = await history();
    const body = { startDate: iso(T0 - 45 * DAY), endDate: iso(T0 - 30 * DAY) };
    const viaGet = await s.http('GET', `/user/v2/getGraded?startDate=${body.startDate}&endDate=${body.endDate}`, {
      token: taker.token,
      raw: true,
    });
    const viaPost = await s.http('POST', '/user/v2/getGraded', { token: taker.token, raw: true, body });
    const legacyGet = await s.http('GET', `/user/getGradedWagers?startDate=${body.startDate}&endDate=${body.endDate}`, {
      token: taker.token,
      raw: true,
    });
    const legacyPost = await s.http('POST', '/user/getGradedWagers', { token: taker.token, raw: true, body });
    for (const r of [viaPost, legacyGet, legacyPost]) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual(viaGet.body);
    }
    const bet = s.sim.context.engine.bets(taker.id).find((x) => x.txID === txA)!;
    const [row] = viaGet.body.data.graded;
    expect(row).toEqual({
      game: expect.objectContaining({ id: a.id, ended: true, league: 'NBA' }),
      id: bet.orderID,
      type: 'moneyline',
      bet: 100,
      txID: txA,
      closed: false,
      ticketNumber: bet.id,
      odds: 110,
      fee: '1.10',
      risk: '101.00',
      win: '108.90',
      origin: 'wager',
      cancelled: false,
      outcome: 'winner',
      graded: true,
      createdAt: iso(T0),
      matchedTime: iso(T0),
      settledAt: iso(T0),
      adminRefund: false,
      wagerRequestID: bet.wagerRequestID,
      userReference: 'ref-a',
      platform: 'api',
      result: '108.90',
      participantID: home(a),
    });
    expect(row.game.participants).toEqual([
      expect.objectContaining({ id: away(a), homeAway: 'away', futuresSide: 'away', score: 1 }),
      expect.objectContaining({ id: home(a), homeAway: 'home', futuresSide: 'home', score: 2 }),
    ]);
    // The maker's row of the same fill: offer, no fee, loses its 110 risk.
    const m = await s.http('POST', '/user/v2/getGraded', { token: maker.token, raw: true, body });
    expect(m.body.data.graded[0]).toMatchObject({
      txID: txA,
      origin: 'offer',
      odds: -110,
      fee: '0.00',
      risk: '110.00',
      win: '100.00',
      outcome: 'loser',
      result: '-110.00',
    });
    expect(m.body.data.summary).toEqual({ pnl: -110, volume: 110 });
  });

  it('requires the raw token: a Bearer-prefixed header is a 401', async () => {
    const s = await start();
    const u = mkUser(s, 'u');
    for (const path of ['/user/v2/getGraded', '/user/getGradedWagers', '/user/v2/getGradedSince']) {
      const bearer = await s.http('GET', path, { token: u.token });
      expect(bearer.status, path).toBe(401);
      expect(bearer.body).toEqual(UNAUTHORIZED);
      expect((await s.http('GET', path, { token: u.token, raw: true })).status, path).toBe(200);
    }
  });

  it('allows 60 calls a minute per user, then 429 with Retry-After', async () => {
    const s = await start();
    const u = mkUser(s, 'u');
    const other = mkUser(s, 'other');
    for (let i = 0; i < 60; i++) {
      const res = await s.http(i % 2 ? 'GET' : 'POST', i % 3 ? '/user/v2/getGraded' : '/user/getGradedWagers', {
        token: u.token,
        raw: true,
      });
      expect(res.status, `call ${i + 1}`).toBe(200);
    }
    const limited = await s.http('GET', '/user/v2/getGraded', { token: u.token, raw: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(typeof limited.body.error).toBe('string');
    // Per user: another account is unaffected.
    expect((await s.http('GET', '/user/v2/getGraded', { token: other.token, raw: true })).status).toBe(200);
    s.time.advance(60_000);
    expect((await s.http('GET', '/user/v2/getGraded', { token: u.token, raw: true })).status).toBe(200);
  });
});

describe('GET|POST /user/v2/getGradedSince', () => {
  it('pages 100 rows at a time with hasMore, starting strictly after since', async () => {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const g = s.game();
    const txs = fills(s, g, maker, taker, 150);
    s.time.advance(1_000);
    const settledAt = T0 + 1_000;
    expect(s.sim.context.engine.settleGame(g.id, { away: 1, home: 2 }).ok).toBe(true);

    const p1 = await since(s, taker, `since=${iso(T0)}`);
    expect(p1.status).toBe(200);
    expect(p1.body.data.graded).toHaveLength(100);
    expect(p1.body.data.hasMore).toBe(true);
    expect(typeof p1.body.data.cursor).toBe('string');
    // The page ends inside the 150-row group settled in one millisecond, with nothing
    // complete after `since`: settledThrough stays at `since`.
    expect(p1.body.data.settledThrough).toBe(iso(T0));

    const p2 = await s.http('POST', '/user/v2/getGradedSince', {
      token: taker.token,
      raw: true,
      body: { cursor: p1.body.data.cursor },
    });
    expect(p2.status).toBe(200);
    expect(p2.body.data.graded).toHaveLength(50);
    expect(p2.body.data.hasMore).toBe(false);
    const seen = [...p1.body.data.graded, ...p2.body.data.graded].map((r: Row) => r.txID);
    expect(seen).toEqual(txs);
    for (const r of [...p1.body.data.graded, ...p2.body.data.graded])
      expect(r).toMatchObject({ outcome: 'winner', settledAt: iso(settledAt), graded: true, origin: 'wager' });
    // Caught up, but the millisecond of the settlement is still "now": another settlement
    // may land in it, so it is not complete yet.
    expect(p2.body.data.settledThrough).toBe(iso(T0));

    s.time.advance(1);
    const p3 = await since(s, taker, `cursor=${p2.body.data.cursor}`);
    expect(p3.body.data).toEqual({
      graded: [],
      hasMore: false,
      cursor: p2.body.data.cursor,
      settledThrough: iso(settledAt),
    });

    // Strictly after: since = the settlement instant returns nothing.
    const none = await since(s, taker, `since=${iso(settledAt)}`);
    expect(none.body.data.graded).toEqual([]);
    expect(none.body.data.hasMore).toBe(false);
    expect(none.body.data.settledThrough).toBe(iso(settledAt));
    // A later empty call with that cursor returns it unchanged.
    const again = await since(s, taker, `cursor=${none.body.data.cursor}`);
    expect(again.body.data.cursor).toBe(none.body.data.cursor);
  });

  it('steps settledThrough back when a page ends inside a same-millisecond group; resuming from it misses nothing', async () => {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const g1 = s.game();
    const g2 = s.game();
    const tx1 = fills(s, g1, maker, taker, 60);
    const tx2 = fills(s, g2, maker, taker, 60);
    const t1 = T0 + 1_000;
    const t2 = T0 + 1_005;
    s.time.advanceTo(t1);
    s.sim.context.engine.settleGame(g1.id, { away: 1, home: 2 });
    s.time.advanceTo(t2);
    s.sim.context.engine.settleGame(g2.id, { away: 1, home: 2 });
    s.time.advance(1);

    const p1 = await since(s, taker, `since=${iso(T0)}`);
    expect(p1.body.data.graded.map((r: Row) => r.txID)).toEqual([...tx1, ...tx2.slice(0, 40)]);
    expect(p1.body.data.hasMore).toBe(true);
    expect(p1.body.data.settledThrough).toBe(iso(t1));

    // A client that restarts from settledThrough gets all of g2 again (deduped by txID).
    const resumed = await since(s, taker, `since=${p1.body.data.settledThrough}`);
    expect(resumed.body.data.graded.map((r: Row) => r.txID)).toEqual(tx2);
    expect(resumed.body.data.hasMore).toBe(false);
    expect(resumed.body.data.settledThrough).toBe(iso(t2));

    const p2 = await since(s, taker, `cursor=${p1.body.data.cursor}`);
    expect(p2.body.data.graded.map((r: Row) => r.txID)).toEqual(tx2.slice(40));
    expect(p2.body.data.settledThrough).toBe(iso(t2));
  });

  it('gives the last row’s instant when a page ends exactly at a group boundary', async () => {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const g1 = s.game();
    const g2 = s.game();
    fills(s, g1, maker, taker, 100);
    const tx2 = fills(s, g2, maker, taker, 10);
    s.time.advanceTo(T0 + 10);
    s.sim.context.engine.settleGame(g1.id, { away: 1, home: 2 });
    s.time.advanceTo(T0 + 20);
    s.sim.context.engine.settleGame(g2.id, { away: 1, home: 2 });
    s.time.advance(1);
    const p1 = await since(s, taker, `since=${iso(T0)}`);
    expect(p1.body.data.graded).toHaveLength(100);
    expect(p1.body.data.hasMore).toBe(true);
    expect(p1.body.data.settledThrough).toBe(iso(T0 + 10));
    const p2 = await since(s, taker, `cursor=${p1.body.data.cursor}`);
    expect(p2.body.data.graded.map((r: Row) => r.txID)).toEqual(tx2);
  });

  it('walks a regrade and a refund as newer versions of the same txIDs', async () => {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const g = s.game();
    const txs = fills(s, g, maker, taker, 3, 10);
    const result = (body: unknown) => s.http('POST', `/admin/games/${g.id}/result`, { body });

    s.time.advance(1_000);
    const first = await result({ awayScore: 90, homeScore: 100 });
    expect(first.status).toBe(200);
    expect(first.body.data.graded).toBe(6); // both sides of 3 fills
    s.time.advance(1_000);
    const w1 = await since(s, taker, `since=${iso(T0)}`);
    expect(w1.body.data.graded.map((r: Row) => [r.txID, r.outcome, r.result])).toEqual(
      txs.map((tx) => [tx, 'winner', '10.89']),
    );

    // Score correction: the away side won after all.
    const regrade = await result({ awayScore: 110, homeScore: 100 });
    expect(regrade.body.data.graded).toBe(6);
    s.time.advance(1_000);
    const w2 = await since(s, taker, `cursor=${w1.body.data.cursor}`);
    expect(w2.body.data.graded.map((r: Row) => [r.txID, r.outcome, r.result, r.settledAt])).toEqual(
      txs.map((tx) => [tx, 'loser', '-10.10', iso(T0 + 2_000)]),
    );
    expect(w2.body.data.cursor).not.toBe(w1.body.data.cursor);

    const refund = await s.http('POST', `/admin/games/${g.id}/refund`);
    expect(refund.body.data.graded).toBe(6);
    s.time.advance(1_000);
    const w3 = await since(s, taker, `cursor=${w2.body.data.cursor}`);
    expect(w3.body.data.graded.map((r: Row) => [r.txID, r.outcome, r.result, r.adminRefund])).toEqual(
      txs.map((tx) => [tx, 'refunded', '0.00', true]),
    );
    expect(w3.body.data.settledThrough).toBe(iso(T0 + 3_000));

    // The full walk holds every version; the date-window read only the latest.
    const full = await since(s, taker, `since=${iso(T0)}`);
    expect(full.body.data.graded).toHaveLength(9);
    // The game starts in two hours: a window by game start must reach it.
    const latest = await s.http('GET', `/user/v2/getGraded?endDate=${iso(T0 + DAY)}`, {
      token: taker.token,
      raw: true,
    });
    expect(latest.body.data.graded.map((r: Row) => [r.txID, r.outcome])).toEqual(txs.map((tx) => [tx, 'refunded']));
    expect(latest.body.data.summary).toEqual({ pnl: 0, volume: 30 });
  });

  it('keeps graded rows for the settled-game retention; a cursor from before it resumes at the oldest row kept', async () => {
    const time = manualTime(T0);
    t = await startTestSim({ time, settings: { settledGameRetentionMs: 2 * HOUR } });
    const s = Object.assign(t, { time });
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const engine = s.sim.context.engine;
    const start = await since(s, taker, `since=${iso(T0 - HOUR)}`);
    expect(start.body.data.graded).toEqual([]);
    const a = s.game();
    const b = s.game();
    const txA = fills(s, a, maker, taker, 3);
    const txB = fills(s, b, maker, taker, 2);
    expect(engine.settleGame(a.id, { away: 1, home: 2 }).ok).toBe(true);
    const readA = await since(s, taker, `cursor=${start.body.data.cursor}`);
    expect(readA.body.data.graded.map((r: Row) => r.txID)).toEqual(txA);
    s.time.advance(HOUR);
    expect(engine.settleGame(b.id, { away: 2, home: 1 }).ok).toBe(true);
    s.time.advance(HOUR + 1);
    engine.advance(); // the retention is applied as the engine runs
    expect(engine.game(a.id)).toBeUndefined();
    expect(engine.game(b.id)?.ended).toBe(true);

    // A cursor past the dropped rows resumes exactly where it was.
    const afterA = await since(s, taker, `cursor=${readA.body.data.cursor}`);
    expect(afterA.status).toBe(200);
    expect(afterA.body.data.graded.map((r: Row) => r.txID)).toEqual(txB);
    // A cursor from before them resumes at the oldest row kept.
    const old = await since(s, taker, `cursor=${start.body.data.cursor}`);
    expect(old.body.data.graded.map((r: Row) => r.txID)).toEqual(txB);
    // Its next cursor continues after them: nothing again.
    const next = await since(s, taker, `cursor=${old.body.data.cursor}`);
    expect(next.body.data.graded).toEqual([]);
    const all = await since(s, taker, `since=${iso(T0 - HOUR)}`);
    expect(all.body.data.graded.map((r: Row) => r.txID)).toEqual(txB);
    const window = await s.http('GET', '/user/v2/getGraded', { token: taker.token, raw: true });
    expect(window.body.data.graded.map((r: Row) => r.txID)).toEqual(txB);
  });

  it('rejects tampered, foreign and forged cursors, since with cursor, and a bad since', async () => {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const g = s.game();
    fills(s, g, maker, taker, 3);
    s.sim.context.engine.settleGame(g.id, { away: 1, home: 2 });
    s.time.advance(1);
    const first = await since(s, taker, `since=${iso(T0 - DAY)}`);
    const cursor: string = first.body.data.cursor;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const flip = (c: string, i: number) => c.slice(0, i) + (c[i] === 'A' ? 'B' : 'A') + c.slice(i + 1);

    const bad = [
      flip(cursor, 5),
      flip(cursor, cursor.length - 1),
      flip(cursor, Math.floor(cursor.length / 2)),
      cursor.slice(0, -4),
      `${cursor}AA`,
      'not-a-cursor',
      Buffer.from(JSON.stringify({ v: 1, u: taker.id, p: 0, t: 0 })).toString('base64url'),
      encodeCursor(randomBytes(32), { userId: taker.id, position: 0, settledThrough: T0 }),
    ];
    for (const c of bad) {
      s.time.advance(600); // stay under 10 calls per 5 s
      const res = await since(s, taker, `cursor=${encodeURIComponent(c)}`);
      expect(res.status, c).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    s.time.advance(5_000);
    // Valid for the taker, not for the maker.
    const foreign = await since(s, maker, `cursor=${cursor}`);
    expect(foreign.status).toBe(400);

    const both = await since(s, taker, `since=${iso(T0)}&cursor=${cursor}`);
    expect(both.status).toBe(400);
    const bothPost = await s.http('POST', '/user/v2/getGradedSince', {
      token: taker.token,
      raw: true,
      body: { since: iso(T0), cursor },
    });
    expect(bothPost.status).toBe(400);
    expect((await since(s, taker, 'since=last-tuesday')).status).toBe(400);

    // The genuine one still works, and an empty page hands it back verbatim.
    const ok = await since(s, taker, `cursor=${cursor}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.graded).toEqual([]);
    expect(ok.body.data.cursor).toBe(cursor);
  });

  it('allows 10 calls per 5 s, answers 429 with Retry-After, and the same cursor works after waiting', async () => {
    const s = await start();
    const maker = mkUser(s, 'maker');
    const taker = mkUser(s, 'taker');
    const g = s.game();
    const txs = fills(s, g, maker, taker, 120);
    s.sim.context.engine.settleGame(g.id, { away: 1, home: 2 });
    const first = await since(s, taker, `since=${iso(T0 - DAY)}`);
    const cursor: string = first.body.data.cursor;
    for (let i = 0; i < 9; i++) expect((await since(s, taker, 'since=2026-01-01')).status, `call ${i + 2}`).toBe(200);
    const limited = await since(s, taker, `cursor=${cursor}`);
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBe(5);

    const clock = await s.http('POST', '/admin/clock', { body: { advanceMs: wait * 1000 } });
    expect(clock.status).toBe(200);
    const retried = await since(s, taker, `cursor=${cursor}`);
    expect(retried.status).toBe(200);
    expect(retried.body.data.graded.map((r: Row) => r.txID)).toEqual(txs.slice(100));
  });
});

describe('graded-cursor helpers', () => {
  it('settledThroughAt follows the rules on a hand-made log', () => {
    const log = [10, 10, 20, 20, 20, 30].map((settledAt) => ({ settledAt }));
    const now = 100;
    expect(settledThroughAt(log, 0, 5, now)).toBe(5); // nothing read yet: the floor
    expect(settledThroughAt(log, 2, 5, now)).toBe(10); // ends at a boundary
    expect(settledThroughAt(log, 3, 5, now)).toBe(10); // inside the 20-group: step back
    expect(settledThroughAt(log, 1, 5, now)).toBe(5); // inside the first group: the floor
    expect(settledThroughAt(log, 5, 5, now)).toBe(20);
    expect(settledThroughAt(log, 6, 5, now)).toBe(30); // caught up
    expect(settledThroughAt(log, 6, 5, 30)).toBe(20); // caught up, but 30 is still the current ms
    expect(settledThroughAt(log, 6, 50, now)).toBe(50); // never below the floor
    expect(settledThroughAt(log, 6, 500, now)).toBe(now); // never after now
  });

  it('decodeCursor accepts only the canonical spelling of a cursor it issued to that user', () => {
    const secret = randomBytes(32);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let aliases = 0;
    // Three consecutive payload lengths cover every byte count modulo 3.
    for (const userId of ['u', 'uu', 'uuu']) {
      const state = { userId, position: 7, settledThrough: T0 };
      const c = encodeCursor(secret, state);
      expect(decodeCursor(secret, c, userId)).toEqual({ ok: true, state });
      expect(decodeCursor(secret, c, 'someone-else').ok).toBe(false);
      expect(decodeCursor(randomBytes(32), c, userId).ok).toBe(false);
      if (Buffer.from(c, 'base64url').length % 3 === 0) continue;
      // Flip a spare bit of the last character: base64 decoding ignores it.
      const alias = c.slice(0, -1) + alphabet[alphabet.indexOf(c.at(-1)!) ^ 1];
      expect(Buffer.from(alias, 'base64url')).toEqual(Buffer.from(c, 'base64url'));
      expect(decodeCursor(secret, alias, userId).ok).toBe(false);
      aliases++;
    }
    expect(aliases).toBe(2);
  });

  it('parseIsoInstant reads ISO 8601 forms and rejects the rest', () => {
    const base = Date.UTC(2026, 2, 1);
    expect(parseIsoInstant('2026-03-01')).toBe(base);
    expect(parseIsoInstant('20260301')).toBe(base);
    expect(parseIsoInstant('2026-03-01T12:30:15.250Z')).toBe(base + 12 * 3_600_000 + 30 * 60_000 + 15_250);
    expect(parseIsoInstant('2026-03-01T12:30')).toBe(base + 12 * 3_600_000 + 30 * 60_000);
    expect(parseIsoInstant('2026-03-01T14:30:00+02:00')).toBe(base + 12 * 3_600_000 + 30 * 60_000);
    expect(parseIsoInstant('2026-03-01T07:30-0500')).toBe(base + 12 * 3_600_000 + 30 * 60_000);
    expect(parseIsoInstant('20260301T123000Z')).toBe(base + 12 * 3_600_000 + 30 * 60_000);
    expect(parseIsoInstant('2026-03-01T12,5Z')).toBe(base + 12.5 * 3_600_000);
    expect(parseIsoInstant('2026-060')).toBe(base); // ordinal: day 60 of 2026
    expect(parseIsoInstant('2026-W09-7')).toBe(base); // 2026-03-01 is the Sunday of week 9
    expect(parseIsoInstant('2026-03')).toBe(base);
    expect(parseIsoInstant('2026-03-01T24:00:00Z')).toBe(base + DAY);
    for (const bad of [
      '',
      'yesterday',
      '2026-02-30',
      '2026-13-01',
      '2026-03-01T25:00Z',
      '2026-03-01T12:60Z',
      '03-01-2026',
      '2026-03-01T12:00:00+24:00',
      '1709294400',
    ]) {
      expect(parseIsoInstant(bad), bad).toBeNull();
    }
    expect(HOUR).toBe(3_600_000);
  });
});
