import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/server.ts';
import { createGame, createUser, type CreateGameInput } from '../../src/sim/ops/admin-ops.ts';
import type { EngineGame } from '../../src/engine/types.ts';

/**
 * A started simulator on loopback for integration tests (no synthetic traders unless
 * asked), plus helpers that talk to it over real HTTP.
 */
export interface TestSim {
  readonly sim: Simulator;
  readonly url: string;
  /** Create a user in-process and log it in over HTTP; returns its token and id. */
  user(
    username: string,
    opts?: { balance?: number; commission?: number; creditLimit?: number; password?: string; email?: string },
  ): Promise<{ id: string; token: string; username: string; password: string }>;
  game(input?: Partial<CreateGameInput>): EngineGame;
  /** JSON request; returns status, parsed body and headers. */
  http(
    method: string,
    path: string,
    opts?: { token?: string | null; raw?: boolean; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startTestSim(options: SimulatorOptions = {}): Promise<TestSim> {
  const sim = await startSimulator({ traders: false, admin: true, seed: 11, ...options });
  let gameCount = 0;
  const http: TestSim['http'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = opts.raw ? opts.token : `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(sim.url + path, {
      method,
      headers,
      ...(opts.body !== undefined
        ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) }
        : {}),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text.length ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body, headers: res.headers };
  };
  return {
    sim,
    url: sim.url,
    http,
    async user(username, opts = {}) {
      const password = opts.password ?? `pw-${username}`;
      const made = createUser(sim.context, {
        username,
        password,
        ...(opts.email ? { email: opts.email } : {}),
        balance: opts.balance ?? 100_000,
        commission: opts.commission ?? 0.01,
        creditLimit: opts.creditLimit ?? 0,
      });
      if (!made.ok) throw new Error(made.error);
      const res = await http('POST', '/user/login', { body: { username, password } });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: made.value.id, token: res.body.data.user.auth as string, username, password };
    },
    game(input = {}) {
      gameCount++;
      const made = createGame(sim.context, {
        league: 'NBA',
        sport: 'basketball',
        participants: [
          { longName: `Away ${gameCount}`, shortName: `AW${gameCount}` },
          { longName: `Home ${gameCount}`, shortName: `HO${gameCount}` },
        ],
        ...input,
      });
      if (!made.ok) throw new Error(made.error);
      return made.value;
    },
    close: () => sim.close(),
  };
}
