import { afterEach, describe, expect, it } from 'vitest';
import { AuthSession } from '../../src/exchange/auth/session.ts';
import { RateLimitedError, RequestAbortedError } from '../../src/exchange/errors.ts';
import { HttpTransport, type HttpRequest, type HttpResponse } from '../../src/exchange/http/transport.ts';
import { RestCaller } from '../../src/exchange/rest/caller.ts';
import { ENDPOINTS, PLACE_MAX_QUEUE_MS } from '../../src/exchange/rest/endpoints.ts';
import { RequestBudget, type RequestBudgetOptions } from '../../src/exchange/rest/request-budget.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { createRandom } from '../../src/shared/random.ts';
import { manualTime } from '../../src/shared/time.ts';

const T0 = Date.UTC(2026, 0, 1);
const settle = (): Promise<void> => new Promise<void>((r) => setImmediate(r));
const TOKEN = 'a'.repeat(256);
const ORDER = {
  gameID: 'b'.repeat(24),
  type: 'moneyline',
  side: 'c'.repeat(24),
  odds: 110,
  bet: 100,
  orderType: 'limit',
  userReference: 'r-1',
};

const ok = (data: unknown): HttpResponse => ({ status: 200, headers: {}, text: JSON.stringify({ data }) });
const tooMany = (retryAfterSec: number): HttpResponse => ({
  status: 429,
  headers: { 'retry-after': String(retryAfterSec) },
  text: JSON.stringify({ error: 'Too many requests. Please try again later.' }),
});
const OK_BY_ENDPOINT: Record<string, unknown> = {
  getLeagues: { availableLeagues: ['NBA'] },
  place: { createdSessions: [] },
  cancelMultiple: [{ success: true, sessionID: 'd'.repeat(24) }],
};

/** Answers as `answer` says; every request is noted with the (virtual) time it left. Never opens a connection. */
class ScriptedTransport extends HttpTransport {
  readonly sent: { label: string; at: number }[] = [];
  readonly #now: () => number;
  readonly #answer: (req: HttpRequest, nth: number) => HttpResponse;

  constructor(now: () => number, answer: (req: HttpRequest, nth: number) => HttpResponse) {
    super('http://127.0.0.1:9');
    this.#now = now;
    this.#answer = answer;
  }

