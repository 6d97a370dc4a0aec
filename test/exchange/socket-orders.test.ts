import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { EngineGame } from '../../src/engine/types.ts';
import {
  PlaceOutcomeUnknownError,
  SocketClosedError,
  SocketRequestError,
  SocketRequestTimeoutError,
} from '../../src/exchange/errors.ts';
import type { PlaceEntry, PlaceOrderInput } from '../../src/exchange/orders/types.ts';
import { UserReferences } from '../../src/exchange/orders/user-reference.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import { OrdersSocketClient, type OrdersSocketClientOptions } from '../../src/exchange/socket/orders-socket-client.ts';
import { RequestNotSentError } from '../../src/exchange/socket/pending-requests.ts';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim } from '../support/sim.ts';
import { dropSimSockets, FAST, fixedTokens, Recorder, tinyServer, until } from './support-socket.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const home = (g: EngineGame) => g.participants[1].id;
const away = (g: EngineGame) => g.participants[0].id;

async function client(url: string, token: string, options: Partial<OrdersSocketClientOptions> = {}) {
  const c = new OrdersSocketClient({
    ...FAST,
    ordersUrl: url,
    tokens: fixedTokens(token),
    references: new UserReferences('test'),
    ...options,
  });
  cleanups.push(() => c.close());
  const states = new Recorder<SocketState>(c.state$);
  c.start();
  return { c, states };
}

async function setup(
  options: Parameters<typeof startTestSim>[0] = {},
  clientOptions: Partial<OrdersSocketClientOptions> = {},
) {
  const t = await startTestSim(options);
  cleanups.push(() => t.close());
  const u = await t.user('os-user');
  const other = await t.user('os-other');
  const { c, states } = await client(t.url, u.token, clientOptions);
  await states.next((s) => s.status === 'open');
  return { t, u, other, c, states, g: t.game(), engine: t.sim.context.engine };
}

const resting = (g: EngineGame, odds: number, bet = 10, extra: Partial<PlaceOrderInput> = {}): PlaceOrderInput => ({
  gameID: g.id,
  type: 'moneyline',
  side: home(g),
  odds,
  bet,
  ...extra,
});
const restingId = (e: PlaceEntry | undefined): string => {
  if (e?.status !== 'accepted' || !e.resting) throw new Error(`not resting: ${JSON.stringify(e)}`);
  return e.resting.orderID;
};

