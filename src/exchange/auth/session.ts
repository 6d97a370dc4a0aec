import type { Logger } from 'pino';
import { SENDABLE_TOKEN, type TokenSource } from './token-source.ts';
import type { TokenStore } from './token-store.ts';

export interface LoginResult {
  readonly token: string;
  readonly userId: string;
  readonly username: string;
}

/**
 * The token's one owner. Everything that authenticates (REST calls, sockets, the replay
 * channel) reads it here; a 401 anywhere leads to one shared re-login, a rotation
 * (`X-Auth-Token`) replaces it at once. The token lives in memory, and in the token store
 * only when the user configured one.
 */
export class AuthSession implements TokenSource {
  readonly #login: () => Promise<LoginResult>;
  readonly #store: TokenStore | null;
  readonly #log: Logger;
  #token: string | null = null;
  #loaded = false;
  #inflight: Promise<string> | null = null;
  #user: { id: string; username: string } | null = null;
  readonly stats = { logins: 0, rotations: 0, refreshes: 0 };

  constructor(options: { login: () => Promise<LoginResult>; store?: TokenStore | null; logger: Logger }) {
    this.#login = options.login;
    this.#store = options.store ?? null;
    this.#log = options.logger;
  }

  /** The logged-in account, once known (a token read back from the store leaves it unknown until login). */
  get user(): { id: string; username: string } | null {
    return this.#user;
  }

  get hasToken(): boolean {
    return this.#token !== null;
  }

  async token(): Promise<string> {
    if (this.#token !== null) return this.#token;
    if (!this.#loaded && this.#store) {
      this.#loaded = true;
      const stored = await this.#store.load().catch((err: unknown) => {
        this.#log.warn({ err }, 'token store unreadable; logging in');
        return null;
      });
      if (stored !== null && this.#token === null) {
        this.#token = stored;
        return stored;
      }
    }
    return this.#loginShared();
  }

  async refresh(rejected: string): Promise<string> {
    // Someone already replaced the rejected token (another 401, or a rotation).
    if (this.#token !== null && this.#token !== rejected) return this.#token;
    this.stats.refreshes++;
    this.#token = null;
    return this.#loginShared();
  }

  /** Log in now (explicitly, e.g. at start-up to fail fast on bad credentials). */
  login(): Promise<string> {
    this.#token = null;
    return this.#loginShared();
  }

  /** A response carried `X-Auth-Token`: the old token is dead from this moment. */
  rotated(token: string): void {
    if (token === this.#token || !SENDABLE_TOKEN.test(token)) return;
    this.stats.rotations++;
    this.#token = token;
    this.#log.info('auth token rotated by the exchange');
    this.#persist(token);
  }

  /** Forget the token (after logout). */
  clear(): void {
    this.#token = null;
  }

  #loginShared(): Promise<string> {
    this.#inflight ??= this.#login()
      .then((r) => {
        this.stats.logins++;
        this.#token = r.token;
        this.#user = { id: r.userId, username: r.username };
        this.#persist(r.token);
        return r.token;
      })
      .finally(() => {
        this.#inflight = null;
      });
    return this.#inflight;
  }

  #persist(token: string): void {
    if (!this.#store) return;
    this.#store.save(token).catch((err: unknown) => this.#log.error({ err }, 'could not persist the auth token'));
  }
}
