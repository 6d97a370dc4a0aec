import type { ConnectionStates } from '../exchange/client.ts';
import { LinesmithError } from '../shared/errors.ts';

/**
 * Start-up gave up waiting for the price and user feeds' first connections. The runtime
 * does not trade on an account whose fills it could not follow from the moment it read it.
 */
export class FeedsNotOpenError extends LinesmithError {
  override readonly code = 'LS_ERR_FEEDS_NOT_OPEN';
  readonly timeoutMs: number;
  constructor(timeoutMs: number, last: ConnectionStates | null) {
    const down = last
      ? (['price', 'user'] as const)
          .filter((f) => last[f].status !== 'open')
          .map((f) => `${f} feed ${last[f].status}${last[f].lastError ? ` (${last[f].lastError.message})` : ''}`)
      : ['no connection state reported'];
    super(`the feeds did not open within ${timeoutMs} ms: ${down.join(', ')}`);
    this.timeoutMs = timeoutMs;
  }
}
