import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import pino, { type Logger } from 'pino';
import { timer } from 'rxjs';
import { WebSocketServer, type WebSocket } from 'ws';
import { realTime, type TimeSource } from '../shared/time.ts';
import { parseCookies, unsignCookieValue } from './auth/cookie.ts';
import { createContext, type SimContext, type SimSettings } from './context.ts';
import { Router } from './http/router.ts';
import { BAD_TARGET_MESSAGE, parseTarget } from './http/target.ts';
import { ConnectionCaps } from './http/connection-caps.ts';
import { responseObserver } from './http/response-tap.ts';
import type { SimRequest, SimResponse, SocketHandler } from './http/types.ts';
import type { SimUser } from './accounts.ts';
import { registerAll } from './register.ts';
import { givenLimits } from './limit-settings.ts';
import { parseScenario } from './market/scenario.ts';
import { urlHost } from '../shared/url-host.ts';
import { LinesmithError } from '../shared/errors.ts';

export interface SimulatorOptions {
  readonly port?: number;
  readonly host?: string;
  readonly seed?: number;
  /** Defaults to real time. A manual time source moves only through /admin/clock or the caller. */
  readonly time?: TimeSource;
  readonly admin?: boolean;
  /** Run the synthetic market (default true). */
  readonly traders?: boolean;
  /** Scenario file contents already parsed and validated, or undefined for the built-in default. */
  readonly scenario?: unknown;
  readonly logger?: Logger;
  readonly settings?: Partial<SimSettings>;
}

export interface Simulator {
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly context: SimContext;
  close(): Promise<void>;
}

export const UNAUTHORIZED_BODY = { error: { message: 'InvalidCredentials', code: 401 } } as const;
export const TIMEOUT_BODY = { error: { message: 'Network Error', code: 503 } } as const;
export const TOO_MANY_BODY = { error: 'Too many requests. Please try again later.' } as const;
const MAX_BODY_BYTES = 1 << 20;

export { observeResponses, type ObservedResponse, type ResponseObserver } from './http/response-tap.ts';

export function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

/** A request body the simulator refuses (too large, not JSON), with the HTTP status it answers. */
class BodyError extends LinesmithError {
  override readonly code = 'LS_ERR_SIM_BODY';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client gets its 413 instead of a
      // reset connection; only a body far past it is cut off.
      if (size > MAX_BODY_BYTES * 64) {
        reject(new BodyError(413, 'request body too large'));
        req.destroy();
      } else if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return reject(new BodyError(413, 'request body too large'));
      if (size === 0) return resolve(undefined);
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new BodyError(400, 'invalid JSON body'));
      }
    });
    req.on('error', reject);
  });
}

/**
 * Token from the Authorization header (raw or with an optional Bearer prefix), the signed
 * cookie, or `token` in the body; on the streaming host's routes (`feed`) also from an `Auth`
 * header or a `token` query parameter (feeds §8).
 */
