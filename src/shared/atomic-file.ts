import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Replace `path` with `text` so a reader (or a crash) only ever sees the old file or the new
 * one whole: written to a fresh temp name beside it, then renamed over it.
 */
export async function writeFileAtomic(path: string, text: string | Uint8Array, mode: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // A fresh name, created exclusively with `mode`: a stale temp file from a crash (with
  // whatever mode it has) is never written into.
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, text, { mode, flag: 'wx' });
    await chmod(tmp, mode);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Writes run one after another, so the file always ends with the newest text. */
export class SerialWriter {
  #last: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    readonly mode: number,
  ) {}

  write(text: string): Promise<void> {
    const run = this.#last.then(() => writeFileAtomic(this.path, text, this.mode));
    this.#last = run.catch(() => undefined);
    return run;
  }
}
