import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  CancelReplyData,
  HeartbeatAck,
  OrdersReply,
  PlaceReplyData,
  replyErrorText,
} from '../../src/exchange/schemas/orders-socket.ts';
import { SocketRequestError } from '../../src/exchange/errors.ts';
import { OrdersSocketClient } from '../../src/exchange/socket/orders-socket-client.ts';
import { FAST, fixedTokens, Recorder, tinyServer } from '../exchange/support-socket.ts';
import { cancelResult, placedFill, restingOrder } from './samples.ts';
import {
  DEEP_DEPTH,
  deepJsonText,
  expectTyped,
  mutatedValue,
  oddValue,
  randomText,
  toText,
  within,
  fuzzRuns,
} from './support.ts';

const PLACE_DATA = [{ matched: [placedFill], unmatched: restingOrder }];
const CANCEL_DATA = [cancelResult];
const HEARTBEAT_DATA = { type: 'heartbeatAck', serverTime: '2026-01-15T12:00:00.000Z', timeoutSec: 30 };

describe('orders-socket replies: schema fuzz', () => {
  it('the samples are valid replies', () => {
    expect(PlaceReplyData.safeParse(PLACE_DATA).success).toBe(true);
    expect(CancelReplyData.safeParse(CANCEL_DATA).success).toBe(true);
    expect(HeartbeatAck.safeParse(HEARTBEAT_DATA).success).toBe(true);
  });

  it('any reply value parses or is refused by every reply schema, and any error value becomes text, never a throw', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom<unknown>(PLACE_DATA, CANCEL_DATA, HEARTBEAT_DATA).chain(mutatedValue),
          oddValue,
          fc.anything(),
        ),
        (v) => {
          for (const s of [OrdersReply, PlaceReplyData, CancelReplyData, HeartbeatAck]) s.safeParse(v);
          expect(typeof replyErrorText(v)).toBe('string');
        },
      ),
      { numRuns: fuzzRuns(1_000) },
    );
    // An error object nested deeper than JSON.stringify can follow is still text.
    expect(typeof replyErrorText(JSON.parse(deepJsonText()))).toBe('string');
  });
});

type Call = 'place' | 'cancel' | 'cancelById' | 'cancelAll' | 'heartbeat';
const VALID: Record<Call, unknown> = {
  place: PLACE_DATA,
  cancel: CANCEL_DATA,
  cancelById: CANCEL_DATA,
  cancelAll: CANCEL_DATA,
  heartbeat: HEARTBEAT_DATA,
};

/** How the server answers one request: noise first, then the answer (or none: the request times out). */
interface Script {
  readonly noise: readonly string[];
  readonly answer:
    | { readonly kind: 'data'; readonly text: string }
    | { readonly kind: 'error'; readonly text: string }
    | { readonly kind: 'raw'; readonly text: string }
    | { readonly kind: 'none' };
}

/** Expanded by the server when it sends, so a failing case prints short. */
const DEEP = '<deep>';
const expand = (text: string) => (text === DEEP ? deepJsonText(DEEP_DEPTH) : text);

function scriptFor(call: Call): fc.Arbitrary<Script> {
  const data = fc.oneof(
    { weight: 1, arbitrary: fc.constant(VALID[call]) },
    { weight: 4, arbitrary: mutatedValue(VALID[call]) },
    { weight: 2, arbitrary: oddValue },
    { weight: 1, arbitrary: fc.constant(DEEP) },
  );
  const noise = fc.oneof(
    randomText,
    mutatedValue({ requestID: 'r999999', data: VALID[call] }).map((v) => (v === undefined ? '{}' : toText(v))),
    fc.constantFrom(
      '{"requestID":null,"data":[]}',
      '{"data":[]}',
      '[]',
      '{"requestID":{"a":1}}',
      `{"requestID":"x","data":${deepJsonText()}}`,
    ),
  );
  const answer = fc.oneof(
    {
      weight: 6,
      arbitrary: data.map((d) => ({
        kind: 'data' as const,
        text: d === DEEP ? DEEP : toText(d === undefined ? null : d),
      })),
    },
    {
      weight: 2,
      arbitrary: oddValue.map((e) => ({ kind: 'error' as const, text: e === undefined ? 'null' : toText(e) })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'error' as const, text: DEEP }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { kind: 'raw' as const, text: '{"data":[]' },
        { kind: 'raw' as const, text: '{"requestID":' },
      ),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  );
  return fc.record({ noise: fc.array(noise, { maxLength: 3 }), answer });
}

