import type { Random } from '../../shared/random.ts';

/** A one-way delay between us and the exchange. */
export type LatencyModel =
  | { readonly kind: 'fixed'; readonly ms: number }
  | { readonly kind: 'uniform'; readonly minMs: number; readonly maxMs: number }
  /** Heavy right tail, as network delays have: median `medianMs`, log-space spread `sigma`. */
  | { readonly kind: 'lognormal'; readonly medianMs: number; readonly sigma: number };

/**
 * The model of every leg (each way of every order request, each user-feed message), with
 * optional models of its own for the way of a place, a cancel or an edit request to the
 * exchange: the exchange may be slower to take a cancel than a place, which decides whether
 * a cancel beats the fill it races. An edit is a request like a place: without a model of
 * its own it takes the place request's.
 */
export type LatencyConfig = LatencyModel & {
  readonly place?: LatencyModel | undefined;
  readonly cancel?: LatencyModel | undefined;
  readonly edit?: LatencyModel | undefined;
};

/** The delay of each leg, ms. */
export interface LatencyLegs {
  /** From the bot's place call until the exchange takes the orders. */
  readonly place: () => number;
  /** From the bot's cancel call until the exchange takes the cancel. */
  readonly cancel: () => number;
  /** From the bot's edit call until the exchange takes the edit. */
  readonly edit: () => number;
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
 * each override draws from a later fork of its own (the edit's after the place's and the
 * cancel's). An edit without a model of its own draws from the place request's sampler.
 */
export function latencyLegs(config: LatencyConfig, random: Random): LatencyLegs {
  const shared = latencySampler(config, random.fork());
  const own = (leg: LatencyModel | undefined) => (leg ? latencySampler(leg, random.fork()) : shared);
  const place = own(config.place);
  const cancel = own(config.cancel);
  return { place, cancel, edit: config.edit ? own(config.edit) : place, fromExchange: shared };
}
