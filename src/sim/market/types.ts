import type { Selection } from '../../markets/types.ts';

export type GamePhase = 'pre' | 'live' | 'ended';

/** One backed selection of a game at its current main line, with its fair probability. */
export interface Target {
  /** Book key plus side: unique per backed selection of a game. */
  readonly key: string;
  readonly selection: Selection;
  /** Fair probability that backing `selection` wins. */
  readonly p: number;
}

/** What the synthetic traders see of a game. */
export interface TradableGame {
  readonly id: string;
  readonly phase: GamePhase;
  /** Every selection the market quotes now, with fair probabilities (cached per model move). */
  targets(): readonly Target[];
}

/** Running counts of what the synthetic market did. */
export interface Counters {
  gamesCreated: number;
  gamesEnded: number;
  quotesPosted: number;
  quotesCancelled: number;
  quotesRejected: number;
  noiseOrders: number;
  informedOrders: number;
  delayedOrders: number;
  takerRejected: number;
  fills: number;
  volume: number;
}

export function newCounters(): Counters {
  return {
    gamesCreated: 0,
    gamesEnded: 0,
    quotesPosted: 0,
    quotesCancelled: 0,
    quotesRejected: 0,
    noiseOrders: 0,
    informedOrders: 0,
    delayedOrders: 0,
    takerRejected: 0,
    fills: 0,
    volume: 0,
  };
}
