import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineGame } from '../../src/engine/types.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { hasErrorBody, mutatedValue, oddValue, randomText, sendFuzzed, toText } from './support.ts';

/**
 * The simulator's REST and admin routes fuzzed over real HTTP on loopback with malformed
 * bodies, queries, paths, methods and credentials. Every answer must be a 4xx with the
 * contract's error shape — or, where the contract answers 200 for a request it refuses
 * entry by entry (place, cancelMultiple) or for a plain read, that — never a 5xx, never a
 * hang; and the book, the accounts, the games and the faults are what they were.
 */

const T0 = Date.UTC(2026, 2, 1, 12);
const DAY = 86_400_000;

let t: TestSim;
let game: EngineGame;
let maker: { id: string; token: string; username: string; password: string };
let fuzzer: { id: string; token: string; username: string; password: string };
let makerOrders: string[] = [];

beforeAll(async () => {
  t = await startTestSim({ time: manualTime(T0) });
  maker = await t.user('sim-fz-maker');
  fuzzer = await t.user('sim-fz-fuzzer');
  game = t.game({ start: T0 + 30 * DAY });
  const [a, b] = t.sim.context.engine.place(maker.id, [
    { gameID: game.id, type: 'moneyline', side: game.participants[0].id, odds: -110, bet: 100 },
    { gameID: game.id, type: 'spread', side: game.participants[1].id, number: -3.5, odds: 105, bet: 50 },
  ]);
  if (a?.status !== 'ok' || b?.status !== 'ok' || !a.unmatched || !b.unmatched) throw new Error('maker orders failed');
  makerOrders = [a.unmatched.orderID, b.unmatched.orderID];
});
afterAll(() => t.close());

/** Everything a malformed request must leave as it was. */
async function snapshot(): Promise<unknown> {
  const ctx = t.sim.context;
  const engine = ctx.engine;
  const book = await t.http('GET', `/exchange/v2/getOrderbook?gameID=${game.id}`, { token: maker.token });
  return {
    book: book.body,
    open: [maker.id, fuzzer.id].map((id) => engine.openOrders(id).map((o) => [o.id, o.odds, o.bet])),
    bets: [maker.id, fuzzer.id].map((id) => engine.bets(id).length),
    accounts: ctx.accounts.all().map((u) => [u.id, u.username, u.status, engine.account(u.id)?.balance]),
    games: engine.games().map((g) => [g.id, g.live, g.ended, g.start]),
    faults: { ...ctx.faults },
  };
}

interface Req {
  readonly method: string;
  readonly path: string;
  readonly auth: 'token' | 'raw' | 'none' | 'junk' | 'maker';
  /** Raw body text, if any. */
  readonly body?: string;
  readonly contentType?: string;
}

/** What a refused request may answer besides a 4xx: the contract's 200 with every entry refused. */
type Allow = 'error' | 'read' | 'placeRefused' | 'cancelRefused';

interface Case {
  readonly req: Req;
  readonly allow: Allow;
}

