import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileTokenStore } from '../../src/exchange/auth/token-store.ts';
import { ExchangeClient } from '../../src/exchange/client.ts';
import { SchemaMismatchError } from '../../src/exchange/errors.ts';
import { decodeBody } from '../../src/exchange/rest/decode.ts';
import { ENDPOINTS } from '../../src/exchange/rest/endpoints.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import type { UserFeedEvent } from '../../src/exchange/socket/user-feed-events.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { capturedLogger } from '../exchange/support-rest.ts';
import { dropSimSockets, FAST, Recorder, until } from '../exchange/support-socket.ts';
import { mutatedValue, toText } from '../fuzz/support.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

/**
 * Extends test/exchange/security.test.ts (REST only: login, re-login, rotation, 429,
 * failures; messages and stacks) to the whole client — the three sockets, their handshakes
 * and reconnects, the user-feed replay, a refused handshake, the orders socket — to the
 * simulator's own log, to errors as they are serialised (util.inspect with causes, JSON,
 * pino's err serializer), to secrets nested deep in logged objects, and to login answers
 * that do not match the contract.
 */

const T0 = Date.UTC(2026, 4, 1, 12);
const DAY = 86_400_000;
const PASSWORD = 'Pw-sockets-4e9b1c7a2d3f';

let t: TestSim | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await t?.close();
  t = undefined;
});

/** Every way an error reaches a terminal or a file. */
function serialised(err: unknown): string {
  const e = err as Error;
  const { logger, lines } = capturedLogger('trace');
  logger.error({ err: e }, 'failed');
  return [
    String(e),
    e.message,
    String(e.stack),
    inspect(e, { depth: Infinity }),
    JSON.stringify(e, Object.getOwnPropertyNames(e)),
    ...lines,
  ].join('\n');
}

/** A secret and the prefixes a careless writer might leave of it. */
function expectAbsent(text: string, secret: string): void {
  expect(text).not.toContain(secret);
  if (secret.length > 40) expect(text).not.toContain(secret.slice(0, 32));
}

