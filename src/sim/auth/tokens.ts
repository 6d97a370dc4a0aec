import { randomBytes } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';

export const TOKEN_LIFETIME_MS = 30 * 86_400_000;

interface TokenRecord {
  readonly userId: string;
  readonly expiresAt: number;
}

export type TokenCheck =
  | { readonly ok: true; readonly userId: string; readonly token: string; readonly rotatedTo: string | null }
  | { readonly ok: false };

/**
 * Login tokens: 256 hex characters, valid 30 days. The first authenticated request after
 * expiry still succeeds but rotates: the old value dies at once and the new one is returned
 * (the server sends it as `X-Auth-Token`). Logout kills only the token used.
 */
export class TokenStore {
  readonly #tokens = new Map<string, TokenRecord>();
  /** Accounts that were ever issued a token (logged in at least once). */
  readonly #everIssued = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly lifetimeMs = TOKEN_LIFETIME_MS,
  ) {}

  issue(userId: string): string {
    const token = randomBytes(128).toString('hex');
    this.#everIssued.add(userId);
    this.#tokens.set(token, { userId, expiresAt: this.clock.now() + this.lifetimeMs });
    return token;
  }

  check(token: string): TokenCheck {
    const record = this.#tokens.get(token);
    if (!record) return { ok: false };
    if (record.expiresAt > this.clock.now()) return { ok: true, userId: record.userId, token, rotatedTo: null };
    this.#tokens.delete(token);
    const next = this.issue(record.userId);
    return { ok: true, userId: record.userId, token: next, rotatedTo: next };
  }

  /** Validity without rotating (socket handshakes and the cookie check use `check`). */
  peek(token: string): string | null {
    const record = this.#tokens.get(token);
    return record && record.expiresAt > this.clock.now() ? record.userId : null;
  }

  /** Whether the account ever logged in: only then can a client hold one of its user-feed message ids. */
  everIssued(userId: string): boolean {
    return this.#everIssued.has(userId);
  }

  revoke(token: string): boolean {
    return this.#tokens.delete(token);
  }

  /**
   * Expire every live token (of one user, or of everyone) now, as if its 30 days were up: the
   * next authenticated request with one rotates it. Returns how many expired.
   */
  expire(userId?: string): number {
    const now = this.clock.now();
    let n = 0;
    for (const [t, r] of this.#tokens) {
      if ((userId !== undefined && r.userId !== userId) || r.expiresAt <= now) continue;
      this.#tokens.set(t, { userId: r.userId, expiresAt: now });
      n++;
    }
    return n;
  }

  revokeUser(userId: string): void {
    for (const [t, r] of this.#tokens) if (r.userId === userId) this.#tokens.delete(t);
  }
}