describe('orders socket client against the simulator', () => {
  it('places positionally with userReferences filled in; a failed entry is a rejected PlaceEntry', async () => {
    const { c, g, engine, u } = await setup();
    const out = await c.place([
      resting(g, 150, 20, { userReference: 'mine-1' }),
      { gameID: g.id, type: 'total', side: 'over', number: 200.5, odds: -110, bet: 11 },
      resting(g, 50),
    ]);
    expect(out[0]).toMatchObject({
      status: 'accepted',
      userReference: 'mine-1',
      matched: [],
      resting: { offered: 20, odds: 150, userReference: 'mine-1' },
    });
    expect(out[1]).toMatchObject({
      status: 'accepted',
      userReference: 'ls1:test0',
      resting: { offered: 11, side: 'over', number: 200.5, userReference: 'ls1:test0' },
    });
    expect(out[2]).toMatchObject({ status: 'rejected', userReference: 'ls1:test1', errorType: 'validation_error' });
    expect(engine.openOrders(u.id).map((o) => o.id)).toEqual([restingId(out[0]), restingId(out[1])]);
  });

  it('correlates concurrent requests by requestID', async () => {
    const { c, g } = await setup();
    const [keep] = await c.place([resting(g, 170)]);
    const [a, b, cancelled, ack] = await Promise.all([
      c.place([resting(g, 151)]),
      c.place([resting(g, 152), resting(g, 153)]),
      c.cancel([restingId(keep)]),
      c.heartbeatAck(30),
    ]);
    expect(a.map((e) => e.status === 'accepted' && e.resting?.odds)).toEqual([151]);
    expect(b.map((e) => e.status === 'accepted' && e.resting?.odds)).toEqual([152, 153]);
    expect(cancelled).toEqual([
      expect.objectContaining({ ok: true, orderID: restingId(keep), odds: 170, remaining: 10 }),
    ]);
    expect(ack).toMatchObject({ type: 'heartbeatAck', timeoutSec: 30 });
    expect(c.stats).toMatchObject({ requests: 5, timeouts: 0, lostToClose: 0, lateAnswers: 0, malformed: 0 });
  });

  it('cancel (cancelMultiple), cancelById, cancelAllByGame, cancelAll; whole-request failures are SocketRequestError', async () => {
    const { c, g, t, engine, u } = await setup();
    const g2 = t.game();
    const placed = await c.place([
      resting(g, 150),
      resting(g, 160),
      resting(g2, 150),
      resting(g2, 160),
      { gameID: g2.id, type: 'total', side: 'over', number: 201.5, odds: 120, bet: 10 },
    ]);
    const [a, b, c1] = placed.map(restingId);
    const unknown = 'e'.repeat(24);

    const multi = await c.cancel([a!, unknown]);
    expect(multi).toEqual([
      expect.objectContaining({ ok: true, orderID: a, gameID: g.id, filled: 0, offered: 0, remaining: 10 }),
      { ok: false, orderID: unknown, reason: 'order not found' },
    ]);
    expect(await c.cancelById(b!)).toMatchObject({ ok: true, orderID: b });
    const again = await c.cancelById(b!).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(SocketRequestError);
    expect(again).toMatchObject({
      requestType: 'cancelById',
      serverMessage: 'order already cancelled',
      code: 'LS_ERR_SOCKET_REQUEST',
    });
    await expect(c.cancel([c1!, 'not-an-id'])).rejects.toMatchObject({
      requestType: 'cancelMultiple',
      serverMessage: 'invalid order ID format',
    });
    await expect(c.heartbeat(0)).rejects.toMatchObject({
      requestType: 'heartbeat',
      serverMessage: 'Invalid heartbeat timeout',
    });

    const totals = await c.cancelAllByGame(g2.id, { type: 'total' });
    expect(totals.map((e) => e.ok && e.orderID)).toEqual([restingId(placed[4])]);
    const rest = await c.cancelAll();
    expect(rest.map((e) => e.ok && e.orderID).sort()).toEqual([c1, restingId(placed[3])].sort());
    expect(engine.openOrders(u.id)).toEqual([]);
    expect(await c.cancelAll()).toEqual([]);
    expect(c.socket.state.status).toBe('open');
  });

  it('a heartbeat that is not renewed in time lets the dead man’s switch cancel every open order', async () => {
    const time = manualTime();
    const { c, g, engine, u } = await setup({ time });
    await c.place([resting(g, 150), resting(g, 160)]);
    expect(await c.heartbeatAck(6)).toMatchObject({ type: 'heartbeatAck', timeoutSec: 6 });
    time.advance(5_000);
    await c.heartbeat(6); // re-armed: 6 s from now
    time.advance(5_000);
    expect(engine.openOrders(u.id)).toHaveLength(2);
    time.advance(1_000);
    expect(engine.openOrders(u.id)).toEqual([]);
    expect(await c.cancelAll()).toEqual([]);
  });

  it('a place pending when the socket drops is not resent: PlaceOutcomeUnknownError with the references', async () => {
    const time = manualTime();
    const { c, g, t, engine, other, u, states } = await setup({ time });
    // A crossing order on a live game waits out the league's live delay (NBA: 5 s) before the answer.
    expect(engine.updateGame(g.id, { live: true }).ok).toBe(true);
    engine.place(other.id, [{ gameID: g.id, type: 'moneyline', side: home(g), odds: -110, bet: 50 }]);
    const pending = c
      .place([{ gameID: g.id, type: 'moneyline', side: away(g), odds: 110, bet: 20 }])
      .catch((e: unknown) => e);
    await until(() => c.stats.requests === 1, 3_000, 'the place to be sent');
    await c.socket.roundTrip(); // the server has read it: the order waits out its delay there
    dropSimSockets(t, time);
    const err = await pending;
    expect(err).toBeInstanceOf(PlaceOutcomeUnknownError);
    expect(err).toMatchObject({ userReferences: ['ls1:test0'], code: 'LS_ERR_PLACE_OUTCOME_UNKNOWN' });
    expect((err as Error).cause).toBeInstanceOf(SocketClosedError);
    expect(c.stats.lostToClose).toBe(1);
    // The delayed order still went through on the server: exactly why the client must not resend.
    await states.next((s) => s.status === 'open' && s.connection === 2);
    time.advance(5_000);
    await until(() => engine.betsOfGame(g.id).length > 0, 3_000, 'the delayed fill');
    expect(
      engine
        .betsOfGame(g.id)
        .filter((b) => b.userId === u.id)
        .map((b) => b.money.amount),
    ).toEqual([20]);
  });

  it('hands a lost place to recoverPlace and returns its answer', async () => {
    const time = manualTime();
    const calls: { orders: readonly PlaceOrderInput[]; cause: Error }[] = [];
    const recovered: PlaceEntry[] = [{ status: 'absent', userReference: 'ls1:test0', reason: 'looked up: not found' }];
    const { c, g, t, engine, other } = await setup(
      { time },
      { recoverPlace: async (orders, cause) => (calls.push({ orders, cause }), recovered) },
    );
    expect(engine.updateGame(g.id, { live: true }).ok).toBe(true);
    engine.place(other.id, [{ gameID: g.id, type: 'moneyline', side: home(g), odds: -110, bet: 50 }]);
    const pending = c.place([{ gameID: g.id, type: 'moneyline', side: away(g), odds: 110, bet: 20 }]);
    await until(() => c.stats.requests === 1);
    await c.socket.roundTrip();
    dropSimSockets(t, time);
    expect(await pending).toBe(recovered);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.orders).toEqual([
      { gameID: g.id, type: 'moneyline', side: away(g), odds: 110, bet: 20, userReference: 'ls1:test0' },
    ]);
    expect(calls[0]!.cause).toBeInstanceOf(SocketClosedError);
  });
});

