import type { Random } from '../../shared/random.ts';

/** One-way delay between us and the exchange, each way of every order request and user-feed message. */
export type LatencyConfig =
  | { readonly kind: 'fixed'; readonly ms: number }
  | { readonly kind: 'uniform'; readonly minMs: number; readonly maxMs: number }
  /** Heavy right tail, as network delays have: median `medianMs`, log-space spread `sigma`. */
  | { readonly kind: 'lognormal'; readonly medianMs: number; readonly sigma: number };

/** A seeded sampler of whole milliseconds: the same seed gives the same delays. */
export function latencySampler(config: LatencyConfig, random: Random): () => number {
  switch (config.kind) {
    case 'fixed':
      return () => Math.round(config.ms);
    case 'uniform':
      return () => Math.round(config.minMs + random.float() * (config.maxMs - config.minMs));
    case 'lognormal':
      return () => Math.round(config.medianMs * Math.exp(config.sigma * random.normal()));
  }
}
