import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/exchange/rest/endpoints.ts';
import { manualTime } from '../../src/shared/time.ts';
import { createUser } from '../../src/sim/ops/admin-ops.ts';
import { observeResponses, type ObservedResponse } from '../../src/sim/server.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { loadPublishedSpec, type PublishedOperation } from './published-spec.ts';
import { ResponseChecker } from './response-check.ts';
import { tapChecker } from './response-tap.setup.ts';

/**
 * The exchange's published descriptions (../shared/spec/, read at test time) against the
 * simulator and the client: every published method and path is served by the simulator and
 * has a client method, and the simulator's answers on every one of them validate (the
 * setup file's tap checks each answer; this file makes sure there are answers to check).
 */

const T0 = Date.UTC(2026, 2, 1, 12);
const DAY = 86_400_000;

/** Published routes that are no client call, with the reason. */
const NO_CLIENT_METHOD: Readonly<Record<string, string>> = {
  'GET /openapi.json': 'the description itself: tooling reads it, trading does not',
};

const spec = loadPublishedSpec();
const routeOf = (op: Pick<PublishedOperation, 'method' | 'path'>) => `${op.method} ${op.path}`;
const published = [...new Map(spec.operations.map((op) => [routeOf(op), op])).values()];
const clientRoutes = new Set(Object.values(ENDPOINTS).map((e) => `${e.method} ${e.path}`));

interface World {
  readonly t: TestSim;
  readonly maker: { id: string; token: string };
  readonly taker: { id: string; token: string };
  readonly gameID: string;
  readonly restingId: string;
  readonly spareId: string;
  /** A resting order of the maker that only the edit touches. */
  readonly editId: string;
  /** A bet of the maker on the open game, for the lookups by id and wagerRequestID. */
  readonly bet: { readonly id: string; readonly wagerRequestID: string };
}

let world: World;

/** A board with resting orders, open bets and graded rows of both origins. */
async function buildWorld(): Promise<World> {
  const t = await startTestSim({ time: manualTime(T0) });
  const ctx = t.sim.context;
  const mk = (username: string, referrer?: string) => {
    const made = createUser(ctx, {
      username,
      password: `pw-${username}`,
      email: `${username}@example.com`,
      balance: 1_000_000,
      commission: 0.01,
      ...(referrer ? { referrer } : {}),
    });
    if (!made.ok) throw new Error(made.error);
    return { id: made.value.id, token: ctx.tokens.issue(made.value.id) };
  };
  const maker = mk('maker');
  const taker = mk('taker', 'maker');
  const past = t.game({ start: T0 - DAY });
  const open = t.game({ start: T0 + DAY });
  const e = ctx.engine;
  for (const g of [past, open]) {
    const home = g.participants[1].id;
    e.place(maker.id, [
      { gameID: g.id, type: 'moneyline', side: home, odds: -110, bet: 110, userReference: 'm-ml' },
      { gameID: g.id, type: 'total', side: 'over', number: 200.5, odds: -110, bet: 110 },
      { gameID: g.id, type: 'spread', side: home, number: -3.5, odds: -105, bet: 50 },
    ]);
    e.place(taker.id, [
      { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: 110, bet: 40, userReference: 't-ml' },
      { gameID: g.id, type: 'total', side: 'under', number: 200.5, odds: 110, bet: 30 },
    ]);
  }
  e.place(maker.id, [
    { gameID: open.id, type: 'total', side: 'under', number: 215.5, odds: -115, bet: 20, userReference: 'm-edit' },
  ]);
  if (!e.settleGame(past.id, { away: 100, home: 110 }).ok) throw new Error('settle failed');
  const resting = e.openOrders(maker.id).filter((o) => o.gameID === open.id);
  const editId = resting.find((o) => o.userReference === 'm-edit')!.id;
  const others = resting.filter((o) => o.id !== editId);
  const bet = e.bets(maker.id).find((b) => b.gameID === open.id)!;
  return {
    t,
    maker,
    taker,
    gameID: open.id,
    restingId: others[0]!.id,
    spareId: others[1]!.id,
    editId,
    bet: { id: bet.id, wagerRequestID: bet.wagerRequestID },
  };
}