const hex24 = fc.stringMatching(/^[0-9a-f]{24}$/);
const junkId = fc.oneof(
  hex24,
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '',
    '%',
    '%E0%A4%A',
    '..',
    '%2F',
    'constructor',
    '__proto__',
    '0'.repeat(24),
    'ZZZZZZZZZZZZZZZZZZZZZZZZ',
  ),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom(
    '',
    'NBA',
    'true',
    '-1',
    '1e400',
    'NaN',
    '2026-13-45',
    '9999-99-99T99:99:99Z',
    '+275760-09-13T00:00:00.000Z',
    'A'.repeat(5000),
  ),
);
const enc = (s: string) => encodeURIComponent(s);
const query = (names: readonly string[]) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })), queryValue), { maxLength: 4 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}` : ''));

/** A body: mutated from a valid one, random JSON, near-JSON or junk. */
const bodyFrom = (valid: unknown) =>
  fc.oneof(
    { weight: 3, arbitrary: mutatedValue(valid).map((v) => (v === undefined ? '' : toText(v))) },
    { weight: 2, arbitrary: randomText },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', 'null', '[]', '"x"', '12') },
  );

/** A place entry made invalid on purpose (so nothing can match the book), then mutated further. */
const badOrder = fc
  .tuple(
    fc.constantFrom(
      (o: Record<string, unknown>) => delete o.gameID,
      (o: Record<string, unknown>) => delete o.type,
      (o: Record<string, unknown>) => delete o.side,
      (o: Record<string, unknown>) => delete o.odds,
      (o: Record<string, unknown>) => delete o.bet,
      (o: Record<string, unknown>) => (o.odds = 50),
      (o: Record<string, unknown>) => (o.odds = -99.5),
      (o: Record<string, unknown>) => (o.odds = 'NaN'),
      (o: Record<string, unknown>) => (o.bet = 0),
      (o: Record<string, unknown>) => (o.bet = -10),
      (o: Record<string, unknown>) => (o.bet = '10'),
      (o: Record<string, unknown>) => (o.type = 'exotic'),
      (o: Record<string, unknown>) => (o.side = 'nobody'),
      (o: Record<string, unknown>) => (o.gameID = 'not-a-game'),
      (o: Record<string, unknown>) => (o.gameID = 'ffffffffffffffffffffffff'),
      (o: Record<string, unknown>) => ((o.type = 'spread'), delete o.number),
      (o: Record<string, unknown>) => ((o.type = 'total'), (o.side = 'over'), (o.number = 0.3)),
    ),
    fc.array(
      fc.tuple(
        fc.constantFrom('orderType', 'expirationMinutes', 'userReference', 'market', 'number', 'extra', '__proto__'),
        oddValue,
      ),
      { maxLength: 2 },
    ),
  )
  .map(([invalidate, noise]) => {
    // Crossing prices, so an entry that slipped through would show as a change of the book.
    const o: Record<string, unknown> = {
      gameID: game.id,
      type: 'moneyline',
      side: game.participants[1].id,
      odds: 110,
      bet: 10,
      orderType: 'limit',
    };
    for (const [k, v] of noise)
      if (!['gameID', 'type', 'side', 'odds', 'bet'].includes(k))
        Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    invalidate(o);
    return o;
  });

/** Admin bodies always carry an unknown key: every admin body is strict, so none can apply. */
const adminBody = (valid: Record<string, unknown>) =>
  mutatedValue(valid).map((v) => {
    if (v === undefined) return '{"zzUnknown":1}';
    // Added after mutating, so no mutation can take it away; a body that is not an object is refused anyway.
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) (v as Record<string, unknown>).zzUnknown = 1;
    return toText(v);
  });

const auth = fc.constantFrom<Req['auth']>('token', 'token', 'token', 'raw', 'none', 'junk');

function cases(): fc.Arbitrary<Case> {
  const g = game.id;
  const c = (req: fc.Arbitrary<Req>, allow: Allow): fc.Arbitrary<Case> => req.map((r) => ({ req: r, allow }));
  return fc.oneof(
    // session: place, cancel, cancelMultiple, lookupOrder
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/session/v3/place'),
        auth,
        body: fc.oneof(
          fc
            .array(fc.oneof({ weight: 4, arbitrary: badOrder }, { weight: 1, arbitrary: oddValue }), {
              minLength: 1,
              maxLength: 4,
            })
            .map((orders) => toText({ orders })),
          bodyFrom({ orders: [{ gameID: g, type: 'moneyline', side: 'x', odds: 1, bet: 1 }] }),
        ),
      }),
      'placeRefused',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/session/cancel'),
        auth,
        body: fc.oneof(
          junkId.map((id) => toText({ sessionID: id })),
          fc.constantFrom(...makerOrders).map((id) => toText({ sessionID: id })),
          bodyFrom({ sessionID: makerOrders[0] }),
        ),
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/session/cancelMultiple'),
        auth,
        body: fc.oneof(
          fc
            .array(fc.oneof(junkId, fc.constantFrom(...makerOrders)), { maxLength: 5 })
            .map((ids) => toText({ sessionIDs: ids })),
          fc
            .array(fc.constant(makerOrders[0]), { minLength: 201, maxLength: 202 })
            .map((ids) => toText({ sessionIDs: ids })),
          bodyFrom({ sessionIDs: makerOrders }),
        ),
      }),
      'cancelRefused',
    ),
    c(
      fc.record({
        method: fc.constant('GET'),
        path: fc.oneof(
          junkId.map((id) => `/session/lookupOrder?orderID=${enc(id)}`),
          fc.constantFrom(...makerOrders).map((id) => `/session/lookupOrder?orderID=${id}`),
          query(['orderID']).map((q) => `/session/lookupOrder${q}`),
        ),
        auth,
      }),
      'error',
    ),
    // exchange reads
    c(
      fc.record({
        method: fc.constant('GET'),
        path: fc.oneof(
          query(['league', 'gameID']).map((q) => `/exchange/v2/getOrderbook${q}`),
          junkId.map((id) => `/exchange/v2/getOrderbook?gameID=${enc(id)}`),
        ),
        auth,
      }),
      'read',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/exchange/getOrderbook'),
        auth,
        body: bodyFrom({ leagueRequested: 'NBA' }),
      }),
      'read',
    ),
    c(
      fc.record({
        method: fc.constant('GET'),
        path: fc
          .tuple(
            fc.constantFrom('/exchange/v2/getGames', '/exchange/getLeagues', '/exchange/getParticipants'),
            query(['league', 'sport', 'active']),
          )
          .map(([p, q]) => p + q),
        auth,
      }),
      'read',
    ),
    // bets and graded
    c(
      fc.record({
        method: fc.constant('GET'),
        path: fc
          .tuple(
            fc.constantFrom(
              '/user/getMatchedBets',
              '/user/getGameLiability',
              '/user/getUnmatched',
              '/affiliate/getAffiliateCommission',
              '/v2/user/messages',
            ),
            query(['gameID', 'fromDate', 'toDate', 'afterID', 'beforeID']),
          )
          .map(([p, q]) => p + q),
        auth,
      }),
      'read',
    ),
    c(
      fc.record({
        method: fc.constantFrom('GET', 'POST'),
        path: fc
          .tuple(
            fc.constantFrom('/user/v2/getGraded', '/user/getGradedWagers', '/user/v2/getGradedSince'),
            query(['startDate', 'endDate', 'since', 'cursor']),
          )
          .map(([p, q]) => p + q),
        auth: fc.constantFrom<Req['auth']>('raw', 'raw', 'token', 'none', 'junk'),
        body: fc.option(
          bodyFrom({ startDate: '2026-03-01', endDate: '2026-03-02', cursor: 'x', since: '2026-03-01T00:00:00Z' }),
          { nil: undefined },
        ),
      }),
      'read',
    ),
    // user: login (never the right password), heartbeat
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/user/login'),
        auth: fc.constant<Req['auth']>('none'),
        body: fc.oneof(
          fc.string({ maxLength: 20 }).map((pw) => toText({ username: fuzzer.username, password: `${pw}-not-it` })),
          bodyFrom({ username: fuzzer.username, password: 'wrong' }).filter((b) => !b.includes(fuzzer.password)),
        ),
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/user/ordersHeartbeat'),
        auth,
        body: fc
          .oneof(
            oddValue.map((v) => toText({ timeout: v })),
            bodyFrom({ timeout: 'x' }),
          )
          .filter((b) => !/^\{"timeout":([6-9]|[1-9]\d{1,4})\}$/.test(b)),
      }),
      'error',
    ),
    // admin: every route, always refused
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/admin/users'),
        auth: fc.constant<Req['auth']>('none'),
        body: adminBody({ username: 'fz-new', password: 'pw' }),
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.oneof(
          junkId.map((id) => `/admin/users/${enc(id)}/status`),
          fc.constant(`/admin/users/${fuzzer.id}/status`),
        ),
        auth: fc.constant<Req['auth']>('none'),
        body: adminBody({ status: 'banned' }),
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/admin/games'),
        auth: fc.constant<Req['auth']>('none'),
        body: adminBody({
          league: 'NBA',
          sport: 'basketball',
          participants: [
            { longName: 'A', shortName: 'A' },
            { longName: 'B', shortName: 'B' },
          ],
        }),
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.oneof(
          junkId.map((id) => `/admin/games/${enc(id)}`),
          fc.constant(`/admin/games/${g}`),
        ),
        auth: fc.constant<Req['auth']>('none'),
        body: adminBody({ live: true }),
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.oneof(
          junkId.map((id) => `/admin/games/${enc(id)}/result`),
          fc.constant(`/admin/games/${g}/result`),
        ),
        auth: fc.constant<Req['auth']>('none'),
        body: adminBody({ awayScore: 1, homeScore: 2 }),
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: junkId.filter((id) => id !== g).map((id) => `/admin/games/${enc(id)}/refund`),
        auth: fc.constant<Req['auth']>('none'),
        body: fc.option(randomText, { nil: undefined }),
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constantFrom('/admin/clock', '/admin/faults'),
        auth: fc.constant<Req['auth']>('none'),
        body: adminBody({ advanceMs: 1000, restErrorRate: 0 }),
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constant('GET'),
        path: fc.oneof(
          junkId.map((id) => `/admin/games/${enc(id)}`),
          fc.constantFrom('/admin/clock', '/admin/faults'),
        ),
        auth: fc.constant<Req['auth']>('none'),
      }),
      'read',
    ),
    // wrong methods, unknown paths, odd path spellings
    c(
      fc.record({
        method: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'GET'),
        path: fc.constantFrom(
          '/session/v3/place',
          '/session/cancel',
          '/session/cancelMultiple',
          '/user/login',
          '/admin/users',
          '/admin/games',
        ),
        auth,
      }),
      'error',
    ),
    c(
      fc.record({
        method: fc.constantFrom('GET', 'POST'),
        path: fc.oneof(
          fc.string({ maxLength: 20 }).map((s) => `/${enc(s)}`),
          fc.constantFrom(
            '/admin/',
            '/admin/games/%E0%A4%A/result',
            '/session//place',
            '/SESSION/v3/place',
            '/exchange/v2/getOrderbook/',
            '/%00',
            '/admin/games/a/b/c/d',
          ),
        ),
        auth,
      }),
      'error',
    ),
  );
}

const AUTHORIZATION: Record<Req['auth'], () => string | undefined> = {
  token: () => `Bearer ${fuzzer.token}`,
  raw: () => fuzzer.token,
  junk: () => 'Bearer not-a-token',
  none: () => undefined,
  maker: () => undefined,
};
const send = (req: Req) => sendFuzzed(t.url, { ...req, authorization: AUTHORIZATION[req.auth]() });

describe('simulator REST and admin routes: malformed input fuzz over HTTP', () => {
  it('every answer is a 4xx with {error} (or the contract’s 200 refusing each entry, or a read), never a 5xx or a hang; the book is unchanged', async () => {
    const before = await snapshot();
    let logins = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(cases(), async ({ req, allow }) => {
        if (req.path === '/user/login' && ++logins % 25 === 0) (t.sim.context.time as ManualTimeSource).advance(61_000);
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
        const data = (res.body as { data?: unknown }).data;
        if (allow === 'placeRefused') {
          const entries = (data as { createdSessions: unknown[] }).createdSessions;
          for (const e of entries)
            expect(hasErrorBody(e) && typeof (e as { errorType?: unknown }).errorType === 'string', what).toBe(true);
        } else if (allow === 'cancelRefused') {
          for (const e of data as { success: boolean }[]) expect(e.success, what).toBe(false);
        } else {
          expect(allow, what).toBe('read');
        }
      }),
      // The full count, not fuzzRuns: the check below needs every status reached, and a
      // quarter of the runs does not always reach each of them.
      { numRuns: 700, endOnFailure: true },
    );
    expect(await snapshot()).toEqual(before);
    // The fuzz reached past validation: refusals of every kind, and reads.
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 400, 401, 404, 405]));
  });

  // Regressions found by the fuzz: a malformed escape in a `:param` segment threw in the
  // router (a 500, reachable by any client, admin or not), and a body over 1 MiB had its
  // connection reset before the 413 could be read.
  it('a malformed %-escape in a path parameter is a 404', async () => {
    for (const path of ['/admin/games/%E0%A4%A/result', '/admin/users/%/status', '/admin/games/%zz']) {
      const res = await send({ method: 'POST', path, auth: 'none', body: '{}' });
      expect(res.status, path).toBe(404);
      expect(hasErrorBody(res.body)).toBe(true);
    }
  });

  it('a body over the limit is answered 413 {error}, not a reset connection', async () => {
    const before = await snapshot();
    const res = await send({
      method: 'POST',
      path: '/session/v3/place',
      auth: 'token',
      body: `{"orders":[${'1,'.repeat(700_000)}1]}`,
    });
    expect(res.status).toBe(413);
    expect(hasErrorBody(res.body)).toBe(true);
    // The connection is still good for the next request.
    expect((await send({ method: 'GET', path: '/exchange/getLeagues', auth: 'token' })).status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });
});
