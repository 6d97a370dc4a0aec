import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaMismatchError } from '../../src/exchange/errors.ts';
import { decodeBody, serverMessageOf } from '../../src/exchange/rest/decode.ts';
import type { Endpoint } from '../../src/exchange/rest/endpoint.ts';
import { ENDPOINTS } from '../../src/exchange/rest/endpoints.ts';
import { RequestBudget } from '../../src/exchange/rest/request-budget.ts';
import { ExchangeRestClient } from '../../src/exchange/rest/rest-client.ts';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from '../../src/exchange/rest/retry-after.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { startTestSim } from '../support/sim.ts';
import { expectTyped, mutatedText, randomText, within, fuzzRuns } from './support.ts';

type EndpointName = keyof typeof ENDPOINTS;

/**
 * One real answer body of every endpoint, read from the simulator over HTTP after a small
 * market has traded and settled: the valid seeds the mutations start from.
 */
async function captureBodies(): Promise<Record<EndpointName, string>> {
  const time = manualTime(Date.UTC(2026, 2, 1, 12));
  const t = await startTestSim({ time });
  try {
    const maker = await t.user('fz-maker');
    const taker = await t.user('fz-taker');
    const g = t.game({ start: Date.UTC(2026, 2, 2) });
    const engine = t.sim.context.engine;
    const [rest] = engine.place(maker.id, [
      { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: -110, bet: 50 },
      { gameID: g.id, type: 'spread', side: g.participants[1].id, number: -3.5, odds: 105, bet: 20 },
    ]);
    if (rest?.status !== 'ok' || !rest.unmatched) throw new Error('maker order failed');
    const restingId = rest.unmatched.orderID;
    const body = (r: { status: number; body: unknown }, what: string) => {
      if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
      return JSON.stringify(r.body);
    };
    const bodies: Partial<Record<EndpointName, string>> = {};
    bodies.login = body(
      await t.http('POST', '/user/login', { body: { username: 'fz-taker', password: taker.password } }),
      'login',
    );
    const tok = { token: taker.token };
    bodies.place = body(
      await t.http('POST', '/session/v3/place', {
        ...tok,
        body: {
          orders: [
            { gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: 110, bet: 5 },
            { gameID: g.id, type: 'moneyline', side: 'nope', odds: 1, bet: 5 },
          ],
        },
      }),
      'place',
    );
    const makerTok = { token: maker.token };
    bodies.getUnmatched = body(await t.http('GET', '/user/getUnmatched', makerTok), 'getUnmatched');
    bodies.lookupOrder = body(
      await t.http('GET', `/session/lookupOrder?orderID=${restingId}`, makerTok),
      'lookupOrder',
    );
    bodies.getMe = body(await t.http('GET', '/user/getMe', tok), 'getMe');
    bodies.getOrderbook = body(await t.http('GET', '/exchange/v2/getOrderbook?league=NBA', tok), 'getOrderbook');
    bodies.getOrderbookV1 = body(
      await t.http('POST', '/exchange/getOrderbook', { ...tok, body: { leagueRequested: 'NBA' } }),
      'getOrderbookV1',
    );
    bodies.getGames = body(await t.http('GET', '/exchange/v2/getGames?league=NBA', tok), 'getGames');
    bodies.getParticipants = body(await t.http('GET', '/exchange/getParticipants', tok), 'getParticipants');
    bodies.getLeagues = body(await t.http('GET', '/exchange/getLeagues', tok), 'getLeagues');
    bodies.getMatchedBets = body(await t.http('GET', '/user/getMatchedBets', tok), 'getMatchedBets');
    bodies.getGameLiability = body(
      await t.http('GET', `/user/getGameLiability?gameID=${g.id}`, tok),
      'getGameLiability',
    );
    bodies.ordersHeartbeat = body(
      await t.http('POST', '/user/ordersHeartbeat', { ...tok, body: { timeout: 60 } }),
      'ordersHeartbeat',
    );
    bodies.getAffiliateCommission = body(
      await t.http('GET', '/affiliate/getAffiliateCommission', tok),
      'getAffiliateCommission',
    );
    bodies.cancelMultiple = body(
      await t.http('POST', '/session/cancelMultiple', { ...makerTok, body: { sessionIDs: [restingId] } }),
      'cancelMultiple',
    );
    const [other] = engine.place(maker.id, [
      { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: -120, bet: 10 },
    ]);
    if (other?.status !== 'ok' || !other.unmatched) throw new Error('second maker order failed');
    bodies.cancel = body(
      await t.http('POST', '/session/cancel', { ...makerTok, body: { sessionID: other.unmatched.orderID } }),
      'cancel',
    );
    // The published endpoints beyond exchange-api §4: lookups and market reads while the
    // taker's bet is open, then edits and cancels by scope on fresh maker orders.
    const takerBet = engine.bets(taker.id).find((b) => b.gameID === g.id);
    if (!takerBet) throw new Error('the taker has no bet to look up');
    bodies.getOrdersForGame = body(
      await t.http('GET', `/user/getOrdersForGame?gameID=${g.id}`, tok),
      'getOrdersForGame',
    );
    bodies.getBetByID = body(await t.http('GET', `/user/getBetByID?id=${takerBet.id}`, tok), 'getBetByID');
    bodies.getBetByWagerRequestID = body(
      await t.http('GET', `/user/getBetByWagerRequestID?wagerRequestID=${takerBet.wagerRequestID}`, tok),
      'getBetByWagerRequestID',
    );
    const [referenced] = engine.place(maker.id, [
      { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: -125, bet: 10, userReference: 'fz-ref' },
    ]);
    if (referenced?.status !== 'ok' || !referenced.unmatched) throw new Error('referenced maker order failed');
    bodies.getBetByUserReference = body(
      await t.http('GET', `/user/getBetByUserReference?userReference=fz-ref&gameID=${g.id}`, makerTok),
      'getBetByUserReference',
    );
    bodies.getSingleOrderbook = body(
      await t.http('GET', `/exchange/getSingleOrderbook?gameID=${g.id}`, makerTok),
      'getSingleOrderbook',
    );
    bodies.getOddsForAveragePrice = body(
      await t.http('GET', '/exchange/getOddsForAveragePrice?leagueRequested=NBA', tok),
      'getOddsForAveragePrice',
    );
    bodies.getMatchedVolume = body(
      await t.http('GET', '/exchange/getMatchedVolume?startDate=2026-02-28&endDate=2026-03-01', tok),
      'getMatchedVolume',
    );
    const editId = referenced.unmatched.orderID;
    bodies.editOrder = body(
      await t.http('POST', '/session/editOrder', { ...makerTok, body: { sessionID: editId, orderOdds: -130 } }),
      'editOrder',
    );
    const edited = engine.openOrders(maker.id).find((o) => o.userReference === 'fz-ref');
    if (!edited) throw new Error('the edited order is not open');
    bodies.editOrderV4 = body(
      await t.http('POST', '/session/v4/editOrder', { ...makerTok, body: { sessionID: edited.id, orderVolume: 12 } }),
      'editOrderV4',
    );
    bodies.cancelByReference = body(
      await t.http('POST', '/session/cancelByReference', {
        ...makerTok,
        body: { gameID: g.id, userReferences: ['fz-ref'] },
      }),
      'cancelByReference',
    );
    const spread = {
      gameID: g.id,
      type: 'spread' as const,
      side: g.participants[1].id,
      number: -3.5,
      odds: 110,
      bet: 10,
    };
    engine.place(maker.id, [spread, spread, spread]);
    bodies.cancelAllOrdersForGame = body(
      await t.http('POST', '/session/cancelAllOrdersForGame', { ...makerTok, body: { gameID: g.id, type: 'spread' } }),
      'cancelAllOrdersForGame',
    );
    engine.place(maker.id, [spread]);
    bodies.cancelAllForLeague = body(
      await t.http('POST', '/session/cancelAllForLeague', { ...makerTok, body: { league: 'NBA' } }),
      'cancelAllForLeague',
    );
    engine.place(maker.id, [spread, spread]);
    bodies.cancelAllOrders = body(await t.http('POST', '/session/cancelAllOrders', makerTok), 'cancelAllOrders');
    (time as ManualTimeSource).advance(60_000);
    await t.http('POST', `/admin/games/${g.id}/result`, { body: { awayScore: 100, homeScore: 90 } });
    const raw = { token: taker.token, raw: true };
    bodies.getGraded = body(await t.http('GET', '/user/v2/getGraded', raw), 'getGraded');
    bodies.getGradedWagers = body(await t.http('GET', '/user/getGradedWagers', raw), 'getGradedWagers');
    bodies.getGradedSince = body(await t.http('GET', '/user/v2/getGradedSince', raw), 'getGradedSince');
    bodies.logout = body(await t.http('POST', '/user/logout', tok), 'logout');
    return bodies as Record<EndpointName, string>;
  } finally {
    await t.close();
  }
}

