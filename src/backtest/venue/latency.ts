import type { Random } from '../../shared/random.ts';

/** A one-way delay between us and the exchange. */
export type LatencyModel =
  | { readonly kind: 'fixed'; readonly ms: number }
  | { readonly kind: 'uniform'; readonly minMs: number; readonly maxMs: number }
  /** Heavy right tail, as network delays have: median `medianMs`, log-space spread `sigma`. */
  | { readonly kind: 'lognormal'; readonly medianMs: number; readonly sigma: number };

/**
 * The model of every leg (each way of every order request, each user-feed message), with
 * optional models of its own for the way of a place or a cancel request to the exchange:
 * the exchange may be slower to take a cancel than a place, which decides whether a cancel
 * beats the fill it races.
 */
export type LatencyConfig = LatencyModel & {
  readonly place?: LatencyModel | undefined;
  readonly cancel?: LatencyModel | undefined;
};

/** The delay of each leg, ms. */
export interface LatencyLegs {
  /** From the bot's place call until the exchange takes the orders. */
  readonly place: () => number;
  /** From the bot's cancel call until the exchange takes the cancel. */
  readonly cancel: () => number;
  /** Whatever the exchange sends the bot: answers, user-feed messages, side updates. */
  readonly fromExchange: () => number;
}

/** A seeded sampler of whole milliseconds: the same seed gives the same delays. */
export function latencySampler(config: LatencyModel, random: Random): () => number {
  switch (config.kind) {
    case 'fixed':
      return () => Math.round(config.ms);
    case 'uniform':
      return () => Math.round(config.minMs + random.float() * (config.maxMs - config.minMs));
    case 'lognormal':
      return () => Math.round(config.medianMs * Math.exp(config.sigma * random.normal()));
  }
}

/**
 * The legs' samplers, from `random`. Legs without a model of their own share one sampler on
 * its first fork, so a config without overrides draws exactly the sequence it always drew;
 * each override draws from a later fork of its own.
 */
export function latencyLegs(config: LatencyConfig, random: Random): LatencyLegs {
  const shared = latencySampler(config, random.fork());
  const own = (leg: LatencyModel | undefined) => (leg ? latencySampler(leg, random.fork()) : shared);
  return { place: own(config.place), cancel: own(config.cancel), fromExchange: shared };
}