describe('orders socket client against a server that does not answer', () => {
  async function silent() {
    const received: unknown[] = [];
    const srv = await tinyServer({
      onConnection: (ws: WebSocket) => ws.on('message', (d) => received.push(JSON.parse(String(d)))),
    });
    cleanups.push(() => srv.close());
    return { srv, received };
  }

  it('a request pending when the connection drops fails with SocketClosedError; a place is never resent', async () => {
    const { srv, received } = await silent();
    const { c, states } = await client(srv.url, 'tok');
    await states.next((s) => s.status === 'open');
    const cancelAll = c.cancelAll().catch((e: unknown) => e);
    const place = c
      .place([{ gameID: 'a'.repeat(24), type: 'moneyline', side: 'b'.repeat(24), odds: 120, bet: 5 }])
      .catch((e: unknown) => e);
    await until(() => received.length === 2, 3_000, 'two requests');
    srv.connections[0]!.terminate();
    const closed = await cancelAll;
    expect(closed).toBeInstanceOf(SocketClosedError);
    expect(closed).not.toBeInstanceOf(RequestNotSentError);
    expect(await place).toBeInstanceOf(PlaceOutcomeUnknownError);
    await states.next((s) => s.status === 'open' && s.connection === 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(received.map((r) => (r as [string])[0])).toEqual(['cancelAll', 'placeV3']);
    expect(received[1]).toEqual([
      'placeV3',
      {
        requestID: expect.any(String),
        orders: [
          {
            gameId: 'a'.repeat(24),
            type: 'moneyline',
            side: 'b'.repeat(24),
            odds: 120,
            bet: 5,
            userReference: 'ls1:test0',
          },
        ],
      },
    ]);
  });

  it('times a request out, and counts its late answer', async () => {
    const { srv, received } = await silent();
    const { c, states } = await client(srv.url, 'tok', { requestTimeoutMs: 100 });
    await states.next((s) => s.status === 'open');
    const started = Date.now();
    const err = await c.heartbeat(10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SocketRequestTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    const [, payload] = received[0] as [string, { requestID: string }];
    srv.connections[0]!.send(JSON.stringify({ requestID: payload.requestID, data: { type: 'heartbeatAck' } }));
    await until(() => c.stats.lateAnswers === 1, 3_000, 'the late answer');
    expect(c.stats.timeouts).toBe(1);
  });

  it('a place withdrawn while it waits for the socket to open is not sent once it opens: RequestNotSentError', async () => {
    const { srv, received } = await silent();
    const { c, states } = await client(srv.url, 'tok');
    const ac = new AbortController();
    const place = c
      .place([{ gameID: 'a'.repeat(24), type: 'moneyline', side: 'b'.repeat(24), odds: 120, bet: 5 }], {
        signal: ac.signal,
      })
      .catch((e: unknown) => e);
    ac.abort('kill switch');
    await states.next((s) => s.status === 'open');
    const err = await place;
    expect(err).toBeInstanceOf(RequestNotSentError);
    expect((err as RequestNotSentError).sent).toBe(false);
    // A marker request: a place sent after the open would arrive ahead of it.
    void c.heartbeat(10).catch(() => undefined);
    await until(() => received.length > 0, 3_000, 'the marker request');
    expect(received.map((r) => (r as [string])[0])).toEqual(['heartbeat']);
  });

  it('a request made while the socket cannot open is not sent: RequestNotSentError, even for a place', async () => {
    const srv = await tinyServer();
    const url = srv.url;
    await srv.close();
    const { c } = await client(url, 'tok', { requestTimeoutMs: 150 });
    const err = await c
      .place([{ gameID: 'a'.repeat(24), type: 'moneyline', side: 'b'.repeat(24), odds: 120, bet: 5 }])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestNotSentError);
    expect(err).toBeInstanceOf(SocketClosedError);
    expect((err as RequestNotSentError).sent).toBe(false);
  });
});
