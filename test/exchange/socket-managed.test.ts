import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, InsecureTransportError } from '../../src/exchange/errors.ts';
import { backoffDelay, resolveBackoff } from '../../src/shared/backoff.ts';
import { ManagedSocket, type SocketState } from '../../src/exchange/socket/managed-socket.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { FAST, fixedTokens, Recorder, tinyServer, until } from './support-socket.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function managed(
  url: string,
  tokens = fixedTokens('tok-1'),
  tuning: Partial<ConstructorParameters<typeof ManagedSocket>[0]> = {},
) {
  const socket = new ManagedSocket({ ...FAST, url, name: 'test', tokens, ...tuning });
  cleanups.push(() => socket.close());
  const states = new Recorder<SocketState>(socket.state$);
  return { socket, states };
}

async function server(options: Parameters<typeof tinyServer>[0] = {}) {
  const s = await tinyServer(options);
  cleanups.push(() => s.close());
  return s;
}

const isOpen = (n: number) => (s: SocketState) => s.status === 'open' && s.connection === n;

describe('backoff', () => {
  it('doubles from the base up to the cap; jitter only ever shortens a delay', () => {
    const b = resolveBackoff({ baseMs: 100, maxMs: 1_000, jitter: 0 });
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, b, () => 0.5))).toEqual([100, 200, 400, 800, 1000, 1000]);
    const j = resolveBackoff({ baseMs: 100, maxMs: 1_000, jitter: 0.5 });
    expect(backoffDelay(3, j, () => 0)).toBe(400);
    expect(backoffDelay(3, j, () => 0.999999)).toBe(200);
    expect(backoffDelay(60, j, () => 0)).toBe(1000);
    expect(() => resolveBackoff({ baseMs: 10, maxMs: 5 })).toThrow(RangeError);
    expect(() => resolveBackoff({ jitter: 2 })).toThrow(RangeError);
  });
});

describe('ManagedSocket', () => {
  it('refuses plain ws to a host that is not loopback', () => {
    expect(
      () => new ManagedSocket({ url: 'ws://exchange.example.com/price-stream', name: 'x', tokens: fixedTokens('t') }),
    ).toThrow(InsecureTransportError);
  });

  it('sends the raw token in the handshake Authorization header, delivers text frames and sends', async () => {
    const srv = await server({ onConnection: (ws) => ws.on('message', (d) => ws.send(`echo:${String(d)}`)) });
    const { socket, states } = managed(srv.url, fixedTokens('raw-token-abc'));
    const frames = new Recorder<string>(socket.frames$);
    expect(socket.send('early')).toBe(false);
    socket.start();
    await states.next(isOpen(1));
    expect(srv.authorizations).toEqual(['raw-token-abc']);
    expect(socket.send('hello')).toBe(true);
    expect(await frames.next((f) => f.startsWith('echo:'))).toBe('echo:hello');
    expect(socket.stats).toMatchObject({ framesReceived: 1, framesSent: 1, opens: 1, reconnects: 0 });
  });

  it('on a 401 handshake asks the token source for a fresh token once, then connects with it', async () => {
    const t: TestSim = await startTestSim();
    cleanups.push(() => t.close());
    const u = await t.user('ms-401');
    const bad = 'f'.repeat(256);
    const tokens = fixedTokens(bad, u.token);
    const { socket, states } = managed(t.url.replace('http', 'ws') + '/v2/user', tokens);
    socket.start();
    const open = await states.next(isOpen(1));
    expect(tokens.refused).toEqual([bad]);
    expect(socket.stats.handshakeRejections).toBe(1);
    expect(open.lastError).toBeInstanceOf(AuthenticationError);
    const down = states.items.find((s) => s.status === 'connecting' && s.retryInMs !== null);
    expect(down).toMatchObject({ attempt: 2, retryInMs: 20 });
  });

  it('terminates a connection whose peer stops answering pings, after pongTimeoutMs, and reconnects', async () => {
    const mute = await server({ autoPong: false });
    const { socket, states } = managed(mute.url, fixedTokens('t'), { pingIntervalMs: 25, pongTimeoutMs: 250 });
    socket.start();
    const opened = await states.next(isOpen(1));
    const down = await states.next((s) => s.status === 'reconnecting');
    expect(down.lastError?.message).toMatch(/no pong for \d+ ms/);
    // The pong deadline runs from the last ping sent, up to one ping interval (25 ms) before the open was stamped.
    expect(down.since - opened.since).toBeGreaterThanOrEqual(250 - 25);
    expect(down.since - opened.since).toBeLessThan(1_000);
    await states.next(isOpen(2));
    expect(mute.connections.length).toBeGreaterThanOrEqual(2);
    expect(socket.stats.pongTimeouts).toBeGreaterThanOrEqual(1);
    expect(socket.stats.reconnects).toBeGreaterThanOrEqual(1);
  });

  it('keeps a connection whose peer answers pings (same short intervals)', async () => {
    const healthy = await server({ autoPong: true });
    const { socket, states } = managed(healthy.url, fixedTokens('t'), { pingIntervalMs: 25, pongTimeoutMs: 250 });
    socket.start();
    await states.next(isOpen(1));
    await new Promise((r) => setTimeout(r, 600));
    expect(socket.stats.pongTimeouts).toBe(0);
    expect(healthy.connections).toHaveLength(1);
    expect(socket.state.status).toBe('open');
    await socket.roundTrip();
  });

  it('backs off exponentially while connections fail, and starts over after one stayed up', async () => {
    let n = 0;
    const srv = await server({
      onConnection: (ws) => {
        n++;
        // The fifth connection lives past resetAfterMs; every other one is closed at once.
        if (n === 5) setTimeout(() => ws.close(), 150);
        else ws.close();
      },
    });
    const { socket, states } = managed(srv.url, fixedTokens('t'), {
      backoff: { baseMs: 20, maxMs: 100, jitter: 0, resetAfterMs: 100 },
    });
    socket.start();
    await until(() => states.items.filter((s) => s.retryInMs !== null).length >= 7, 5_000, 'seven retries');
    const delays = states.items.filter((s) => s.retryInMs !== null).map((s) => s.retryInMs);
    expect(delays.slice(0, 7)).toEqual([20, 40, 80, 100, 20, 40, 80]);
  });

  it('abandons a handshake that does not finish within connectTimeoutMs', async () => {
    const held: Socket[] = [];
    const silent = createServer((s) => void held.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => new Promise<void>((r) => (held.forEach((s) => s.destroy()), silent.close(() => r()))));
    const { port } = silent.address() as AddressInfo;
    const { socket, states } = managed(`ws://127.0.0.1:${port}/x`, fixedTokens('t'), { connectTimeoutMs: 80 });
    socket.start();
    const failed = await states.next((s) => s.retryInMs !== null);
    expect(failed.status).toBe('connecting');
    expect(failed.lastError?.message).toMatch(/no handshake within 80 ms/);
  });

  it('close() stops reconnecting and completes its streams', async () => {
    const srv = await server();
    const { socket, states } = managed(srv.url);
    let framesDone = false;
    let stateDone = false;
    socket.frames$.subscribe({ complete: () => (framesDone = true) });
    socket.state$.subscribe({ complete: () => (stateDone = true) });
    socket.start();
    await states.next(isOpen(1));
    await socket.close();
    expect(states.items.at(-1)?.status).toBe('closed');
    expect(framesDone && stateDone).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(srv.connections).toHaveLength(1);
    expect(socket.send('x')).toBe(false);
    await expect(socket.roundTrip()).rejects.toThrow(/not connected/);
  });
});
