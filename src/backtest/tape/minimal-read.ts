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

/**
 * The floor a JSON recording can be read at: gunzip, split at newlines, JSON.parse each
 * line, nothing else (no record checks, no frame checks, nothing kept). The backtest's
 * ratios are against this. `maxBytes` stops after that much decompressed data (a sample).
 */
export async function minimalRead(files: readonly string[], maxBytes = Infinity): Promise<MinimalRead> {
  const started = performance.now();
  let lines = 0;
  let bytes = 0;
  let sink = 0;
  outer: for (const file of files) {
    const raw = createReadStream(file);
    const stream: Readable = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
    let rest = '';
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        const text = rest + chunk.toString('utf8');
        let start = 0;
        for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
          if (nl > start) {
            sink += parsed(text.slice(start, nl));
            lines++;
          }
          start = nl + 1;
        }
        rest = text.slice(start);
        if (bytes >= maxBytes) break outer;
      }
      if (rest.length > 0) {
        sink += parsed(rest);
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
