import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IdGenerator } from '../engine/ids.ts';

export type AccountStatus = 'active' | 'banned' | 'closed' | 'frozen';

export interface SimUser {
  readonly id: string;
  readonly username: string;
  readonly email: string | null;
  readonly status: AccountStatus;
  /** Username of the affiliate who referred this user, if any. */
  readonly referrer: string | null;
  readonly createdAt: number;
}

interface Stored {
  user: SimUser;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

const hashPassword = (password: string, salt: Buffer): Buffer =>
  createHash('sha256').update(salt).update(password).digest();

/** The simulator's user directory: login by username or e-mail, case-insensitive. */
export class SimAccounts {
  readonly #byId = new Map<string, Stored>();
  readonly #byLogin = new Map<string, Stored>();

  constructor(private readonly ids: IdGenerator) {}

  create(input: {
    username: string;
    password: string;
    email?: string | null;
    referrer?: string | null;
    now: number;
  }): SimUser | 'duplicate' {
    const login = input.username.toLowerCase();
    const email = input.email?.toLowerCase() ?? null;
    if (this.#byLogin.has(login) || (email !== null && this.#byLogin.has(email))) return 'duplicate';
    const salt = randomBytes(16);
    const user: SimUser = {
      id: this.ids.next(),
      username: input.username,
      email: input.email ?? null,
      status: 'active',
      referrer: input.referrer ?? null,
      createdAt: input.now,
    };
    const stored: Stored = { user, salt, hash: hashPassword(input.password, salt) };
    this.#byId.set(user.id, stored);
    this.#byLogin.set(login, stored);
    if (email !== null) this.#byLogin.set(email, stored);
    return user;
  }

  /** The user for a username-or-email and password; null when either is wrong. */
  verify(login: string, password: string): SimUser | null {
    const stored = this.#byLogin.get(login.toLowerCase());
    if (!stored) {
      // Same work whether or not the account exists.
      hashPassword(password, randomBytes(16));
      return null;
    }
    const candidate = hashPassword(password, stored.salt);
    return timingSafeEqual(candidate, stored.hash) ? stored.user : null;
  }

  get(id: string): SimUser | undefined {
    return this.#byId.get(id)?.user;
  }

  byUsername(username: string): SimUser | undefined {
    return this.#byLogin.get(username.toLowerCase())?.user;
  }

  setStatus(id: string, status: AccountStatus): SimUser | undefined {
    const stored = this.#byId.get(id);
    if (!stored) return undefined;
    stored.user = { ...stored.user, status };
    return stored.user;
  }

  all(): SimUser[] {
    return [...this.#byId.values()].map((s) => s.user);
  }
}