function extractToken(
  req: IncomingMessage,
  body: unknown,
  mode: 'bearer' | 'raw' | 'feed',
  secret: Buffer,
  query?: URLSearchParams,
): string | null {
  const header = req.headers.authorization ?? (mode === 'feed' ? req.headers.auth : undefined);
  if (typeof header === 'string' && header.length > 0) {
    if (mode === 'raw') return /^bearer\s/i.test(header) ? null : header.trim();
    return header.replace(/^bearer\s+/i, '').trim();
  }
  const cookie = parseCookies(req.headers.cookie).get('auth');
  if (cookie) {
    const value = unsignCookieValue(cookie, secret);
    if (value) return value;
  }
  if (body !== null && typeof body === 'object' && typeof (body as { token?: unknown }).token === 'string') {
    return (body as { token: string }).token;
  }
  return (mode === 'feed' && query?.get('token')) || null;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const time = options.time ?? realTime();
  const log = options.logger ?? pino({ level: 'silent' });
  // A scenario's limits apply with or without traders; explicit settings win over them.
  const scenarioLimits = options.scenario === undefined ? {} : givenLimits(parseScenario(options.scenario).limits);
  const ctx = createContext({
    time,
    seed: options.seed ?? 1,
    log,
    settings: { ...scenarioLimits, ...options.settings, admin: options.admin ?? false },
  });
  const router = new Router();
  const sockets = new Map<string, SocketHandler>();
  registerAll({ ctx, router, sockets, traders: options.traders ?? true, scenario: options.scenario });

  const server = createServer((req, res) => {
    handle(ctx, router, req, res).catch((e: unknown) => {
      log.error({ err: e }, 'request failed');
      if (!res.headersSent) send(res, { status: 500, body: { error: 'internal error' } }, req);
    });
  });
  server.keepAliveTimeout = 65_000;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1 << 20 });
  const openSockets = new Set<WebSocket>();
  const caps = new ConnectionCaps(ctx.settings);
  const onUpgrade = (req: IncomingMessage, socket: Socket, head: Buffer): void => {
    const reject = (status: number, body?: unknown, headers?: Record<string, string>) =>
      rejectUpgrade(socket, status, body, headers);
    const ip = req.socket.remoteAddress ?? '';
    // A handshake is a request: it counts against the per-IP limit like any other.
    const admission = ctx.limits.global.admit(ip);
    if (!admission.ok) return reject(429, TOO_MANY_BODY, { 'Retry-After': String(admission.retryAfterSeconds) });
    const target = parseTarget(req.url);
    if (target === null) return reject(400, { error: BAD_TARGET_MESSAGE });
    const path = target.pathname;
    const handler = sockets.get(path);
    if (!handler) return reject(404);
    const token = extractToken(req, undefined, 'bearer', ctx.secret);
    const userId = token ? ctx.tokens.peek(token) : null;
    const user = userId ? ctx.accounts.get(userId) : undefined;
    if (!token || !user || user.status !== 'active') return reject(401);
    const release = caps.take(ip, user.id);
    if (typeof release === 'string') return reject(429, { error: release });
    socket.once('close', release);
    wss.handleUpgrade(req, socket, head, (ws) => {
      openSockets.add(ws);
      ws.on('close', () => openSockets.delete(ws));
      handler(ws, { user, token, ip, path });
    });
  };
  // A throw in an 'upgrade' listener is uncaught and ends the process: whatever one
  // connection sends, it costs that connection only.
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    try {
      onUpgrade(req, socket, head);
    } catch (e) {
      log.error({ err: e }, 'upgrade failed');
      rejectUpgrade(socket, 500, { error: 'internal error' });
    }
  });
  const openConnections = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    openConnections.add(s);
    s.on('close', () => openConnections.delete(s));
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(host)}:${port}`;
  log.info({ url }, 'simulator listening');

  let closed = false;
  return {
    url,
    port,
    host,
    context: ctx,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const hook of [...ctx.hooks.onClose].reverse()) await hook();
      ctx.pump.close();
      for (const ws of openSockets) ws.terminate();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of openConnections) s.destroy();
      });
      wss.close();
    },
  };
}

/** An HTTP answer to an upgrade request the server will not take, written to the raw socket, which then closes. */
function rejectUpgrade(socket: Socket, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const payload = body === undefined ? '' : JSON.stringify(body);
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, 'Connection: close'];
  if (body !== undefined) lines.push('Content-Type: application/json; charset=utf-8');
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  lines.push(`Content-Length: ${Buffer.byteLength(payload)}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n${payload}`);
  socket.destroySoon();
}

function send(res: ServerResponse, r: SimResponse, req: IncomingMessage): void {
  const body = JSON.stringify(r.body);
  res.writeHead(r.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...r.headers,
  });
  res.end(body);
  const observer = responseObserver();
  if (observer !== undefined) {
    // A malformed target has no path a route could match: the observer gets it as sent.
    const path = parseTarget(req.url)?.pathname ?? req.url ?? '';
    // The observer gets what the client parses, not the object before serialisation.
    observer({
      method: req.method ?? 'GET',
      path,
      status: r.status,
      body: body === undefined ? undefined : JSON.parse(body),
    });
  }
}

async function handle(ctx: SimContext, router: Router, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ip = req.socket.remoteAddress ?? '';
  const url = parseTarget(req.url);
  if (url === null) {
    // No route can match, but the request still counts against the per-IP limit.
    const admission = ctx.limits.global.admit(ip);
    if (!admission.ok)
      return send(
        res,
        { status: 429, body: TOO_MANY_BODY, headers: { 'retry-after': String(admission.retryAfterSeconds) } },
        req,
      );
    return send(res, { status: 400, body: { error: BAD_TARGET_MESSAGE } }, req);
  }
  const method = req.method ?? 'GET';
  const isAdmin = url.pathname.startsWith('/admin/');
  const { faults } = ctx;

  if (!isAdmin) {
    const admission = ctx.limits.global.admit(ip);
    if (!admission.ok)
      return send(
        res,
        { status: 429, body: TOO_MANY_BODY, headers: { 'retry-after': String(admission.retryAfterSeconds) } },
        req,
      );
    if (faults.rateLimitBurst > 0) {
      faults.rateLimitBurst--;
      ctx.injected.rateLimited429++;
      return send(res, { status: 429, body: TOO_MANY_BODY, headers: { 'retry-after': '1' } }, req);
    }
    if (faults.restLatencyMs > 0) await new Promise((r) => setTimeout(r, faults.restLatencyMs));
  }

  const match = router.match(method, url.pathname);
  if (match === undefined) return send(res, { status: 404, body: { error: `no route for ${url.pathname}` } }, req);
  if (match === 'method')
    return send(res, { status: 405, body: { error: `method ${method} not allowed on ${url.pathname}` } }, req);
  const { route, params } = match;

  if (route.auth === 'admin' && (!ctx.settings.admin || !isLoopback(ip))) {
    return send(res, { status: 404, body: { error: `no route for ${url.pathname}` } }, req);
  }

  let body: unknown;
  try {
    body = await readBody(req);
  } catch (e) {
    if (e instanceof BodyError) return send(res, { status: e.status, body: { error: e.message } }, req);
    throw e;
  }

  let user: SimUser | null = null;
  let token: string | null = null;
  const headers: Record<string, string> = {};
  if (route.auth === 'bearer' || route.auth === 'raw' || route.auth === 'feed') {
    const given = extractToken(req, body, route.auth, ctx.secret, url.searchParams);
    const check = given ? ctx.tokens.check(given) : { ok: false as const };
    const found = check.ok ? ctx.accounts.get(check.userId) : undefined;
    if (!check.ok || !found) return send(res, { status: 401, body: UNAUTHORIZED_BODY }, req);
    if (found.status !== 'active') return send(res, { status: 403, body: { error: `account ${found.status}` } }, req);
    user = found;
    token = check.token;
    if (check.rotatedTo) headers['x-auth-token'] = check.rotatedTo;
    if (route.limiter) {
      const limiter = ctx.limits.perUser.get(route.limiter);
      const admission = limiter?.admit(user.id);
      if (admission && !admission.ok) {
        return send(
          res,
          {
            status: 429,
            body: TOO_MANY_BODY,
            headers: { ...headers, 'retry-after': String(admission.retryAfterSeconds) },
          },
          req,
        );
      }
    }
  }

  // Fault: a failure before anything happened, or a timeout after the work was done (the
  // nasty case: the client cannot tell whether its order was placed), or the work done and
  // no answer at all (the client's own deadline has to end the call).
  const fault =
    !isAdmin && faults.restErrorRate > 0 && ctx.random.chance(faults.restErrorRate)
      ? ctx.random.chance(0.5)
        ? 'fail'
        : 'timeout'
      : !isAdmin && faults.restHangRate > 0 && ctx.random.chance(faults.restHangRate)
        ? 'hang'
        : null;
  if (fault === 'fail') {
    ctx.injected.rest503++;
    return send(res, { status: 503, body: TIMEOUT_BODY, headers }, req);
  }

  const request: SimRequest = {
    method,
    path: url.pathname,
    params,
    query: url.searchParams,
    body,
    headers: req.headers,
    ip,
    user,
    token,
  };
  const work = Promise.resolve().then(() => route.handler(request));
  if (fault === 'hang') {
    // Never answered: the connection stays open until the client gives up or the server closes.
    await work;
    ctx.pump.kick();
    ctx.injected.restHangs++;
    return;
  }
  let timedOut = false;
  const serverTimeout = (cancelWhenSettled?: Promise<unknown>) =>
    new Promise<SimResponse>((resolve) => {
      const sub = timer(ctx.settings.requestTimeoutMs, ctx.time.scheduler).subscribe(() => {
        timedOut = true;
        resolve({ status: 503, body: TIMEOUT_BODY });
      });
      if (cancelWhenSettled)
        void cancelWhenSettled.then(
          () => sub.unsubscribe(),
          () => sub.unsubscribe(),
        );
    });
  if (fault === 'timeout') ctx.injected.restTimeout503++;
  // Admin calls are simulator control, not exchange calls: no server-side timeout (an
  // /admin/clock advance of 15 s or more would otherwise time out the call that made it).
  const response =
    fault === 'timeout'
      ? (await work, await serverTimeout())
      : isAdmin
        ? await work
        : await Promise.race([work, serverTimeout(work)]);
  ctx.pump.kick();
  if (timedOut && fault === null) ctx.log.warn({ path: url.pathname }, 'request exceeded the server-side timeout');
  send(res, { ...response, headers: { ...headers, ...response.headers } }, req);
}