interface Call {
  readonly query?: string;
  readonly body?: unknown;
  readonly as?: 'maker' | 'taker' | 'nobody';
}

/** A valid request for each published route the simulator serves. */
function callFor(route: string, w: World): Call {
  switch (route) {
    case 'POST /user/login':
      return { body: { username: 'maker', password: 'pw-maker' }, as: 'nobody' };
    case 'POST /user/ordersHeartbeat':
      return { body: { timeout: 3600 } };
    case 'GET /user/getGameLiability':
      return { query: `gameID=${w.gameID}` };
    case 'POST /session/v3/place':
      return {
        body: {
          orders: [
            { gameID: w.gameID, type: 'moneyline', side: 'nobody', odds: -110, bet: 10 },
            {
              gameID: w.gameID,
              type: 'total',
              side: 'under',
              number: 210.5,
              odds: -120,
              bet: 12,
              userReference: 'p-1',
            },
          ],
        },
      };
    case 'GET /session/lookupOrder':
      return { query: `orderID=${w.restingId}` };
    case 'POST /session/cancel':
      return { body: { sessionID: w.restingId } };
    case 'POST /session/cancelMultiple':
      return { body: { sessionIDs: [w.spareId, w.restingId] } };
    case 'GET /exchange/v2/getOrderbook':
      return { query: `gameID=${w.gameID}` };
    case 'GET /exchange/v2/getGames':
      return { query: 'league=NBA' };
    case 'POST /exchange/getOrderbook':
      return { body: { leagueRequested: 'NBA' } };
    case 'GET /openapi.json':
      return { as: 'nobody' };
    case 'POST /session/editOrder':
      return { body: { sessionID: w.editId, orderOdds: -120, orderVolume: 25 } };
    case 'POST /session/cancelByReference':
      return { body: { gameID: w.gameID, userReferences: ['m-ml', 'none-such'] } };
    case 'POST /session/cancelAllOrdersForGame':
      return { body: { gameID: w.gameID, type: 'spread' } };
    case 'POST /session/cancelAllForLeague':
      return { body: { league: 'nba' } };
    case 'GET /user/getOrdersForGame':
      return { query: `gameID=${w.gameID}` };
    case 'GET /user/getBetByID':
      return { query: `id=${w.bet.id}` };
    case 'GET /user/getBetByWagerRequestID':
      return { query: `wagerRequestID=${w.bet.wagerRequestID}` };
    case 'GET /user/getBetByUserReference':
      return { query: `userReference=m-ml&gameID=${w.gameID}` };
    case 'GET /exchange/getSingleOrderbook':
      return { query: `gameID=${w.gameID}` };
    case 'GET /exchange/getOddsForAveragePrice':
      return { query: 'leagueRequested=NBA' };
    case 'GET /exchange/getMatchedVolume':
      return { query: 'startDate=2026-02-27&endDate=2026-03-01' };
    case 'GET /user/v2/getGradedSince':
      return { query: `since=${new Date(T0 - 2 * DAY).toISOString()}` };
    case 'POST /user/v2/getGradedSince':
      return { body: { since: new Date(T0 - 2 * DAY).toISOString() } };
    default:
      return {};
  }
}

async function call(op: PublishedOperation, w: World) {
  const c = callFor(routeOf(op), w);
  const as = c.as ?? 'maker';
  const token = as === 'nobody' ? null : w[as].token;
  const raw = op.file === 'exchange-openapi-graded.json';
  return w.t.http(op.method, `${op.path}${c.query ? `?${c.query}` : ''}`, {
    token,
    raw,
    ...(c.body !== undefined ? { body: c.body } : {}),
  });
}

beforeAll(async () => {
  world = await buildWorld();
});

afterAll(async () => {
  await world?.t.close();
});

