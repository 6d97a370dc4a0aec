import { WebSocket } from 'ws';

/**
 * A real `ws` client for the simulator's sockets that records every frame, parsed when it
 * is JSON (`raw` keeps the text), and lets a test wait for a frame matching a predicate.
 */
export class FeedClient {
  readonly frames: { raw: string; json: unknown; ok: boolean }[] = [];
  #consumed = 0;
  #waiters: (() => void)[] = [];
  closed = false;
  readonly closedPromise: Promise<void>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const raw = data.toString('utf8');
      let json: unknown;
      let ok = true;
      try {
        json = JSON.parse(raw);
      } catch {
        ok = false;
      }
      this.frames.push({ raw, json, ok });
      this.#wake();
    });
    this.closedPromise = new Promise((resolve) =>
      ws.once('close', () => {
        this.closed = true;
        this.#wake();
        resolve();
      }),
    );
  }

  static open(
    baseUrl: string,
    path: string,
    authorization: string | null,
    options: { autoPong?: boolean } = {},
  ): Promise<FeedClient> {
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + path, {
      headers: authorization === null ? {} : { authorization },
      ...(options.autoPong === false ? { autoPong: false } : {}),
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new FeedClient(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new HandshakeRejected(res.statusCode ?? 0)));
      ws.once('error', reject);
    });
  }

  /** Parsed frames (malformed ones skipped). */
  get messages(): unknown[] {
    return this.frames.filter((f) => f.ok).map((f) => f.json);
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** A ping/pong round trip: once it returns, the server has handled every frame sent before. */
  roundTrip(timeoutMs = 2000): Promise<void> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no pong')), timeoutMs);
      this.ws.once('pong', () => {
        clearTimeout(t);
        resolve();
      });
      this.ws.ping();
    });
  }

  /**
   * The first parsed frame not yet taken that matches; frames before it are skipped and
   * returned in `skipped` so a test can assert what did not arrive in between.
   */
  async take<T = any>(match: (m: any) => boolean, timeoutMs = 2000): Promise<{ value: T; skipped: unknown[] }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = this.#consumed; i < this.frames.length; i++) {
        const f = this.frames[i]!;
        if (f.ok && match(f.json)) {
          const skipped = this.frames.slice(this.#consumed, i).map((x) => (x.ok ? x.json : x.raw));
          this.#consumed = i + 1;
          return { value: f.json as T, skipped };
        }
      }
      if (this.closed) throw new Error('socket closed while waiting');
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out; frames so far: ${JSON.stringify(this.frames.slice(this.#consumed).map((f) => f.raw.slice(0, 200)))}`,
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

  /** Frames not yet taken. */
  pending(): unknown[] {
    return this.frames.slice(this.#consumed).map((x) => (x.ok ? x.json : x.raw));
  }

  close(): Promise<void> {
    if (!this.closed) this.ws.terminate();
    return this.closedPromise;
  }

  #wake(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const f of w) f();
  }
}

export class HandshakeRejected extends Error {
  constructor(readonly status: number) {
    super(`handshake rejected with HTTP ${status}`);
  }
}

/** Track clients for afterEach cleanup. */
export class Clients {
  readonly #all: FeedClient[] = [];
  constructor(private readonly baseUrl: () => string) {}

  async open(path: string, authorization: string | null, options: { autoPong?: boolean } = {}): Promise<FeedClient> {
    const c = await FeedClient.open(this.baseUrl(), path, authorization, options);
    this.#all.push(c);
    return c;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.#all.splice(0).map((c) => c.close()));
  }
}