let bodies: Record<EndpointName, string>;
beforeAll(async () => {
  bodies = await captureBodies();
});

const NAMES = Object.keys(ENDPOINTS) as EndpointName[];
/** Every endpoint as the plain Endpoint type decodeBody takes. */
const endpointOf = (name: EndpointName): Endpoint => ENDPOINTS[name] as Endpoint;

describe('REST response bodies: decode fuzz', () => {
  it('every captured body decodes (the seeds are valid)', () => {
    expect(NAMES.filter((name) => bodies[name] === undefined)).toEqual([]);
    for (const name of NAMES) expect(() => decodeBody(endpointOf(name), bodies[name]), name).not.toThrow();
    expect(JSON.parse(bodies.getGradedSince).data.graded.length).toBeGreaterThan(0);
  });

  it('any body is the typed value or a SchemaMismatchError naming the endpoint, never another throw', () => {
    const arb = fc
      .constantFrom(...NAMES)
      .chain((name) =>
        fc.tuple(
          fc.constant(name),
          fc.oneof(
            { weight: 4, arbitrary: mutatedText(JSON.parse(bodies[name])) },
            { weight: 1, arbitrary: randomText },
          ),
        ),
      );
    fc.assert(
      fc.property(arb, ([name, text]) => {
        try {
          decodeBody(endpointOf(name), text);
        } catch (err) {
          expectTyped(err, SchemaMismatchError);
          expect((err as SchemaMismatchError).endpoint).toBe(ENDPOINTS[name].name);
          expect((err as Error).message.length).toBeLessThan(2_000);
        }
      }),
      { numRuns: fuzzRuns(2_000) },
    );
  });

  it('error bodies give a server message, never a throw', () => {
    fc.assert(
      fc.property(fc.oneof(randomText, mutatedText({ error: { message: 'x', code: 400 } })), (text) => {
        const m = serverMessageOf(text);
        expect(typeof m).toBe('string');
      }),
      { numRuns: fuzzRuns(500) },
    );
  });

  it('Retry-After of any spelling is a wait in ms within [0, a day], never NaN or Infinity', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.constantFrom(
            '0',
            '1',
            '0.5',
            '9'.repeat(400),
            '-1',
            '1e3',
            'Wed, 21 Oct 2099 07:28:00 GMT',
            'Thu, 01 Jan 1970 00:00:00 GMT',
            ' 5 ',
          ),
        ),
        (v) => {
          const ms = retryAfterMs(v, Date.UTC(2026, 0, 1));
          expect(Number.isFinite(ms)).toBe(true);
          expect(ms).toBeGreaterThanOrEqual(0);
          expect(ms).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
        },
      ),
      { numRuns: fuzzRuns(300) },
    );
  });
});

