import { open } from 'node:fs/promises';
import { textBatches } from './text-batches.ts';

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
    for (const batch of textBatches(chunks, WRITE_AT)) await file.write(batch);
  } finally {
    await file.close();
  }
}