  override async request(req: HttpRequest): Promise<HttpResponse> {
    this.sent.push({ label: req.label, at: this.#now() - T0 });
    return this.#answer(req, this.sent.length);
  }
}

const transports: HttpTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

function harness(
  answer: (req: HttpRequest, nth: number) => HttpResponse,
  o: { budget?: RequestBudgetOptions; login?: () => Promise<{ token: string; userId: string; username: string }> } = {},
) {
  const time = manualTime(T0);
  const transport = new ScriptedTransport(time.clock.now, answer);
  transports.push(transport);
  const budget = new RequestBudget({ clock: time.clock, scheduler: time.scheduler, headroom: 1, ...o.budget });
  const session = new AuthSession({
    login: o.login ?? (async () => ({ token: TOKEN, userId: 'e'.repeat(24), username: 'u' })),
    logger: silentLogger(),
  });
  const caller = new RestCaller({
    transport,
    session,
    budget,
    clock: time.clock,
    scheduler: time.scheduler,
    random: createRandom(1),
    logger: silentLogger(),
    policy: { backoff: { baseMs: 10, maxMs: 10, maxAttempts: 3 }, max429Waits: 5, maxRetryAfterMs: 120_000 },
  });
  const run = (ms: number) => time.advanceToSettling(time.clock.now() + ms, settle);
  return { time, transport, budget, caller, run };
}

/** A promise's outcome without letting it reject unhandled while the test moves time on. */
function track<T>(p: Promise<T>): { readonly done: boolean; readonly value?: T; readonly error?: unknown } {
  const s: { done: boolean; value?: T; error?: unknown } = { done: false };
  p.then(
    (value) => Object.assign(s, { done: true, value }),
    (error: unknown) => Object.assign(s, { done: true, error }),
  );
  return s;
}

describe('RestCaller: 429 on place is final, on a read it is waited out', () => {
  it('sends a place once: a 429 comes back at once as RateLimitedError and nothing goes again later', async () => {
    const h = harness((req) => (req.label === 'place' ? tooMany(1) : ok(OK_BY_ENDPOINT[req.label])));
    const placed = track(h.caller.call(ENDPOINTS.place, { body: { orders: [ORDER] } }));
    await settle();
    expect(placed.done).toBe(true);
    expect(placed.error).toBeInstanceOf(RateLimitedError);
    expect(placed.error).toMatchObject({ code: 'LS_ERR_RATE_LIMITED', endpoint: 'place', retryAfterMs: 1_000 });
    await h.run(10 * 60_000); // the old client waited out up to 5 × Retry-After and sent it again
    expect(h.transport.sent).toEqual([{ label: 'place', at: 0 }]);
    // The server's pause still holds the requests after it.
    const read = track(h.caller.call(ENDPOINTS.getLeagues));
    await settle();
    expect(read.done).toBe(true);
    expect(h.budget.stats.paused).toBe(1);
  });

  it('still sends a read again once Retry-After has passed', async () => {
    const h = harness((req, nth) => (nth === 1 ? tooMany(1) : ok(OK_BY_ENDPOINT[req.label])));
    const read = track(h.caller.call(ENDPOINTS.getLeagues));
    await settle();
    await h.run(999);
    expect(h.transport.sent).toEqual([{ label: 'getLeagues', at: 0 }]);
    expect(read.done).toBe(false);
    await h.run(1);
    expect(h.transport.sent).toEqual([
      { label: 'getLeagues', at: 0 },
      { label: 'getLeagues', at: 1_000 },
    ]);
    expect(read).toMatchObject({ done: true, value: { availableLeagues: ['NBA'] } });
  });
});

describe('RestCaller: a withdrawn place is not sent', () => {
  it('a place waiting for the request budget fails with RequestAbortedError when its signal aborts, and never leaves', async () => {
    const h = harness((req) => ok(OK_BY_ENDPOINT[req.label]), { budget: { global: { limit: 1, windowMs: 1_000 } } });
    await h.caller.call(ENDPOINTS.getLeagues); // the window's one slot
    const ac = new AbortController();
    const placed = track(h.caller.call(ENDPOINTS.place, { body: { orders: [ORDER] }, signal: ac.signal }));
    await h.run(500);
    expect(placed.done).toBe(false);
    ac.abort('kill switch');
    await settle();
    expect(placed.error).toBeInstanceOf(RequestAbortedError);
    expect(placed.error).toMatchObject({ code: 'LS_ERR_ABORTED', endpoint: 'place', sent: false });
    await h.run(5_000);
    expect(h.transport.sent.map((s) => s.label)).toEqual(['getLeagues']);
  });

  it('a place the budget holds longer than PLACE_MAX_QUEUE_MS fails unsent as RateLimitedError; a read waits on', async () => {
    const h = harness((req) => ok(OK_BY_ENDPOINT[req.label]), { budget: { global: { limit: 1, windowMs: 10_000 } } });
    await h.caller.call(ENDPOINTS.getLeagues); // the window's one slot, for 10 s
    const placed = track(h.caller.call(ENDPOINTS.place, { body: { orders: [ORDER] } }));
    const read = track(h.caller.call(ENDPOINTS.getLeagues));
    await h.run(PLACE_MAX_QUEUE_MS - 1);
    expect(placed.done).toBe(false);
    await h.run(1);
    expect(placed.error).toBeInstanceOf(RateLimitedError);
    expect(placed.error).toMatchObject({ code: 'LS_ERR_RATE_LIMITED', endpoint: 'place', source: 'budget' });
    expect((placed.error as Error).message).toBe(
      `place: not sent: held more than ${PLACE_MAX_QUEUE_MS} ms before it could go (request budget, login)`,
    );
    await h.run(10_000);
    expect(read.done).toBe(true);
    // The place never left; the read went when the window had room again.
    expect(h.transport.sent).toEqual([
      { label: 'getLeagues', at: 0 },
      { label: 'getLeagues', at: 10_000 },
    ]);
  });

  it('looks at the signal once more after the budget let it through: a place held by a login is not sent after an abort', async () => {
    let loggedIn!: (r: { token: string; userId: string; username: string }) => void;
    const h = harness((req) => ok(OK_BY_ENDPOINT[req.label]), { login: () => new Promise((r) => (loggedIn = r)) });
    const ac = new AbortController();
    const placed = track(h.caller.call(ENDPOINTS.place, { body: { orders: [ORDER] }, signal: ac.signal }));
    await settle();
    expect(placed.done).toBe(false); // admitted by the budget, waiting for the token
    ac.abort('stop');
    loggedIn({ token: TOKEN, userId: 'e'.repeat(24), username: 'u' });
    await settle();
    expect(placed.error).toBeInstanceOf(RequestAbortedError);
    expect(h.transport.sent).toEqual([]);
  });
});

describe('RestCaller: a place held by a login', () => {
  it('longer than PLACE_MAX_QUEUE_MS fails unsent; a read held as long goes', async () => {
    let loggedIn!: (r: { token: string; userId: string; username: string }) => void;
    const h = harness((req) => ok(OK_BY_ENDPOINT[req.label]), { login: () => new Promise((r) => (loggedIn = r)) });
    const placed = track(h.caller.call(ENDPOINTS.place, { body: { orders: [ORDER] } }));
    const read = track(h.caller.call(ENDPOINTS.getLeagues));
    await h.run(PLACE_MAX_QUEUE_MS + 1);
    loggedIn({ token: TOKEN, userId: 'e'.repeat(24), username: 'u' });
    await settle();
    await settle();
    expect(placed.error).toMatchObject({ code: 'LS_ERR_RATE_LIMITED', source: 'budget' });
    expect(read.done).toBe(true);
    expect(h.transport.sent.map((s) => s.label)).toEqual(['getLeagues']);
  });
});

describe('RestCaller: cancels never queue behind places', () => {
  it('a cancel leaves at once, inside the headroom, while places and reads wait for the window', async () => {
    const h = harness((req) => ok(OK_BY_ENDPOINT[req.label]), {
      budget: { global: { limit: 10, windowMs: 60_000 }, headroom: 0.5 },
    });
    for (let i = 0; i < 5; i++) await h.caller.call(ENDPOINTS.getLeagues); // the 5 the headroom allows
    const placed = track(h.caller.call(ENDPOINTS.place, { body: { orders: [ORDER] } }));
    const cancelled = track(h.caller.call(ENDPOINTS.cancelMultiple, { body: { sessionIDs: ['d'.repeat(24)] } }));
    await settle();
    expect(cancelled.done).toBe(true);
    expect(placed.done).toBe(false);
    expect(h.transport.sent.at(-1)).toEqual({ label: 'cancelMultiple', at: 0 });
    await h.run(60_000);
    expect(placed.done).toBe(true);
  });

  it('after a 429 pause the cancel goes first, though it came after a place and a read', async () => {
    const h = harness((req, nth) => (nth === 1 ? tooMany(1) : ok(OK_BY_ENDPOINT[req.label])), {
      budget: { global: { limit: 1, windowMs: 1_000 } },
    });
    const read = track(h.caller.call(ENDPOINTS.getLeagues)); // 429: the budget pauses 1 s, the read waits to go again
    await settle();
    const placed = track(h.caller.call(ENDPOINTS.place, { body: { orders: [ORDER] } }));
    const cancelled = track(h.caller.call(ENDPOINTS.cancelMultiple, { body: { sessionIDs: ['d'.repeat(24)] } }));
    await h.run(5_000);
    expect([read.done, placed.done, cancelled.done]).toEqual([true, true, true]);
    // One request per second: the window's single slot goes to the cancel first. The place,
    // third in line, would have left at 3 s: past PLACE_MAX_QUEUE_MS it gives up unsent.
    expect(h.transport.sent).toEqual([
      { label: 'getLeagues', at: 0 },
      { label: 'cancelMultiple', at: 1_000 },
      { label: 'getLeagues', at: 2_000 },
    ]);
    expect(placed.error).toMatchObject({ code: 'LS_ERR_RATE_LIMITED', source: 'budget' });
  });
});