/** One scripted answer of the fuzz server. */
interface Answer {
  readonly status: number;
  readonly body: string;
  readonly retryAfter?: string;
  readonly rotate?: string;
  /** Close the connection instead of answering. */
  readonly drop?: boolean;
}

const HEADER_TEXT = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-._~+/= :,'.split('')),
  maxLength: 40,
});

function answerFor(name: EndpointName): fc.Arbitrary<Answer> {
  return fc.record(
    {
      status: fc.oneof(
        { weight: 5, arbitrary: fc.constant(200) },
        { weight: 3, arbitrary: fc.constantFrom(201, 204, 301, 400, 401, 403, 404, 409, 428, 429, 500, 502, 503) },
        { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) },
      ),
      body: fc.oneof(
        { weight: 4, arbitrary: mutatedText(JSON.parse(bodies[name])) },
        { weight: 1, arbitrary: fc.constant(bodies[name]) },
        { weight: 1, arbitrary: randomText },
      ),
      retryAfter: fc.oneof(
        HEADER_TEXT,
        fc.constantFrom(
          '0',
          '1',
          '0.01',
          '9'.repeat(400),
          '-1',
          'Wed, 21 Oct 2099 07:28:00 GMT',
          'Thu, 01 Jan 1970 00:00:00 GMT',
        ),
      ),
      rotate: fc.oneof(HEADER_TEXT, fc.constant('rotated-token-0123456789')),
      drop: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    },
    { requiredKeys: ['status', 'body'] },
  );
}

