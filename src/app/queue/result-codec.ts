import { promisify } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { deflateRaw, inflateRawSync } from 'node:zlib';
import type { BacktestResult } from '../../backtest/report/types.ts';

const deflate = promisify(deflateRaw);

/**
 * A variant's result as it travels from a worker to the coordinator: v8 serialisation (what
 * a worker thread's structured clone carries, so the coordinator gets the same values a
 * local sweep gets and writes the same bytes), deflated at the fastest level. A result is
 * about 3 MB of mostly repeated order and fill records; deflate at level 1 makes it about a
 * seventh of that in a few milliseconds, which is less for Redis to hold and for a network
 * between machines to carry.
 */
export async function encodeResult(result: BacktestResult): Promise<Buffer> {
  return deflate(serialize(result), { level: 1 });
}

export function decodeResult(bytes: Uint8Array): BacktestResult {
  return deserialize(inflateRawSync(bytes)) as BacktestResult;
}

/** Where a finished job's result waits for the coordinator: binary, beside the job rather than inside it. */
export function resultKey(jobId: string): string {
  return `linesmith:result:${jobId}`;
}

/** Results are kept as long as their jobs, so a coordinator restarted with the same sweep id still collects them. */
export const RESULT_TTL_SECONDS = 7 * 24 * 3600;