describe('secrets stay out of logs and errors: the whole client', () => {
  it('REST, the three sockets, reconnects, a refused handshake and the replay log neither the token nor the password, nor does the simulator', async () => {
    const time = manualTime(T0);
    const simLog = capturedLogger('trace');
    t = await startTestSim({ time, logger: simLog.logger });
    const ctx = t.sim.context;
    // Every token the simulator hands out, for the search afterwards.
    const issued: string[] = [];
    const issue = ctx.tokens.issue.bind(ctx.tokens);
    ctx.tokens.issue = (userId: string) => {
      const token = issue(userId);
      issued.push(token);
      return token;
    };
    await t.user('sec-client', { password: PASSWORD });
    const maker = await t.user('sec-maker');
    const g = t.game({ start: T0 + 60 * DAY });

    const { logger, lines } = capturedLogger('trace');
    const dir = await mkdtemp(join(tmpdir(), 'ls-sec-'));
    const store = new FileTokenStore(join(dir, 'token'));
    const client = new ExchangeClient({
      baseUrl: t.url,
      credentials: async () => ({ username: 'sec-client', password: PASSWORD }),
      tokenStore: store,
      logger,
      sockets: FAST,
      rest: { runId: 'sec', placeRecoveryGraceMs: 50 },
    });
    cleanups.push(() => client.close());
    const events = new Recorder<UserFeedEvent<unknown>>(client.userFeed.events$);
    const states = new Recorder<SocketState>(client.priceFeed.state$);
    const userStates = new Recorder<SocketState>(client.userFeed.state$);
    const errors: unknown[] = [];
    await client.start();
    await states.next((s) => s.status === 'open');
    await userStates.next((s) => s.status === 'open');

    // Orders over REST and over the orders socket; a fill the user feed reports.
    const side = g.participants[0].id;
    const [rest] = await client.rest.place([
      { gameID: g.id, type: 'moneyline', side, odds: 120, bet: 20, orderType: 'post' },
    ]);
    expect(rest?.status).toBe('accepted');
    const [viaSocket] = await client.orders.place([
      { gameID: g.id, type: 'moneyline', side, odds: 125, bet: 20, orderType: 'post' },
    ]);
    expect(viaSocket?.status).toBe('accepted');
    ctx.engine.place(maker.id, [{ gameID: g.id, type: 'moneyline', side: g.participants[1].id, odds: -120, bet: 10 }]);
    await events.next((e) => e.type === 'makerFill');
    await client.orders.cancelById('ffffffffffffffffffffffff').catch((e: unknown) => errors.push(e));

    // Every socket dropped: new handshakes with the token, the user feed replays over REST.
    dropSimSockets(t, time as ManualTimeSource);
    await states.next((s) => s.status === 'open' && s.connection === 2);
    await userStates.next((s) => s.status === 'open' && s.connection === 2);

    // The token revoked behind the client's back: the next handshakes are refused with 401,
    // the session logs in again and the sockets come back with the new token.
    ctx.tokens.revoke(await client.rest.session.token());
    dropSimSockets(t, time as ManualTimeSource);
    await states.next((s) => s.status === 'open' && s.connection === 3, 5_000);
    await until(() => client.rest.session.stats.logins >= 2, 5_000, 'the second login');

    // (Rotation over REST is covered by test/exchange/security.test.ts; moving the manual clock
    // 30 days with sockets open would replay a month of the simulator's ping timers.)
    await client.rest.getMe();
    // The save of the rotated token is not awaited by the request: wait for it to land. The
    // session's token is read each time: a socket's refused handshake may have logged in again
    // after the first read, and the file then holds that newer token.
    await vi.waitFor(
      async () => expect((await readFile(store.path, 'utf8')).trim()).toBe(await client.rest.session.token()),
      {
        timeout: 5_000,
        interval: 10,
      },
    );
    const stored = await client.rest.session.token();
    await client.close();
    cleanups.pop();

    // Careless call sites: secrets nested in what is logged are redacted at any of the depths used.
    logger.warn(
      {
        request: { options: { headers: { authorization: `Bearer ${stored}` } } },
        err: { cause: { password: PASSWORD } },
      },
      'careless nesting',
    );

    expect(issued.length).toBeGreaterThanOrEqual(3);
    expect(lines.length).toBeGreaterThan(10);
    const everything = [...lines, ...simLog.lines, ...errors.map(serialised)].join('\n');
    for (const token of issued) expectAbsent(everything, token);
    expectAbsent(everything, PASSWORD);
    expect(everything).toContain('[redacted]');
  });

  it('errors from failed logins, blocked accounts, dead hosts and refused requests carry no secret however they are serialised', async () => {
    t = await startTestSim({ time: manualTime(T0) });
    const banned = await t.user('sec-banned', { password: PASSWORD });
    await t.http('POST', `/admin/users/${banned.id}/status`, { body: { status: 'banned' } });
    const good = await t.user('sec-good', { password: PASSWORD });
    const errors: unknown[] = [];
    const make = (baseUrl: string, username: string, password: string) => {
      const c = new ExchangeClient({
        baseUrl,
        credentials: async () => ({ username, password }),
        sockets: FAST,
        rest: { backoff: { baseMs: 1, maxMs: 2, maxAttempts: 2 }, timeoutMs: 2_000 },
      });
      cleanups.push(() => c.close());
      return c;
    };
    await make(t.url, 'sec-good', `${PASSWORD}-wrong`)
      .start()
      .catch((e: unknown) => errors.push(e));
    await make(t.url, 'sec-banned', PASSWORD)
      .start()
      .catch((e: unknown) => errors.push(e));
    await make('http://127.0.0.1:1', 'sec-good', PASSWORD)
      .start()
      .catch((e: unknown) => errors.push(e));
    const ok = make(t.url, 'sec-good', PASSWORD);
    await ok.rest.login();
    await ok.rest.lookupOrder('ffffffffffffffffffffffff').catch((e: unknown) => errors.push(e));
    await ok.rest.getGraded({ startDate: 'not a date' }).catch((e: unknown) => errors.push(e));
    const token = await ok.rest.session.token();
    await t.http('POST', '/admin/faults', { body: { loginChallenge: true } });
    await make(t.url, 'sec-good', PASSWORD)
      .start()
      .catch((e: unknown) => errors.push(e));
    expect(errors.map((e) => (e as { code?: string }).code)).toEqual([
      'LS_ERR_AUTHENTICATION',
      'LS_ERR_ACCOUNT_BLOCKED',
      'LS_ERR_NETWORK',
      'LS_ERR_HTTP_STATUS',
      'LS_ERR_HTTP_STATUS',
      'LS_ERR_CHALLENGE_REQUIRED',
    ]);
    const text = errors.map(serialised).join('\n');
    expectAbsent(text, PASSWORD);
    expectAbsent(text, token);
    expectAbsent(text, banned.token);
    expectAbsent(text, good.token);
  });
});