describe('orders-socket client: any answer is a typed outcome, and the socket keeps working', () => {
  let server: Awaited<ReturnType<typeof tinyServer>>;
  let client: OrdersSocketClient;
  let script: Script | null = null;

  const answerer = (ws: WebSocket) => {
    ws.on('message', (raw) => {
      const [, payload] = JSON.parse(String(raw)) as [string, { requestID: string }];
      const s = script ?? { noise: [], answer: { kind: 'data', text: toText(HEARTBEAT_DATA) } };
      script = null;
      for (const n of s.noise) ws.send(n);
      const id = JSON.stringify(payload.requestID);
      if (s.answer.kind === 'data') ws.send(`{"requestID":${id},"data":${expand(s.answer.text)}}`);
      else if (s.answer.kind === 'error') ws.send(`{"requestID":${id},"error":${expand(s.answer.text)}}`);
      else if (s.answer.kind === 'raw') ws.send(s.answer.text);
    });
  };

  beforeAll(async () => {
    server = await tinyServer({ onConnection: answerer });
    client = new OrdersSocketClient({
      ...FAST,
      ordersUrl: server.url,
      tokens: fixedTokens('tok'),
      requestTimeoutMs: 250,
    });
    const states = new Recorder(client.state$);
    client.start();
    await states.next((s) => s.status === 'open');
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  const calls: Record<Call, () => Promise<unknown>> = {
    place: () =>
      client.place([
        {
          gameID: '000000070000000000000019',
          type: 'moneyline',
          side: '000000070000000000000017',
          odds: 120,
          bet: 10,
          orderType: 'post',
        },
      ]),
    cancel: () => client.cancel(['000000070000000000000062']),
    cancelById: () => client.cancelById('000000070000000000000062'),
    cancelAll: () => client.cancelAll(),
    heartbeat: () => client.heartbeatAck(30),
  };

  it('resolves with typed entries or rejects with a LinesmithError; a good request afterwards still works', async () => {
    const callArb = fc.constantFrom<Call>('place', 'cancel', 'cancelById', 'cancelAll', 'heartbeat');
    await fc.assert(
      fc.asyncProperty(
        callArb.chain((call) => fc.tuple(fc.constant(call), scriptFor(call))),
        async ([call, s]) => {
          script = s;
          try {
            const out = await within(calls[call](), 3_000, call);
            if (call === 'place' || call === 'cancel') expect(out).toHaveLength(1);
            if (call === 'heartbeat') expect(HeartbeatAck.safeParse(out).success).toBe(true);
          } catch (err) {
            expectTyped(err);
          }
          script = null;
          expect(await within(client.heartbeatAck(30), 3_000, 'the heartbeat after')).toMatchObject({
            type: 'heartbeatAck',
          });
        },
      ),
      { numRuns: 100 },
    );
    expect(client.stats.malformed).toBeGreaterThan(0);
    expect(client.stats.timeouts).toBeGreaterThan(0);
    expect(client.stats.reconnects).toBe(0);
  });

  // Regression: an answer whose data nests deeper than JSON.stringify can follow made the
  // malformed-answer report itself throw a RangeError instead of a typed error.
  it.each(['place', 'cancel', 'heartbeat'] as const)(
    'a %s answer nested 20,000 deep is a typed error',
    async (call) => {
      script = { noise: [], answer: { kind: 'data', text: DEEP } };
      const err = await calls[call]().then(
        () => null,
        (e: unknown) => e,
      );
      expectTyped(err);
    },
  );

  // Regression: the same depth in a whole-request `error` threw while the error text was
  // made, after the request had been taken off the pending list: the call never settled and
  // the throw escaped the frame handler as an uncaught exception.
  it('a whole-request error nested 20,000 deep rejects the call with a SocketRequestError', async () => {
    script = { noise: [], answer: { kind: 'error', text: DEEP } };
    const err = await within(
      calls.cancelAll().then(
        () => null,
        (e: unknown) => e,
      ),
      3_000,
      'cancelAll',
    );
    expect(err).toBeInstanceOf(SocketRequestError);
    expect((err as Error).message).toMatch(/too deeply nested/);
  });
});
