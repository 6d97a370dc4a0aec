import { afterEach, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { manualTime } from '../../src/shared/time.ts';
import { createUser } from '../../src/sim/ops/admin-ops.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

/**
 * Simulator REST answers in the shapes the exchange's published descriptions give where
 * exchange-api.md leaves them open: a field the description types as a string is left out
 * when there is nothing to put in it (never null), and an offer-side graded row carries
 * the fields the published offer-side row requires.
 */

const T0 = Date.UTC(2026, 2, 1, 12);
const away = (g: EngineGame) => g.participants[0].id;
const home = (g: EngineGame) => g.participants[1].id;

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('fields the published descriptions type as strings are absent, not null', () => {
  it('login leaves email out for an account without one and gives it for one with one', async () => {
    t = await startTestSim();
    const plain = await t.user('no-mail');
    const login = await t.http('POST', '/user/login', { body: { username: 'no-mail', password: plain.password } });
    expect(login.status).toBe(200);
    expect(login.body.data.user).not.toHaveProperty('email');
    await t.user('with-mail', { email: 'w@example.com' });
    const other = await t.http('POST', '/user/login', { body: { username: 'with-mail', password: 'pw-with-mail' } });
    expect(other.body.data.user.email).toBe('w@example.com');
  });

  it('a cancel result of an order without a userReference has none; one with it echoes it', async () => {
    t = await startTestSim();
    const u = await t.user('canceller');
    const g = t.game();
    const place = await t.http('POST', '/session/v3/place', {
      token: u.token,
      body: {
        orders: [
          { gameID: g.id, type: 'moneyline', side: home(g), odds: -120, bet: 50 },
          { gameID: g.id, type: 'moneyline', side: home(g), odds: -130, bet: 40, userReference: 'r-1' },
        ],
      },
    });
    const [plainId, refId] = place.body.data.createdSessions.map(
      (e: { unmatched: { orderID: string } }) => e.unmatched.orderID,
    );
    const one = await t.http('POST', '/session/cancel', { token: u.token, body: { sessionID: plainId } });
    expect(one.status).toBe(200);
    expect(one.body.data).not.toHaveProperty('userReference');
    const many = await t.http('POST', '/session/cancelMultiple', {
      token: u.token,
      body: { sessionIDs: [refId, plainId] },
    });
    expect(many.body.data[0]).toMatchObject({ success: true, userReference: 'r-1' });
    expect(many.body.data[1]).not.toHaveProperty('userReference');
  });

  it('getUnmatched leaves participant ids out on a total and userReference out when none was given', async () => {
    t = await startTestSim();
    const u = await t.user('rester');
    const g = t.game();
    await t.http('POST', '/session/v3/place', {
      token: u.token,
      body: {
        orders: [
          { gameID: g.id, type: 'total', side: 'over', number: 209.5, odds: -104, bet: 20 },
          { gameID: g.id, type: 'moneyline', side: home(g), odds: -110, bet: 10, userReference: 'ml' },
        ],
      },
    });
    const res = await t.http('GET', '/user/getUnmatched', { token: u.token });
    const [total, ml] = res.body.data.unmatched;
    expect(total).toMatchObject({ type: 'total', total: 209.5, spread: null });
    expect(total).not.toHaveProperty('participantID');
    expect(total).not.toHaveProperty('otherParticipantID');
    expect(total).not.toHaveProperty('userReference');
    expect(ml).toMatchObject({ participantID: home(g), otherParticipantID: away(g), userReference: 'ml' });
  });

  it('REST orderbooks (v2 and v1) leave participantID out on a total order', async () => {
    t = await startTestSim();
    const u = await t.user('booker');
    const g = t.game();
    await t.http('POST', '/session/v3/place', {
      token: u.token,
      body: { orders: [{ gameID: g.id, type: 'total', side: 'over', number: 209.5, odds: -104, bet: 20 }] },
    });
    const v2 = await t.http('GET', `/exchange/v2/getOrderbook?gameID=${g.id}`, { token: u.token });
    const [entry] = v2.body.data.games[0].under;
    expect(entry).toMatchObject({ total: 209.5, OU: 'under' });
    expect(entry).not.toHaveProperty('participantID');
    const v1 = await t.http('POST', '/exchange/getOrderbook', { token: u.token, body: { leagueRequested: 'NBA' } });
    const under = Object.values(v1.body.data.games[0].under as Record<string, unknown[]>).flat();
    expect(under).toHaveLength(1);
    expect(under[0]).not.toHaveProperty('participantID');
  });
});

describe('an offer-side graded row has the fields of the published offer-side row', () => {
  it('carries takenRatio of the posted order and spread/total, null where the market has none', async () => {
    t = await startTestSim({ time: manualTime(T0) });
    const engine = t.sim.context.engine;
    const mk = (username: string) => {
      const made = createUser(t!.sim.context, {
        username,
        password: `pw-${username}`,
        balance: 1_000_000,
        commission: 0.01,
      });
      if (!made.ok) throw new Error(made.error);
      return { id: made.value.id, token: t!.sim.context.tokens.issue(made.value.id) };
    };
    const maker = mk('maker');
    const taker = mk('taker');
    const g = t.game({ start: T0 - 86_400_000 });
    const [rest] = engine.place(maker.id, [
      { gameID: g.id, type: 'total', side: 'over', number: 200.5, odds: -110, bet: 110 },
    ]);
    expect(rest?.status).toBe('ok');
    const [take] = engine.place(taker.id, [
      { gameID: g.id, type: 'total', side: 'under', number: 200.5, odds: 110, bet: 25 },
    ]);
    expect(take?.status === 'ok' && take.matched.length).toBe(1);
    expect(engine.settleGame(g.id, { away: 100, home: 110 }).ok).toBe(true);

    const res = await t.http('GET', '/user/v2/getGraded', { token: maker.token, raw: true });
    expect(res.status).toBe(200);
    const [row] = res.body.data.graded;
    expect(row).toMatchObject({ origin: 'offer', total: 200.5, OU: 'over', spread: null });
    expect(row.takenRatio).toBeGreaterThan(0);
    expect(row.takenRatio).toBeLessThan(1);
    const mine = engine.bets(maker.id)[0]!;
    expect(row.takenRatio).toBeCloseTo(mine.money.amount / 110, 9);

    const walk = await t.http('GET', '/user/v2/getGradedSince', { token: maker.token, raw: true });
    expect(walk.body.data.graded[0]).toMatchObject({
      origin: 'offer',
      takenRatio: row.takenRatio,
      spread: null,
      total: 200.5,
    });

    // The bet lookups render the same graded row.
    const byId = await t.http('GET', `/user/getBetByID?id=${mine.id}`, { token: maker.token });
    expect(byId.body.data.bet).toMatchObject({ origin: 'offer', takenRatio: row.takenRatio });
    const byRequest = await t.http('GET', `/user/getBetByWagerRequestID?wagerRequestID=${mine.wagerRequestID}`, {
      token: maker.token,
    });
    expect(byRequest.body.data.graded[0]).toMatchObject({ origin: 'offer', takenRatio: row.takenRatio });

    // The taker's own (wager-side) row carries neither takenRatio nor a null spread.
    const theirs = await t.http('GET', '/user/v2/getGraded', { token: taker.token, raw: true });
    expect(theirs.body.data.graded[0]).not.toHaveProperty('takenRatio');
    expect(theirs.body.data.graded[0]).not.toHaveProperty('spread');
  });
});
