import { afterEach, describe, expect, it } from 'vitest';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { createIdGenerator } from '../../src/engine/ids.ts';
import type { NewGame } from '../../src/engine/types.ts';
import { MAX_EXPIRATION_MINUTES } from '../../src/engine/wire.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { Clients, type FeedClient } from './ws-client.ts';

/**
 * Every duration and time a request carries is bounded: beyond the documented maximum it is
 * a `validation_error` (or a 400), never a stored time the renderers cannot spell. One order
 * with `expirationMinutes: 1e308` once broke every orderbook read of its league, for every
 * account, with a 500; a socket heartbeat of 30 days was acknowledged and then lapsed at once.
 */

const T0 = Date.UTC(2026, 2, 1, 12);
let t: TestSim | undefined;
const clients = new Clients(() => t!.url);

afterEach(async () => {
  await clients.closeAll();
  await t?.close();
  t = undefined;
});

let seq = 0;
async function request(c: FeedClient, type: string, payload: Record<string, unknown> = {}): Promise<any> {
  const requestID = `tb-${++seq}`;
  c.send([type, { requestID, ...payload }]);
  return (
    await c.take((m) => m !== null && typeof m === 'object' && (m as { requestID?: unknown }).requestID === requestID)
  ).value;
}

describe('expirationMinutes is bounded', () => {
  it(
    'beyond the maximum (1e308, 1.5e11, max + 1) an entry is a validation_error, over REST and ' +
      'the socket; the league still renders for everyone',
    async () => {
      t = await startTestSim({ time: manualTime(T0) });
      const me = await t.user('tb-maker');
      const other = await t.user('tb-other');
      const g = t.game({ league: 'NFL', sport: 'football', start: T0 + 86_400_000 });
      const order = (expirationMinutes: unknown) => ({
        gameID: g.id,
        type: 'moneyline',
        side: g.participants[1].id,
        odds: 150,
        bet: 10,
        expirationMinutes,
      });
      const c = await clients.open('/orders/ws', me.token);
      for (const minutes of [1e308, 1.5e11, MAX_EXPIRATION_MINUTES + 1]) {
        const rest = await t.http('POST', '/session/v3/place', { token: me.token, body: { orders: [order(minutes)] } });
        expect(rest.status).toBe(200);
        expect(rest.body.data.createdSessions[0], String(minutes)).toMatchObject({
          errorType: 'validation_error',
          error: expect.stringContaining('expirationMinutes'),
        });
        const socket = await request(c, 'placeV3', { orders: [{ ...order(minutes), gameId: g.id }] });
        expect(socket.data[0], String(minutes)).toMatchObject({
          error_type: 'validation_error',
          error: expect.stringContaining('expirationMinutes'),
        });
      }
      expect(t.sim.context.engine.openOrders(me.id)).toEqual([]);
      const atMax = await t.http('POST', '/session/v3/place', {
        token: me.token,
        body: { orders: [order(MAX_EXPIRATION_MINUTES)] },
      });
      expect(atMax.body.data.createdSessions[0].unmatched).toBeDefined();
      for (const token of [me.token, other.token]) {
        expect((await t.http('GET', '/exchange/v2/getOrderbook?league=NFL', { token })).status).toBe(200);
        expect(
          (await t.http('POST', '/exchange/getOrderbook', { token, body: { leagueRequested: 'NFL' } })).status,
        ).toBe(200);
      }
      const unmatched = await t.http('GET', '/user/getUnmatched', { token: me.token });
      expect(unmatched.status).toBe(200);
      expect(unmatched.body.data.unmatched[0].expiry).toBe(
        new Date(T0 + MAX_EXPIRATION_MINUTES * 60_000).toISOString(),
      );
    },
  );
});

describe('the engine never stores a time it cannot spell', () => {
  const ids = createIdGenerator(5);
  const participants = (): NewGame['participants'] => [
    { id: ids.next(), longName: 'A', shortName: 'A' },
    { id: ids.next(), longName: 'B', shortName: 'B' },
  ];

  it('an expiry past the last representable instant is a validation_error, whatever the minutes', () => {
    const clock = new ManualClock(8.64e15 - 60_000);
    const engine = new MatchingEngine({ clock, ids });
    const user = { id: ids.next() };
    engine.addUser({ id: user.id, balance: 1000 });
    const game = engine.addGame({
      id: ids.next(),
      league: 'NBA',
      sport: 'basketball',
      participants: participants(),
      start: 8.64e15,
    });
    expect(game.ok).toBe(true);
    if (!game.ok) return;
    const [entry] = engine.place(user.id, [
      {
        gameID: game.value.id,
        type: 'moneyline',
        side: game.value.participants[1].id,
        odds: 150,
        bet: 10,
        expirationMinutes: 5,
      },
    ]);
    expect(entry).toMatchObject({ status: 'error', errorType: 'validation_error' });
    expect(engine.openOrders(user.id)).toEqual([]);
  });

  it('a game start that is finite but no instant (1e300) is refused, on create and on update', () => {
    const engine = new MatchingEngine({ clock: new ManualClock(T0), ids });
    expect(
      engine.addGame({ id: ids.next(), league: 'NBA', sport: 'basketball', participants: participants(), start: 1e300 })
        .ok,
    ).toBe(false);
    const made = engine.addGame({
      id: ids.next(),
      league: 'NBA',
      sport: 'basketball',
      participants: participants(),
      start: T0 + 1000,
    });
    if (!made.ok) throw new Error(made.error.message);
    expect(engine.updateGame(made.value.id, { start: -1e300 }).ok).toBe(false);
    expect(engine.game(made.value.id)?.start).toBe(T0 + 1000);
  });
});

describe('the orders-socket heartbeat takes what the REST one takes: whole seconds, 6 to 86,400', () => {
  it('refuses 30 days (it once lapsed at once, cancelling every order), 5 and 6.5; takes 6 and 86,400', async () => {
    t = await startTestSim({ time: manualTime(T0) });
    const me = await t.user('tb-hb');
    const g = t.game({ start: T0 + 86_400_000 });
    t.sim.context.engine.place(me.id, [
      { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: 150, bet: 10 },
    ]);
    const c = await clients.open('/orders/ws', me.token);
    for (const requestTimeout of [2_592_000, 86_401, 5, 6.5, 1e308]) {
      const r = await request(c, 'heartbeat', { requestTimeout });
      expect(r, String(requestTimeout)).toEqual({ requestID: r.requestID, error: 'Invalid heartbeat timeout' });
    }
    for (const requestTimeout of [6, 86_400]) {
      const r = await request(c, 'heartbeat', { requestTimeout });
      expect(r.data, String(requestTimeout)).toMatchObject({ type: 'heartbeatAck', timeoutSec: requestTimeout });
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(t.sim.context.engine.openOrders(me.id)).toHaveLength(1);
  });
});