describe('login answers that do not match the contract', () => {
  const TOKEN = 'f'.repeat(64) + '0123456789abcdef'.repeat(12);
  const valid = {
    data: { user: { id: '0000000b0000000000000001', username: 'u', auth: TOKEN, email: 'u@example.com' } },
  };

  it('a SchemaMismatchError never quotes the token, wherever the answer put it', () => {
    // Mutations of a valid answer, and answers with the token moved into other fields.
    const moved = fc.constantFrom<unknown>(
      { data: TOKEN },
      { data: { user: TOKEN } },
      { data: { user: { id: TOKEN, username: 5, auth: 5 } } },
      { data: { user: { id: 1, username: TOKEN, auth: [TOKEN] } } },
      { data: { user: { id: 1, username: 'u', auth: { token: TOKEN } } } },
      { data: { user: { id: 'x', username: 'u', auth: `${TOKEN}\u0000` } } },
      { user: { auth: TOKEN } },
      [TOKEN],
    );
    fc.assert(
      fc.property(fc.oneof(mutatedValue(valid), moved), (v) => {
        try {
          decodeBody(ENDPOINTS.login, v === undefined ? '' : toText(v));
        } catch (err) {
          expect(err).toBeInstanceOf(SchemaMismatchError);
          expectAbsent(serialised(err), TOKEN);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('the logger redacts secret keys nested in what is logged', () => {
  const SECRET = 'S3cr3t-redact-9a8b7c';
  const key = fc.constantFrom(
    'password',
    'token',
    'auth',
    'authorization',
    'Authorization',
    'credentials',
    'x-auth-token',
    'cookie',
    'set-cookie',
  );
  const filler = fc.constantFrom('req', 'headers', 'options', 'err', 'cause', 'body', 'user', 'session');

  it('at the top and up to three levels down, in objects and arrays', () => {
    fc.assert(
      fc.property(
        key,
        fc.option(filler, { nil: undefined }),
        fc.array(fc.oneof(filler, fc.constant(0)), { maxLength: 2 }),
        fc.boolean(),
        (k, top, path, asChild) => {
          let obj: unknown = { [k]: SECRET };
          for (const p of [...path].reverse()) obj = p === 0 ? [obj] : { [p]: obj };
          if (top !== undefined || Array.isArray(obj)) obj = { [top ?? 'list']: obj };
          const lines: string[] = [];
          const logger = createLogger({ level: 'trace', destination: { write: (s: string) => lines.push(s) } });
          if (asChild) logger.child(obj as Record<string, unknown>).info('child');
          else logger.info(obj as Record<string, unknown>, 'line');
          expect(lines.join('')).not.toContain(SECRET);
        },
      ),
      { numRuns: 300 },
    );
  });
});
