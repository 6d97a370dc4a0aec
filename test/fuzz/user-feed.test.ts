import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { asyncScheduler } from 'rxjs';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { UserFeedMessage, UserFeedReplay } from '../../src/exchange/schemas/user-feed.ts';
import { compareMessageIds, parseMessageId } from '../../src/exchange/socket/message-id.ts';
import { UserFeedClient } from '../../src/exchange/socket/user-feed-client.ts';
import { classifyMessage, type UserFeedEvent } from '../../src/exchange/socket/user-feed-events.ts';
import { fetchReplay } from '../../src/exchange/socket/user-feed-replay.ts';
import { FAST, fixedTokens, Recorder } from '../exchange/support-socket.ts';
import { USER_MESSAGES, userMessage } from './samples.ts';
import {
  deepJsonText,
  expectTyped,
  frameText,
  mutatedValue,
  oddValue,
  randomText,
  toText,
  within,
  fuzzRuns,
} from './support.ts';

describe('user-feed messages: schema and classification fuzz', () => {
  it('the samples are valid messages', () => {
    for (const m of USER_MESSAGES) expect(UserFeedMessage.safeParse(m).success).toBe(true);
  });

  it('any text is a classified message or a rejection, never a throw', () => {
    fc.assert(
      fc.property(frameText(USER_MESSAGES), (text) => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          return;
        }
        const parsed = UserFeedMessage.safeParse(json);
        if (!parsed.success) return;
        const id = parseMessageId(parsed.data.messageID);
        if (id) expect(compareMessageIds(id, id)).toBe(0);
        const event = classifyMessage(parsed.data, 'live');
        expect(['orderPlaced', 'orderCancelled', 'takerFill', 'makerFill', 'unclassified']).toContain(event.type);
      }),
      { numRuns: fuzzRuns(1_500) },
    );
  });
});

const REPLAY_URL = 'http://127.0.0.1:9/v2/user/messages';

/** A replay answer: a status, headers, and a body (text). */
const replayAnswer: fc.Arbitrary<{ status: number; body: string; headers: Record<string, string> }> = fc.record({
  status: fc.oneof(
    fc.constant(200),
    fc.constantFrom(200, 204, 301, 400, 401, 403, 404, 429, 500, 502, 503),
    fc.integer({ min: 100, max: 599 }),
  ),
  body: fc.oneof(
    fc
      .array(
        fc.oneof(fc.constantFrom(...USER_MESSAGES), fc.constantFrom(...USER_MESSAGES).chain(mutatedValue), oddValue),
        { maxLength: 4 },
      )
      .map((messages) => toText({ status: 'success', messages })),
    fc
      .array(oddValue, { maxLength: 3 })
      .map((availableMessages) => toText({ status: 'cache_expired', availableMessages })),
    mutatedValue({ status: 'success', messages: [userMessage] }).map((v) => (v === undefined ? '' : toText(v))),
    fc.constantFrom('{"error":"nope"}', '{"error":{"message":"nope"}}', 'null', ''),
    randomText,
  ),
  headers: fc.constantFrom<Record<string, string>>(
    { 'content-type': 'application/json' },
    {},
    { 'content-type': 'text/html' },
    { 'content-encoding': 'gzip' },
  ),
});

