import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CredentialsError } from '../errors.ts';
import { SENDABLE_TOKEN } from './token-source.ts';

/**
 * Where a session keeps its token beyond memory, if the user asked for that: the token
 * survives a restart (no new login) and a rotation is never lost.
 */
export interface TokenStore {
  load(): Promise<string | null>;
  save(token: string): Promise<void>;
}

/** A file readable by its owner only, replaced atomically. */
export class FileTokenStore implements TokenStore {
  constructor(readonly path: string) {}

  async load(): Promise<string | null> {
    try {
      const t = (await readFile(this.path, 'utf8')).trim();
      if (t.length === 0) return null;
      // A damaged file: refused (the session then logs in), its content never quoted.
      if (!SENDABLE_TOKEN.test(t)) throw new CredentialsError(`token file ${this.path} does not hold a token`);
      return t;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Saves run one after another, so the file always ends with the newest token. */
  #saving: Promise<void> = Promise.resolve();

  save(token: string): Promise<void> {
    const run = this.#saving.then(() => this.#write(token));
    this.#saving = run.catch(() => undefined);
    return run;
  }

  async #write(token: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    // A fresh name, created exclusively with 0600: a stale temp file from a crash (with
    // whatever mode it has) is never written into.
    const tmp = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, `${token}\n`, { mode: 0o600, flag: 'wx' });
      await chmod(tmp, 0o600);
      await rename(tmp, this.path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
}
