import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { manualTime } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { hasErrorBody, mutatedValue, oddValue, randomText, sendFuzzed, toText } from './support.ts';

/**
 * The routes of the rest of the published API (feeds-and-semantics §9: edits, cancels by
 * scope, bet lookups, market reads) fuzzed over real HTTP on loopback with malformed
 * bodies, queries and credentials, by a user who owns no orders. Every answer is a 4xx
 * with `{error}` (a 200 only where the request is a read or cancels nothing of anyone
 * else), never a 5xx or a hang; the maker's orders, the book and the accounts are what
 * they were.
 */

const T0 = Date.UTC(2026, 2, 1, 12);
const DAY = 86_400_000;

let t: TestSim;
let game: EngineGame;
let maker: { id: string; token: string };
let fuzzer: { id: string; token: string };
let makerOrders: string[] = [];
let makerRequests: string[] = [];

beforeAll(async () => {
  t = await startTestSim({ time: manualTime(T0) });
  maker = await t.user('pub-fz-maker');
  fuzzer = await t.user('pub-fz-fuzzer');
  game = t.game({ start: T0 + 30 * DAY });
  const [a, b] = t.sim.context.engine.place(maker.id, [
    { gameID: game.id, type: 'moneyline', side: game.participants[0].id, odds: -110, bet: 100, userReference: 'mk-1' },
    {
      gameID: game.id,
      type: 'spread',
      side: game.participants[1].id,
      number: -3.5,
      odds: 105,
      bet: 50,
      userReference: 'mk-2',
    },
  ]);
  if (a?.status !== 'ok' || b?.status !== 'ok' || !a.unmatched || !b.unmatched) throw new Error('maker orders failed');
  makerOrders = [a.unmatched.orderID, b.unmatched.orderID];
  makerRequests = [a.unmatched.wagerRequestID, b.unmatched.wagerRequestID];
});
afterAll(() => t.close());

async function snapshot(): Promise<unknown> {
  const engine = t.sim.context.engine;
  return {
    open: [maker.id, fuzzer.id].map((id) =>
      engine.openOrders(id).map((o) => [o.id, o.odds, o.bet, o.remaining, o.userReference, o.expiresAt]),
    ),
    books: engine
      .books(game.id)
      .map((b) => [b.key, engine.bookSide(game.id, b.key, 0).length, engine.bookSide(game.id, b.key, 1).length]),
    bets: [maker.id, fuzzer.id].map((id) => engine.bets(id).length),
    balances: [maker.id, fuzzer.id].map((id) => engine.account(id)?.balance),
  };
}

type Allow = 'error' | 'read';
interface Req {
  readonly method: string;
  readonly path: string;
  readonly auth: 'token' | 'none' | 'junk';
  readonly body?: string;
}
interface Case {
  readonly req: Req;
  readonly allow: Allow;
}

