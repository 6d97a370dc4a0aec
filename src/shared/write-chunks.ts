import { open } from 'node:fs/promises';

/**
 * Text gathered before a write: few system calls, and a string small enough for V8's young
 * generation (a larger one goes straight to the old generation's large-object space, which
 * grows the heap a collection later).
 */
const WRITE_AT = 1 << 16;

/**
 * Writes text given in pieces to `path` (replacing it), some 64 kB per write, so the whole
 * text is never one string in memory.
 */
export async function writeChunks(path: string, chunks: Iterable<string>): Promise<void> {
  const file = await open(path, 'w');
  try {
    let parts: string[] = [];
    let size = 0;
    for (const c of chunks) {
      parts.push(c);
      size += c.length;
      if (size >= WRITE_AT) {
        await file.write(parts.join(''));
        parts = [];
        size = 0;
      }
    }
    if (parts.length > 0) await file.write(parts.join(''));
  } finally {
    await file.close();
  }
}
