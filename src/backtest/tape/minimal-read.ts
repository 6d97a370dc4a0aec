import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** What a minimal read of recording files did: lines parsed, bytes decompressed, time taken. */
export interface MinimalRead {
  readonly lines: number;
  /** Lines that parsed as JSON; returned so the parse cannot be optimised away. */
  readonly parsedLines: number;
  readonly bytes: number;
  readonly ms: number;
}

/** Blocks read and decompressed at a time: as the recording reader reads (smaller blocks cost more per byte). */
const BLOCK_BYTES = 256 * 1024;

/**
 * The floor a JSON recording can be read at: gunzip, split at newlines, JSON.parse each
 * line, nothing else (no record checks, no frame checks, nothing kept). The backtest's
 * ratios are against this. `maxBytes` stops after that much decompressed data (a sample).
 *
 * A floor has to be one: it splits the decompressed bytes as the recording reader does
 * (a line decoded straight from its block, no text joined and cut again), in the same
 * block sizes, so no reading of the recording can beat it by reading more cleverly.
 */
export async function minimalRead(files: readonly string[], maxBytes = Infinity): Promise<MinimalRead> {
  const started = performance.now();
  let lines = 0;
  let bytes = 0;
  let sink = 0;
  outer: for (const file of files) {
    const raw = createReadStream(file, { highWaterMark: BLOCK_BYTES });
    const stream: Readable = file.endsWith('.gz') ? raw.pipe(createGunzip({ chunkSize: BLOCK_BYTES })) : raw;
    let rest: Buffer = Buffer.alloc(0);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        const buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
        let start = 0;
        for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
          if (nl > start) {
            sink += parsed(buf.toString('utf8', start, nl));
            lines++;
          }
          start = nl + 1;
        }
        // Copied: a view would keep the whole block alive.
        rest = Buffer.from(buf.subarray(start));
        if (bytes >= maxBytes) break outer;
      }
      if (rest.length > 0) {
        sink += parsed(rest.toString('utf8'));
        lines++;
      }
    } finally {
      raw.destroy();
    }
  }
  return { lines, parsedLines: sink, bytes, ms: performance.now() - started };
}

/** 1 for a line that parses, 0 for one that does not (a damaged recording still has a floor to compare with). */
function parsed(line: string): number {
  try {
    return JSON.parse(line) === undefined ? 0 : 1;
  } catch {
    return 0;
  }
}