describe('every published method and path', () => {
  it.each(published.map((op) => [routeOf(op), op] as const))(
    '%s is served and answers 200 with a valid body',
    async (_route, op) => {
      const validBefore = (await tapChecker()).validated.get(`${routeOf(op)} 200`) ?? 0;
      const res = await call(op, world);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await tapChecker()).validated.get(`${routeOf(op)} 200`) ?? 0).toBeGreaterThan(validBefore);
    },
  );

  it.each(published.filter((op) => !op.alternate).map((op) => [routeOf(op)] as const))(
    '%s has a client method',
    (route) => {
      if (NO_CLIENT_METHOD[route] !== undefined) return;
      expect(clientRoutes.has(route), `${route}: no entry of ENDPOINTS (src/exchange/rest/endpoints.ts) calls it`).toBe(
        true,
      );
    },
  );

  it('refusals of the edit, scoped-cancel, lookup and market-read routes are published statuses and bodies', async () => {
    const h = (method: string, target: string, body?: unknown) =>
      world.t.http(method, target, { token: world.maker.token, ...(body !== undefined ? { body } : {}) });
    const unknownId = 'ffffffffffffffffffffffff';
    const refusals: [string, Promise<{ status: number }>, number][] = [
      ['getOrdersForGame, unknown game', h('GET', `/user/getOrdersForGame?gameID=${unknownId}`), 404],
      ['getOrdersForGame, no game', h('GET', '/user/getOrdersForGame'), 404],
      ['getBetByID, neither id', h('GET', '/user/getBetByID'), 400],
      ['getBetByID, unknown', h('GET', `/user/getBetByID?txID=${unknownId}`), 400],
      ['getBetByWagerRequestID, malformed', h('GET', '/user/getBetByWagerRequestID?wagerRequestID=x'), 400],
      ['getBetByUserReference, no reference', h('GET', `/user/getBetByUserReference?gameID=${world.gameID}`), 408],
      ['getSingleOrderbook, unknown game', h('GET', `/exchange/getSingleOrderbook?gameID=${unknownId}`), 400],
      ['getOddsForAveragePrice, no league', h('GET', '/exchange/getOddsForAveragePrice'), 400],
      [
        'getMatchedVolume, not a date',
        h('GET', '/exchange/getMatchedVolume?startDate=2026-02-30&endDate=2026-03-01'),
        400,
      ],
      [
        'getMatchedVolume, reversed',
        h('GET', '/exchange/getMatchedVolume?startDate=2026-03-01&endDate=2026-02-01'),
        400,
      ],
      ['cancelAllForLeague, unknown league', h('POST', '/session/cancelAllForLeague', { league: 'NOPE' }), 400],
      ['cancelByReference, no references', h('POST', '/session/cancelByReference', { gameID: world.gameID }), 400],
      [
        'cancelAllOrdersForGame, bad type',
        h('POST', '/session/cancelAllOrdersForGame', { gameID: world.gameID, type: '1x2' }),
        400,
      ],
      ['editOrder, unknown order', h('POST', '/session/editOrder', { sessionID: unknownId, orderOdds: 120 }), 400],
      ['editOrder, no order named', h('POST', '/session/editOrder', { orderOdds: 120 }), 400],
    ];
    const invalidBefore = (await tapChecker()).counts.invalid;
    for (const [what, pending, status] of refusals) expect((await pending).status, what).toBe(status);
    // The tap checked each body against the published description (afterEach names a mismatch).
    expect((await tapChecker()).counts.invalid).toBe(invalidBefore);
  });

  it('validated answers on every published route the simulator serves, so the check cannot pass on nothing', async () => {
    const tap = await tapChecker();
    const missing = published.filter((op) => (tap.validated.get(`${routeOf(op)} 200`) ?? 0) === 0).map(routeOf);
    expect(missing).toEqual([]);
    expect(published.length).toBeGreaterThanOrEqual(29);
    expect(tap.counts.valid).toBeGreaterThanOrEqual(published.length);
    expect(tap.counts.invalid).toBe(0);
  });
});

