import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

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
      return t.length > 0 ? t : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async save(token: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, `${token}\n`, { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, this.path);
  }
}
