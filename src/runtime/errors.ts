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

/**
 * The runtime keys what it keeps per strategy and game by the strategy's id
 * (`strategy-game-key.ts`): two strategies with one id, or an id holding the key's "|",
 * would share what each must keep apart. The config refuses both; this guards a runtime
 * built by hand.
 */
export class StrategyIdError extends LinesmithError {
  override readonly code = 'LS_ERR_STRATEGY_ID';
  readonly strategyId: string;
  constructor(strategyId: string, problem: 'used twice' | 'holds "|"') {
    super(`strategy id "${strategyId}" ${problem}: each strategy needs an id of its own, without "|"`);
    this.strategyId = strategyId;
  }
}