describe('the response check itself', () => {
  const checker = new ResponseChecker();
  const answer = (method: string, path: string, status: number, body: unknown): ObservedResponse => ({
    method,
    path,
    status,
    body,
  });

  it('rejects a body that breaks the published schema, naming the route and the field', () => {
    const v = checker.check(answer('GET', '/user/getGameLiability', 200, { data: { liability: '-5' } }));
    expect(v.kind).toBe('invalid');
    expect(v.kind === 'invalid' && v.message).toMatch(
      /GET \/user\/getGameLiability 200: .*\/data\/liability must be number/,
    );
    const graded = checker.check(
      answer('GET', '/user/v2/getGradedSince', 200, { data: { graded: [], hasMore: false, cursor: 'c' } }),
    );
    expect(graded.kind === 'invalid' && graded.message).toMatch(/settledThrough/);
  });

  it('rejects a status the description does not list, and lets 429 and 5xx through as generic', () => {
    expect(checker.check(answer('GET', '/user/getMe', 418, { error: 'teapot' })).kind).toBe('invalid');
    expect(
      checker.check(answer('GET', '/user/getMe', 429, { error: 'Too many requests. Please try again later.' })).kind,
    ).toBe('generic');
    expect(
      checker.check(answer('POST', '/session/v3/place', 503, { error: { message: 'Network Error', code: 503 } })).kind,
    ).toBe('valid');
    expect(checker.check(answer('GET', '/user/getMatchedBets', 504, {})).kind).toBe('generic');
  });

  it('applies exchange-api.md where it corrects a description, and nowhere else', () => {
    // §2.4: a place entry is a success or a failure, not something else.
    expect(
      checker.check(
        answer('POST', '/session/v3/place', 200, {
          data: {
            createdSessions: [
              { matched: [], unmatched: {} },
              { error: 'x', errorType: 'validation_error' },
            ],
          },
        }),
      ).kind,
    ).toBe('valid');
    expect(
      checker.check(answer('POST', '/session/v3/place', 200, { data: { createdSessions: [{ unmatched: {} }] } })).kind,
    ).toBe('invalid');
    // §5 (9): the 401 body on the raw-token graded routes.
    expect(
      checker.check(answer('GET', '/user/v2/getGraded', 401, { error: { message: 'InvalidCredentials', code: 401 } }))
        .kind,
    ).toBe('valid');
    expect(
      checker.check(answer('GET', '/user/v2/getGraded', 401, { error: { message: 'nope', code: 401 } })).kind,
    ).toBe('invalid');
    // §7.2: the login challenge.
    expect(
      checker.check(answer('POST', '/user/login', 428, { error: { message: 'CHALLENGE_REQUIRED', code: 428 } })).kind,
    ).toBe('valid');
    // A 400 needs an { error } body, and only routes that take input answer it.
    expect(checker.check(answer('GET', '/user/getGameLiability', 400, { error: 'gameID is required' })).kind).toBe(
      'valid',
    );
    expect(checker.check(answer('GET', '/user/getGameLiability', 400, { message: 'gameID is required' })).kind).toBe(
      'invalid',
    );
    expect(checker.check(answer('GET', '/user/getMatchedBets', 400, { error: 'x' })).kind).toBe('invalid');
    // 413 only where a body is published, and with an { error } body.
    expect(checker.check(answer('POST', '/session/v3/place', 413, { error: 'request body too large' })).kind).toBe(
      'valid',
    );
    expect(checker.check(answer('POST', '/session/v3/place', 413, 'too large')).kind).toBe('invalid');
    expect(checker.check(answer('GET', '/user/getMe', 413, { error: 'request body too large' })).kind).toBe('invalid');
  });

  it('skips admin and unpublished routes, counting them', () => {
    const before = { ...checker.counts };
    expect(checker.check(answer('POST', '/admin/clock', 200, { whatever: 1 })).kind).toBe('skipped');
    expect(checker.check(answer('GET', '/v2/user/messages', 200, {})).kind).toBe('skipped');
    expect(checker.counts.skippedAdmin).toBe(before.skippedAdmin + 1);
    expect(checker.counts.skippedUnpublished).toBe(before.skippedUnpublished + 1);
  });

  it('the tap hands the observer every answer with its parsed wire body', async () => {
    const seen: ObservedResponse[] = [];
    const previous = observeResponses((r) => seen.push(r));
    try {
      const res = await world.t.http('GET', '/exchange/getLeagues?sport=basketball', { token: world.maker.token });
      expect(res.status).toBe(200);
      await world.t.http('GET', '/no/such/route');
    } finally {
      observeResponses(previous);
    }
    expect(seen).toEqual([
      { method: 'GET', path: '/exchange/getLeagues', status: 200, body: { data: { availableLeagues: ['NBA'] } } },
      { method: 'GET', path: '/no/such/route', status: 404, body: { error: 'no route for /no/such/route' } },
    ]);
  });
});