const hex24 = fc.stringMatching(/^[0-9a-f]{24}$/);
const junkId = fc.oneof(
  hex24,
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '%', '..', 'constructor', '__proto__', '0'.repeat(24), 'ZZZZZZZZZZZZZZZZZZZZZZZZ'),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', 'NBA', 'mk-1', '-1', 'NaN', '2026-13-45', '2026-03-01', '9999-12-31', 'A'.repeat(3000)),
);
const enc = (s: string) => encodeURIComponent(s);
const query = (names: readonly string[], known: fc.Arbitrary<string>) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })), fc.oneof(queryValue, known)), {
      maxLength: 4,
    })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}` : ''));
const bodyFrom = (valid: unknown) =>
  fc.oneof(
    { weight: 3, arbitrary: mutatedValue(valid).map((v) => (v === undefined ? '' : toText(v))) },
    { weight: 2, arbitrary: randomText },
    { weight: 1, arbitrary: fc.constantFrom('{', 'null', '[]', '"x"', '12') },
  );
const auth = fc.constantFrom<Req['auth']>('token', 'token', 'token', 'none', 'junk');

function cases(): fc.Arbitrary<Case> {
  const g = game.id;
  const known = fc.constantFrom(g, ...makerOrders, ...makerRequests, 'mk-1', 'NBA');
  const c = (req: fc.Arbitrary<Req>, allow: Allow): fc.Arbitrary<Case> => req.map((r) => ({ req: r, allow }));
  const edit = {
    sessionID: makerOrders[0],
    orderOdds: 120,
    orderVolume: 10,
    orderType: 'limit',
    userReference: 'x',
    expiryChange: '5',
  };
  return fc.oneof(
    // Edits: the fuzzer owns no order, so every one is refused.
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constantFrom('/session/editOrder', '/session/v4/editOrder'),
        auth,
        body: fc.oneof(
          fc
            .tuple(
              fc.oneof(junkId, fc.constantFrom(...makerOrders)),
              fc.array(
                fc.tuple(
                  fc.constantFrom('orderOdds', 'orderVolume', 'orderType', 'userReference', 'expiryChange'),
                  oddValue,
                ),
                { maxLength: 3 },
              ),
            )
            .map(([id, fields]) => toText({ sessionID: id, ...Object.fromEntries(fields) })),
          bodyFrom(edit),
        ),
      }),
      'error',
    ),
    // Cancels by scope: refused, or a 200 that cancels nothing of the maker's.
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/session/cancelAllOrdersForGame'),
        auth,
        body: fc.oneof(
          junkId.map((id) => toText({ gameID: id })),
          bodyFrom({ gameID: g, type: 'spread' }),
        ),
      }),
      'read',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/session/cancelByReference'),
        auth,
        body: fc.oneof(
          fc
            .tuple(junkId, fc.array(fc.oneof(fc.string(), fc.constantFrom('mk-1', 'mk-2')), { maxLength: 4 }))
            .map(([id, refs]) => toText({ gameID: id, userReferences: refs })),
          bodyFrom({ gameID: g, userReferences: ['mk-1'] }),
        ),
      }),
      'read',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/session/cancelAllForLeague'),
        auth,
        body: bodyFrom({ league: 'NBA' }),
      }),
      'read',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/session/cancelAllOrders'),
        auth,
        body: fc.option(bodyFrom({}), { nil: undefined }),
      }),
      'read',
    ),
    // Lookups and market reads.
    c(
      fc.record({
        method: fc.constant('GET'),
        path: fc
          .tuple(
            fc.constantFrom(
              '/user/getOrdersForGame',
              '/user/getBetByID',
              '/user/getBetByWagerRequestID',
              '/user/getBetByUserReference',
            ),
            query(['gameID', 'id', 'txID', 'wagerRequestID', 'userReference'], known),
          )
          .map(([p, q]) => p + q),
        auth,
      }),
      'read',
    ),
    c(
      fc.record({
        method: fc.constant('GET'),
        path: fc
          .tuple(
            fc.constantFrom(
              '/exchange/getSingleOrderbook',
              '/exchange/getOddsForAveragePrice',
              '/exchange/getMatchedVolume',
            ),
            query(['gameID', 'leagueRequested', 'startDate', 'endDate'], known),
          )
          .map(([p, q]) => p + q),
        auth,
      }),
      'read',
    ),
    // Wrong methods.
    c(
      fc.record({
        method: fc.constantFrom('GET', 'PUT', 'DELETE'),
        path: fc.constantFrom(
          '/session/editOrder',
          '/session/v4/editOrder',
          '/session/cancelAllOrders',
          '/session/cancelByReference',
        ),
        auth,
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constantFrom('POST', 'PUT'),
        path: fc.constantFrom('/user/getBetByID', '/exchange/getMatchedVolume', '/exchange/getSingleOrderbook'),
        auth,
      }),
      'error',
    ),
  );
}

const AUTHORIZATION: Record<Req['auth'], () => string | undefined> = {
  token: () => `Bearer ${fuzzer.token}`,
  junk: () => 'Bearer not-a-token',
  none: () => undefined,
};
const send = (req: Req) => sendFuzzed(t.url, { ...req, authorization: AUTHORIZATION[req.auth]() });

/** A game's orders without its game (404) and a bet by reference without one (408, the exchange's status for it). */
const RARE_STATUS_EXAMPLES: [Case][] = [
  [{ req: { method: 'GET', path: '/user/getOrdersForGame', auth: 'token' }, allow: 'read' }],
  [{ req: { method: 'GET', path: '/user/getBetByUserReference', auth: 'token' }, allow: 'read' }],
];

describe('published routes (edit, cancels by scope, lookups, market reads): malformed input fuzz over HTTP', () => {
  it('every answer is a 4xx with {error} or a harmless 200, never a 5xx or a hang; the maker’s orders are untouched', async () => {
    const before = await snapshot();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(cases(), async ({ req, allow }) => {
        const res = await send(req);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const what = `${req.method} ${req.path.slice(0, 120)} ${String(req.body).slice(0, 200)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        expect(res.contentType, what).toMatch(/^application\/json/);
        if (res.status >= 400) {
          expect(hasErrorBody(res.body), what).toBe(true);
          return;
        }
        expect(res.status, what).toBe(200);
        expect(allow, what).toBe('read');
      }),
      // The full count, not fuzzRuns, and one example each of the two rare statuses: 404 and
      // 408 come from one route's bare request each (about 1% of the draws), so 500 draws
      // alone reached neither in about one suite of a hundred, and the check below failed.
      { numRuns: 500, endOnFailure: true, examples: RARE_STATUS_EXAMPLES },
    );
    expect(await snapshot()).toEqual(before);
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 400, 401, 404, 405, 408]));
  });
});
