import { readFile } from 'node:fs/promises';
import { SerialWriter } from '../../shared/atomic-file.ts';
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
  readonly #writer: SerialWriter;

  constructor(readonly path: string) {
    this.#writer = new SerialWriter(path, 0o600);
  }

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
  save(token: string): Promise<void> {
    return this.#writer.write(`${token}\n`);
  }
}