/** A loopback server answering REST calls from a script; anything unscripted gets a valid body. */
class ScriptedServer {
  script: Answer[] = [];
  calls = 0;
  #server!: Server;
  url = '';

  async start(valid: (path: string) => string): Promise<void> {
    this.#server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        this.calls++;
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const a = this.script.shift();
        if (!a) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(valid(path));
          return;
        }
        if (a.drop) {
          res.socket?.destroy();
          return;
        }
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (a.retryAfter !== undefined) headers['retry-after'] = a.retryAfter;
        if (a.rotate !== undefined) headers['x-auth-token'] = a.rotate;
        res.writeHead(a.status, headers);
        res.end(a.status === 204 || a.status === 304 ? undefined : a.body);
      });
    });
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

const GAME = '0000000b000000000000000a';
const ORDER = '0000000b0000000000000076';

/** The client calls fuzzed: each with the endpoint whose answers it reads. */
const CALLS: readonly (readonly [EndpointName, (c: ExchangeRestClient) => Promise<unknown>])[] = [
  ['getMe', (c) => c.getMe()],
  ['getOrderbook', (c) => c.getOrderbook({ league: 'NBA' })],
  ['getOrderbookV1', (c) => c.getOrderbookV1('NBA')],
  ['getGames', (c) => c.getGames('NBA')],
  ['getParticipants', (c) => c.getParticipants(true)],
  ['getLeagues', (c) => c.getLeagues()],
  ['place', (c) => c.place([{ gameID: GAME, type: 'moneyline', side: GAME, odds: 110, bet: 5 }])],
  ['cancel', (c) => c.cancelOne(ORDER)],
  ['cancelMultiple', (c) => c.cancel([ORDER, 'not-an-id'])],
  ['lookupOrder', (c) => c.lookupOrder(ORDER)],
  ['getUnmatched', (c) => c.getUnmatched()],
  ['ordersHeartbeat', (c) => c.ordersHeartbeat(60)],
  ['getMatchedBets', (c) => c.getMatchedBets()],
  ['getGameLiability', (c) => c.getGameLiability(GAME)],
  ['getGraded', (c) => c.getGraded({ startDate: '2026-03-01T00:00:00.000Z' })],
  ['getGradedWagers', (c) => c.getGradedWagers()],
  ['getGradedSince', (c) => c.getGradedSince({ since: '2026-03-01T00:00:00.000Z' })],
  ['getAffiliateCommission', (c) => c.getAffiliateCommission()],
  ['login', (c) => c.login()],
];

