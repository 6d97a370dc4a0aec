import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import type { CredentialsProvider } from '../../src/exchange/auth/credentials.ts';
import type { MarketOptions } from './market.ts';

export type ChildRequest = { readonly kind: 'memory' } | { readonly kind: 'close' };
export type ChildReply =
  | { readonly kind: 'ready'; readonly url: string; readonly username: string; readonly password: string }
  | { readonly kind: 'memory'; readonly rss: number; readonly heapUsed: number };

export interface SimProcess {
  readonly url: string;
  readonly credentials: CredentialsProvider;
  readonly pid: number;
  /** Move the simulator's manual clock to `t` (ms since the epoch); resolves once it has run everything due on the way. */
  advanceTo(t: number): Promise<void>;
  /** The simulator process's memory, after a full GC. */
  memory(): Promise<{ rss: number; heapUsed: number }>;
  close(): Promise<void>;
}

/**
 * The simulator in a process of its own (sim-child.ts), so that the benchmark process's
 * resident memory is linesmith's alone, as it would be against the real exchange.
 */
export async function startSimProcess(o: MarketOptions & { readonly startMs: number }): Promise<SimProcess> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./sim-child.ts', import.meta.url)), [JSON.stringify(o)], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <K extends ChildReply['kind']>(kind: K) =>
    new Promise<Extract<ChildReply, { kind: K }>>((resolve, reject) => {
      const onMessage = (m: ChildReply) => {
        if (m.kind !== kind) return;
        off();
        resolve(m as Extract<ChildReply, { kind: K }>);
      };
      const onExit = (code: number | null) => {
        off();
        reject(new Error(`simulator process exited (${code ?? 'signal'})`));
      };
      const off = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
    });
  const ready = await next('ready');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: ready.url,
    pid: child.pid ?? -1,
    credentials: async () => ({ username: ready.username, password: ready.password }),
    async advanceTo(t) {
      const res = await request(`${ready.url}/admin/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: new Date(t).toISOString() }),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`admin clock: HTTP ${res.statusCode} ${text}`);
    },
    async memory() {
      const reply = next('memory');
      child.send({ kind: 'memory' } satisfies ChildRequest);
      const m = await reply;
      return { rss: m.rss, heapUsed: m.heapUsed };
    },
    async close() {
      if (child.exitCode === null && child.connected) child.send({ kind: 'close' } satisfies ChildRequest);
      await exited;
    },
  };
}
