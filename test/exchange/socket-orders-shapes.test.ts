import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { PlaceOutcomeUnknownError, SocketRequestError } from '../../src/exchange/errors.ts';
import type { PlaceOrderInput } from '../../src/exchange/orders/types.ts';
import { UserReferences } from '../../src/exchange/orders/user-reference.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import { OrdersSocketClient } from '../../src/exchange/socket/orders-socket-client.ts';
import { FAST, fixedTokens, Recorder, tinyServer } from './support-socket.ts';

/**
 * placeV3 answers in the three forms the exchange's examples show (feeds-and-semantics §8),
 * written from that section's facts: `{requestID, data:[{matched, unmatched}]}`, entries
 * flattened to one object per order with amounts as decimal strings, and a wrapper
 * `{requestID, responses:[{data, …}]}`; numbers as numeric strings anywhere on the socket.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const GAME = 'ee0000000000000000000001';
const HOME = 'ee0000000000000000000002';
const ORDER_A = 'ee00000000000000000000a1';
const ORDER_B = 'ee00000000000000000000b2';
const WAGER = 'ee00000000000000000000c3';

type Answer = (
  type: string,
  payload: { requestID: string; orders?: Record<string, unknown>[] },
) => Record<string, unknown>;

/** An orders socket that answers every request with `answer(type, payload)`, its requestID echoed as the answer gives it. */
async function answering(answer: Answer) {
  const srv = await tinyServer({
    onConnection: (ws: WebSocket) =>
      ws.on('message', (d) => {
        const [type, payload] = JSON.parse(String(d)) as [string, { requestID: string }];
        ws.send(JSON.stringify(answer(type, payload)));
      }),
  });
  cleanups.push(() => srv.close());
  const c = new OrdersSocketClient({
    ...FAST,
    ordersUrl: srv.url,
    tokens: fixedTokens('tok'),
    references: new UserReferences('shape'),
  });
  cleanups.push(() => c.close());
  const states = new Recorder<SocketState>(c.state$);
  c.start();
  await states.next((s) => s.status === 'open');
  return c;
}

const order = (odds: number, bet: number): PlaceOrderInput => ({
  gameID: GAME,
  type: 'moneyline',
  side: HOME,
  odds,
  bet,
});

/** The resting half of an answer, flattened: the order itself, amounts as 6-decimal strings. */
function flatResting(o: Record<string, unknown>, id: string, offered: string): Record<string, unknown> {
  return {
    orderID: id,
    wagerRequestID: WAGER,
    offered,
    odds: String(o.odds),
    type: o.type,
    side: o.side,
    market: null,
    number: null,
    userReference: o.userReference,
  };
}