describe('REST client: fuzzed answers over loopback HTTP', () => {
  const server = new ScriptedServer();
  // One budget for every client, as in a process: a bad Retry-After must not hold it for good.
  // Its windows are wide so that hundreds of graded calls in seconds are not (rightly) held back.
  const wide = { limit: 1_000_000, windowMs: 60_000 };
  const budget = new RequestBudget({ global: wide, graded: wide, gradedSince: wide });

  beforeAll(async () => {
    const byPath = new Map(NAMES.map((n) => [ENDPOINTS[n].path, n]));
    await server.start((path) => bodies[byPath.get(path) ?? 'getMe']);
  });
  afterAll(() => server.close());

  const client = (own = budget) =>
    new ExchangeRestClient({
      baseUrl: server.url,
      credentials: async () => ({ username: 'fz', password: 'pw-fz' }),
      budget: own,
      timeoutMs: 1_000,
      backoff: { baseMs: 1, maxMs: 2, maxAttempts: 2 },
      max429Waits: 1,
      maxRetryAfterMs: 20,
      placeRecoveryGraceMs: 1,
    });

  it('every call resolves with a typed value or rejects with a LinesmithError, within its deadline; place and cancel never throw', async () => {
    const arb = fc
      .constantFrom(...CALLS)
      .chain(([name, call]) =>
        fc.tuple(fc.constant(name), fc.constant(call), fc.array(answerFor(name), { minLength: 1, maxLength: 3 })),
      );
    await fc.assert(
      fc.asyncProperty(arb, async ([name, call, answers]) => {
        const c = client();
        try {
          if (name !== 'login') await c.login();
          server.script = [...answers];
          try {
            const out = await within(call(c), 5_000, name);
            if (name === 'place' || name === 'cancelMultiple') expect(out).toHaveLength(name === 'place' ? 1 : 2);
          } catch (err) {
            if (name === 'place' || name === 'cancelMultiple') throw err;
            expectTyped(err);
          }
          server.script = [];
          // The next ordinary call goes through: nothing stuck in the shared budget or the pool.
          await within(c.getLeagues(), 5_000, 'getLeagues after');
        } finally {
          server.script = [];
          await c.close();
        }
      }),
      // A failing case may hang until its deadline: report the first one rather than shrink for minutes.
      { numRuns: fuzzRuns(400), endOnFailure: true },
    );
  });

  // Regression: a login answer whose token held a control character (or anything else an
  // Authorization header cannot carry) was taken; every later call then failed inside undici
  // before reaching the server, so no 401 ever led to a fresh login: the client was dead.
  it.each(['tok\u0000en', 'tok en', '\u00e9t\u00e9', 'x\r\nX-Evil: 1'])(
    'a login answer with the token %j is a SchemaMismatchError, and the next call logs in afresh',
    async (auth) => {
      const c = client(new RequestBudget());
      try {
        server.script = [
          {
            status: 200,
            body: JSON.stringify({ data: { user: { id: '0000000b0000000000000001', username: 'fz', auth } } }),
          },
        ];
        await expect(c.login()).rejects.toBeInstanceOf(SchemaMismatchError);
        await within(c.getLeagues(), 2_000, 'the call after the bad login');
        expect(c.session.stats.logins).toBe(1);
      } finally {
        server.script = [];
        await c.close();
      }
    },
  );

  // Regression: a 429 whose Retry-After is absurd (a date decades ahead, or more digits than a
  // double holds) paused the shared budget that long — or for good (Infinity: no timer was
  // ever set) — so every later call of the process waited forever.
  it.each(['Wed, 21 Oct 2099 07:28:00 GMT', '9'.repeat(400), String(40 * 86_400)])(
    'a 429 with Retry-After %s fails that call and does not stall the next ones',
    async (retryAfter) => {
      const c = client(new RequestBudget());
      try {
        await c.login();
        server.script = [{ status: 429, body: '{"error":"slow down"}', retryAfter }];
        await expect(c.getMe()).rejects.toMatchObject({ code: 'LS_ERR_RATE_LIMITED' });
        await within(c.getLeagues(), 2_000, 'the call after the 429');
      } finally {
        server.script = [];
        await c.close();
      }
    },
  );
});
