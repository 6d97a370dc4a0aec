import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { BOOK_COLLECTIONS } from '../../src/exchange/schemas/book-order.ts';
import {
  GameUpdate,
  MatchedVolumeUpdate,
  OrderUpdate,
  type PriceFeedEvent,
} from '../../src/exchange/schemas/price-feed.ts';
import { PriceFeedClient } from '../../src/exchange/socket/price-feed-client.ts';
import { createPriceFrameParser, type PriceFrameOutcome } from '../../src/exchange/socket/price-parse.ts';
import { FAST, fixedTokens, Recorder, tinyServer, until } from '../exchange/support-socket.ts';
import { gameUpdate, matchedVolumeUpdate, orderUpdate, PRICE_FRAMES } from './samples.ts';
import { deepJsonText, frameText, toText, within, fuzzRuns } from './support.ts';

const MODES = ['fast', 'compiled', 'zod'] as const;
const parsers = MODES.map((m) => createPriceFrameParser(m));

function classify(out: PriceFrameOutcome): 'event' | 'malformed' | 'unknownType' {
  return out.ok ? 'event' : out.problem;
}

describe('price-feed frames: parser fuzz', () => {
  it('the samples are valid frames', () => {
    expect(OrderUpdate.safeParse(orderUpdate).success).toBe(true);
    expect(GameUpdate.safeParse(gameUpdate).success).toBe(true);
    expect(MatchedVolumeUpdate.safeParse(matchedVolumeUpdate).success).toBe(true);
    for (const f of PRICE_FRAMES) for (const p of parsers) expect(p(toText(f)).ok).toBe(true);
  });

  it('a keyed collection with a __proto__ key is no throw, and the three modes agree', () => {
    // JSON.parse makes "__proto__" an own key; zod's record check skips it, leaving it in the input.
    const text = JSON.stringify(['gameUpdate', { ...gameUpdate, awayMoneylines: 'KEYED' }]).replace(
      '"KEYED"',
      '{"__proto__":{"polluted":1}}',
    );
    const outs = parsers.map((p) => p(text));
    expect(outs.map(classify)).toEqual(['event', 'event', 'event']);
    for (const out of outs)
      expect(out.ok && out.event.type === 'gameUpdate' && out.event.payload.awayMoneylines).toEqual([]);
  });

  it('every text gives an event, a malformed skip or an unknown-type skip, never a throw; the three modes agree', () => {
    fc.assert(
      fc.property(frameText(PRICE_FRAMES), (text) => {
        const outs = parsers.map((p) => p(text));
        const kinds = outs.map(classify);
        expect(new Set(kinds).size, text.slice(0, 200)).toBe(1);
        const [fast] = outs;
        if (fast!.ok) {
          expect(['orderUpdate', 'gameUpdate', 'matchedVolumeUpdate']).toContain(fast!.event.type);
          // One internal form whatever the mode: a gameUpdate's collections are flat lists of the same orders.
          if (fast!.event.type === 'gameUpdate') {
            const ids = (o: PriceFrameOutcome): string[][] | null => {
              if (!o.ok || o.event.type !== 'gameUpdate') return null;
              const game = o.event.payload;
              return BOOK_COLLECTIONS.map((c) => game[c].map((x) => x.id));
            };
            for (const o of outs) expect(ids(o)).toEqual(ids(fast!));
          }
          // What the fast path accepted, the schema accepts too.
          const schema = { orderUpdate: OrderUpdate, gameUpdate: GameUpdate, matchedVolumeUpdate: MatchedVolumeUpdate }[
            fast!.event.type
          ];
          expect(schema.safeParse(fast!.event.payload).success).toBe(true);
        } else if (fast!.problem === 'malformed') {
          expect(typeof fast!.reason).toBe('string');
          expect(fast!.reason.length).toBeLessThan(2_000);
        } else {
          expect(fast!.messageType.length).toBeLessThanOrEqual(64);
        }
      }),
      { numRuns: fuzzRuns(1_500) },
    );
  });

  it('deep nesting in the payload, the tuple and a book order is a malformed skip', () => {
    const deep = deepJsonText();
    for (const text of [
      deep,
      `["orderUpdate",${deep}]`,
      `["gameUpdate",${toText({ ...gameUpdate, homeMoneylines: [0] }).replace('[0]', `[${deep}]`)}]`,
      `[${deep},1]`,
    ]) {
      for (const p of parsers) expect(classify(p(text))).toBe('malformed');
    }
  });
});

describe('price-feed client: a bad frame never stops the stream', () => {
  let server: Awaited<ReturnType<typeof tinyServer>>;
  let client: PriceFeedClient;
  let events: Recorder<PriceFeedEvent>;
  let peer: () => WebSocket;

  beforeAll(async () => {
    server = await tinyServer();
    client = new PriceFeedClient({ ...FAST, streamingUrl: server.url, tokens: fixedTokens('tok') });
    events = new Recorder(client.events$);
    const states = new Recorder(client.state$);
    client.start();
    await states.next((s) => s.status === 'open');
    peer = () => server.connections[server.connections.length - 1]!;
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('after any run of bad frames (and binary ones) the next good frame is delivered; every bad one is counted', async () => {
    const parse = createPriceFrameParser('fast');
    let sentinel = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(frameText(PRICE_FRAMES), fc.boolean()), { minLength: 1, maxLength: 6 }),
        async (frames) => {
          const before = client.stats;
          const from = events.items.length;
          const expected = { event: 0, malformed: 0, unknownType: 0 };
          for (const [text, binary] of frames) {
            if (binary) {
              peer().send(Buffer.from(text), { binary: true });
              continue;
            }
            peer().send(text);
            // What arrives is the UTF-8 round trip of the text (lone surrogates become U+FFFD).
            expected[classify(parse(Buffer.from(text).toString('utf8')))]++;
          }
          const id = `sentinel-${++sentinel}`;
          peer().send(JSON.stringify(['matchedVolumeUpdate', { gameID: id, matchedVolume: 1 }]));
          await within(
            events.next((e) => e.type === 'matchedVolumeUpdate' && e.payload.gameID === id, 5_000, from),
            6_000,
            'the good frame after the bad ones',
          );
          const after = client.stats;
          expect(after.malformed - before.malformed).toBe(expected.malformed);
          expect(after.unknownTypes - before.unknownTypes).toBe(expected.unknownType);
          expect(after.events - before.events).toBe(expected.event + 1);
          expect(after.reconnects).toBe(0);
        },
      ),
      { numRuns: fuzzRuns(40) },
    );
  });

  it('a text frame that is not UTF-8 drops the connection (ws 1007); the feed reconnects and goes on', async () => {
    const opens = server.connections.length;
    const from = events.items.length;
    peer().send(Buffer.from([0x5b, 0xff, 0xfe, 0x5d]), { binary: false });
    await until(() => server.connections.length > opens, 5_000, 'the reconnect');
    await new Promise((r) => setTimeout(r, 50));
    peer().send(JSON.stringify(['matchedVolumeUpdate', { gameID: 'after-1007', matchedVolume: 1 }]));
    await events.next((e) => e.type === 'matchedVolumeUpdate' && e.payload.gameID === 'after-1007', 5_000, from);
    expect(client.stats.reconnects).toBe(1);
  });
});
