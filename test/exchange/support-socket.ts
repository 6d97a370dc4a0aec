import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import type { Observable, Subscription } from 'rxjs';
import { WebSocketServer, type WebSocket } from 'ws';
import type { TokenSource } from '../../src/exchange/auth/token-source.ts';
import type { SocketTuning } from '../../src/exchange/socket/managed-socket.ts';
import type { ManualTimeSource } from '../../src/shared/time.ts';
import type { TestSim } from '../support/sim.ts';

/** Short intervals so reconnects and liveness play out in milliseconds; no jitter, so delays are exact. */
export const FAST: SocketTuning = {
  backoff: { baseMs: 20, maxMs: 200, jitter: 0, resetAfterMs: 5_000 },
  pingIntervalMs: 10_000,
  pongTimeoutMs: 30_000,
  connectTimeoutMs: 2_000,
};

/** A TokenSource over a fixed token; `refresh` hands out `refreshed` (or the same token) and records what was refused. */
export function fixedTokens(
  token: string,
  refreshed = token,
): TokenSource & { readonly refused: string[]; readonly calls: { token: number } } {
  const refused: string[] = [];
  const calls = { token: 0 };
  let current = token;
  return {
    refused,
    calls,
    token: async () => {
      calls.token++;
      return current;
    },
    refresh: async (rejected) => {
      refused.push(rejected);
      current = refreshed;
      return current;
    },
  };
}

/** Everything an observable emits, and a way to wait until something matching has arrived. */
export class Recorder<T> {
  readonly items: T[] = [];
  readonly #sub: Subscription;
  #waiters: (() => void)[] = [];

  constructor(source: Observable<T>) {
    this.#sub = source.subscribe((v) => {
      this.items.push(v);
      const w = this.#waiters;
      this.#waiters = [];
      for (const f of w) f();
    });
  }

  /** The first item at or after `from` matching `match`. */
  async next<S extends T>(match: (v: T) => v is S, timeoutMs?: number, from?: number): Promise<S>;
  async next(match: (v: T) => boolean, timeoutMs?: number, from?: number): Promise<T>;
  async next(match: (v: T) => boolean, timeoutMs = 3_000, from = 0): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = from; i < this.items.length; i++) if (match(this.items[i]!)) return this.items[i]!;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out after ${timeoutMs} ms; recorded ${this.items.length}: ${JSON.stringify(this.items.slice(-5)).slice(0, 800)}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  stop(): void {
    this.#sub.unsubscribe();
  }
}

/** Poll until `cond` holds (for state that is not an observable, e.g. engine state). */
export async function until(
  cond: () => boolean,
  timeoutMs = 3_000,
  what = 'condition',
  diagnose?: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${diagnose ? `: ${diagnose()}` : ''}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A logger whose JSON lines are kept. */
export function capturedLogs(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const raw: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (s: string) => void raw.push(s) });
  return { logger, lines: () => raw.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/**
 * A bare ws server on loopback for behaviour the simulator does not show on demand: a peer
 * that stops answering pings, one that never answers requests. Records every connection
 * and its handshake Authorization header.
 */
export async function tinyServer(
  options: { autoPong?: boolean; onConnection?: (ws: WebSocket) => void } = {},
): Promise<{
  url: string;
  connections: WebSocket[];
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}> {
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    autoPong: options.autoPong ?? true,
    perMessageDeflate: false,
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const connections: WebSocket[] = [];
  const authorizations: (string | undefined)[] = [];
  wss.on('connection', (ws, req) => {
    connections.push(ws);
    authorizations.push(req.headers.authorization);
    options.onConnection?.(ws);
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    connections,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** Drop every socket of the simulator now: its dropSocketsEveryMs fault, fired once on a manual clock. */
export function dropSimSockets(t: TestSim, time: ManualTimeSource): void {
  const ctx = t.sim.context;
  const apply = (ms: number) => {
    ctx.faults.dropSocketsEveryMs = ms;
    for (const h of ctx.hooks.onFaultsChanged) h(ctx.faults);
  };
  apply(1_000);
  time.advance(1_000);
  apply(0);
}