describe('user-feed replay answers: fuzz over undici MockAgent', () => {
  it('every answer is a typed replay or a LinesmithError', async () => {
    await fc.assert(
      fc.asyncProperty(replayAnswer, replayAnswer, async (first, second) => {
        const agent = new MockAgent();
        agent.disableNetConnect();
        const pool = agent.get('http://127.0.0.1:9');
        for (const a of [first, second])
          pool
            .intercept({ path: /^\/v2\/user\/messages/, method: 'GET' })
            .reply(a.status, a.body, { headers: a.headers });
        try {
          const out = await within(
            fetchReplay({
              url: REPLAY_URL,
              tokens: fixedTokens('tok', 'tok2'),
              afterID: '1-0',
              timeoutMs: 2_000,
              scheduler: asyncScheduler,
              dispatcher: agent,
            }),
            4_000,
            'fetchReplay',
          );
          expect(UserFeedReplay.safeParse(out).success).toBe(true);
        } catch (err) {
          expectTyped(err);
        } finally {
          await agent.close();
        }
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
});

/**
 * A user-feed server: `/v2/user` over ws and `/v2/user/messages` over http on one port.
 * The replay serves the log of good messages after `afterID`, plus whatever junk the run
 * puts in front of its first answer.
 */
class FeedServer {
  readonly log: { id: NonNullable<ReturnType<typeof parseMessageId>>; message: unknown }[] = [];
  /** The next replay answer, once; then answers are honest again. */
  junkAnswer: { status: number; body: string; headers: Record<string, string> } | null = null;
  replays = 0;
  readonly connections: WebSocket[] = [];
  #http!: Server;
  #wss!: WebSocketServer;
  url = '';

  async start(): Promise<void> {
    this.#http = createServer((req, res) => {
      this.replays++;
      const junk = this.junkAnswer;
      this.junkAnswer = null;
      if (junk) {
        res.writeHead(junk.status, junk.headers);
        res.end(junk.status === 204 || junk.status === 304 ? undefined : junk.body);
        return;
      }
      const after = parseMessageId(new URL(req.url ?? '/', 'http://x').searchParams.get('afterID') ?? '');
      const messages = this.log
        .filter((m) => after === null || compareMessageIds(m.id, after) > 0)
        .map((m) => m.message);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', messages }));
    });
    this.#wss = new WebSocketServer({ server: this.#http, perMessageDeflate: false });
    this.#wss.on('connection', (ws) => this.connections.push(ws));
    await new Promise<void>((resolve) => this.#http.listen(0, '127.0.0.1', () => resolve()));
    this.url = `ws://127.0.0.1:${(this.#http.address() as AddressInfo).port}`;
  }

  get peer(): WebSocket {
    return this.connections[this.connections.length - 1]!;
  }

  /** A good message: logged for replays, and sent live. */
  good(messageID: string): void {
    const message = { ...userMessage, matched: null, unmatched: { ...userMessage.unmatched, filled: 0 }, messageID };
    this.log.push({ id: parseMessageId(messageID)!, message });
    this.peer.send(JSON.stringify(message));
  }

  async close(): Promise<void> {
    for (const ws of this.#wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }
}

describe('user-feed client: bad frames and bad replays never stop the stream', () => {
  const server = new FeedServer();
  let client: UserFeedClient;
  let events: Recorder<UserFeedEvent>;

  beforeAll(async () => {
    await server.start();
    client = new UserFeedClient({
      ...FAST,
      streamingUrl: server.url,
      tokens: fixedTokens('tok'),
      cursor: '1-0',
      replayTimeoutMs: 300,
    });
    events = new Recorder(client.events$);
    const states = new Recorder(client.state$);
    client.start();
    await states.next((s) => s.status === 'open');
    await client.socket.roundTrip();
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('after bad frames, whatever the replay answers first, the next good message arrives exactly once and the cursor moves on', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(frameText(USER_MESSAGES), { minLength: 1, maxLength: 4 }),
        fc.option(replayAnswer, { freq: 2 }),
        async (frames, junk) => {
          const from = events.items.length;
          server.junkAnswer = junk;
          for (const text of frames) server.peer.send(text);
          // Far above any sample's id, increasing: the good message is always new.
          const id = `${2_000_000_000_000 + ++n}-0`;
          server.good(id);
          await within(
            events.next((e) => 'messageID' in e && e.messageID === id, 8_000, from),
            9_000,
            `message ${id} after ${frames.length} bad frame(s) and replay answer ${junk ? junk.status : 'honest'}`,
          );
          await client.socket.roundTrip().catch(() => undefined);
          const seen = events.items.filter((e) => 'messageID' in e && e.messageID === id);
          expect(seen.length).toBe(1);
          expect(client.cursor).toBe(id);
        },
      ),
      { numRuns: 25 },
    );
    expect(server.replays).toBeGreaterThan(10);
    expect(client.stats.malformed).toBeGreaterThan(0);
    expect(client.stats.replayFailures).toBeGreaterThan(0);
  });

  // Regression: a replayed message nested deeper than JSON.stringify can follow threw while
  // its malformed-message log line was made; the replay never finished, so every live
  // message after it stayed buffered for good.
  it('a replay holding a message nested 20,000 deep is a counted skip, and the stream goes on', async () => {
    const malformed = client.stats.malformed;
    const from = events.items.length;
    server.junkAnswer = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `{"status":"success","messages":[${deepJsonText()}]}`,
    };
    server.peer.send('{"not":"a message"}');
    server.good('3000000000000-0');
    await events.next((e) => 'messageID' in e && e.messageID === '3000000000000-0', 5_000, from);
    expect(client.stats.malformed).toBe(malformed + 2);
  });
});