describe('orders socket: the three forms of a placeV3 answer', () => {
  it('{requestID, data:[{matched, unmatched}]} with numbers as numeric strings', async () => {
    const c = await answering((_, p) => ({
      requestID: p.requestID,
      data: p.orders!.map((o) => ({
        matched: [
          {
            amount: '10.000000',
            odds: '-110',
            number: null,
            type: 'moneyline',
            side: HOME,
            orderID: ORDER_B,
            txID: 'ee00000000000000000000d4',
            wagerRequestID: WAGER,
            userReference: o.userReference,
            risk: '10.100000',
            win: '9.000000',
            winWithoutCommission: '9.090909',
          },
        ],
        unmatched: {
          orderID: ORDER_A,
          wagerRequestID: WAGER,
          offered: '122.000000',
          odds: '-110',
          type: 'moneyline',
          side: HOME,
          market: null,
          number: null,
          userReference: o.userReference,
        },
      })),
    }));
    const [e] = await c.place([order(-110, 132)]);
    expect(e).toMatchObject({ status: 'accepted', resting: { orderID: ORDER_A, offered: 122, odds: -110 } });
    if (e?.status !== 'accepted') throw new Error('unreachable');
    expect(e.matched[0]).toMatchObject({ amount: 10, odds: -110, risk: 10.1, win: 9, winWithoutCommission: 9.090909 });
  });

  it('entries flattened to one object per order, amounts as decimal strings; a failed entry beside them is still rejected', async () => {
    const c = await answering((_, p) => ({
      requestID: p.requestID,
      data: [
        flatResting(p.orders![0]!, ORDER_A, '122.000000'),
        { error: 'odds out of range', error_type: 'validation_error' },
        flatResting(p.orders![2]!, ORDER_B, '0.000000'),
      ],
    }));
    const out = await c.place([order(-110, 122), order(5, 10), order(120, 40)]);
    expect(out.map((e) => e.status)).toEqual(['accepted', 'rejected', 'accepted']);
    expect(out[0]).toMatchObject({
      status: 'accepted',
      matched: [],
      resting: { orderID: ORDER_A, offered: 122, odds: -110, type: 'moneyline', side: HOME },
    });
    expect(out[1]).toMatchObject({ status: 'rejected', errorType: 'validation_error' });
    // Nothing rests (all of it matched at once): accepted, no resting order.
    expect(out[2]).toMatchObject({ status: 'accepted', resting: null });
  });

  it('a wrapper {requestID, responses:[{data, …}]}: one response per order, or one holding them all', async () => {
    const perOrder = await answering((_, p) => ({
      requestID: p.requestID,
      responses: p.orders!.map((o, i) => ({
        data: [flatResting(o, i === 0 ? ORDER_A : ORDER_B, '50.000000')],
        status: 'ok',
      })),
    }));
    const two = await perOrder.place([order(-110, 50), order(120, 50)]);
    expect(two.map((e) => (e.status === 'accepted' ? e.resting?.orderID : e.status))).toEqual([ORDER_A, ORDER_B]);

    const oneForAll = await answering((_, p) => ({
      requestID: p.requestID,
      responses: [{ data: p.orders!.map((o) => ({ matched: [], unmatched: { ...flatResting(o, ORDER_A, '25.5') } })) }],
    }));
    const [e] = await oneForAll.place([order(-110, 25.5)]);
    expect(e).toMatchObject({ status: 'accepted', resting: { orderID: ORDER_A, offered: 25.5 } });
  });

  it('a wrapper whose response for one order failed keeps the others in place; a wrapper of one failed response fails the request', async () => {
    const mixed = await answering((_, p) => ({
      requestID: p.requestID,
      responses: [
        { data: [flatResting(p.orders![0]!, ORDER_A, '10')] },
        { error: 'insufficient balance', error_type: 'insufficient_funds' },
        { data: flatResting(p.orders![2]!, ORDER_B, '30') },
      ],
    }));
    const out = await mixed.place([order(-110, 10), order(-110, 9_999), order(120, 30)]);
    expect(out).toMatchObject([
      { status: 'accepted', resting: { orderID: ORDER_A, offered: 10 } },
      { status: 'rejected', errorType: 'insufficient_funds', error: 'insufficient balance' },
      { status: 'accepted', resting: { orderID: ORDER_B, offered: 30 } },
    ]);

    const refused = await answering((_, p) => ({ requestID: p.requestID, responses: [{ error: 'unauthorized' }] }));
    const err = await refused.cancelAll().catch((x: unknown) => x);
    expect(err).toBeInstanceOf(SocketRequestError);
    expect((err as Error).message).toMatch(/unauthorized/);
  });

  it('an answer that still does not fit (a non-numeric amount) is malformed: the place outcome is unknown, never guessed', async () => {
    const c = await answering((_, p) => ({
      requestID: p.requestID,
      data: [flatResting(p.orders![0]!, ORDER_A, 'lots')],
    }));
    const err = await c.place([order(-110, 10)]).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(PlaceOutcomeUnknownError);
    expect(c.stats.malformed).toBe(1);
  });
});

describe('orders socket: numbers as numeric strings in other answers', () => {
  it('cancel results and the heartbeat acknowledgement', async () => {
    const c = await answering((type, p) =>
      type === 'heartbeat'
        ? {
            requestID: p.requestID,
            data: { type: 'heartbeatAck', serverTime: '2026-11-27T04:00:00.000Z', timeoutSec: '20' },
          }
        : {
            requestID: p.requestID,
            data: [
              {
                success: true,
                orderID: ORDER_A,
                odds: '110',
                filled: '12.500000',
                offered: '0',
                remaining: '37.500000',
                side: HOME,
                number: null,
                gameID: GAME,
                userReference: null,
                description: 'x',
              },
            ],
          },
    );
    const [cancel] = await c.cancel([ORDER_A]);
    expect(cancel).toEqual({
      ok: true,
      orderID: ORDER_A,
      odds: 110,
      filled: 12.5,
      offered: 0,
      remaining: 37.5,
      gameID: GAME,
      userReference: null,
      description: 'x',
    });
    expect(await c.heartbeatAck(20)).toMatchObject({ type: 'heartbeatAck', timeoutSec: 20 });
  });
});
