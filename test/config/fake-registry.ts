import { z } from 'zod';
import type { StrategyModule } from '../../src/strategy/types.ts';

/**
 * Stand-ins for the real strategies (written elsewhere): the loader is tested against
 * these schemas, never against strategies/, so it does not break when they change.
 */
function fake<P>(name: string, params: z.ZodType<P>): StrategyModule<P> {
  return { name, description: `fake ${name}`, params, quote: () => [] };
}

export const fixedSpread = fake(
  'fixed-spread',
  z.strictObject({
    halfSpread: z.number().min(0).max(0.5).default(0.02),
    size: z.number().positive().default(50),
    quote: z.strictObject({ toleranceCents: z.number().min(0).default(0) }).prefault({}),
  }),
);

export const FAKE_REGISTRY: Readonly<Record<string, StrategyModule>> = {
  'fixed-spread': fixedSpread,
  'inventory-skew': fake('inventory-skew', z.strictObject({ skewPerUnit: z.number().min(0).default(0.0001) })),
  'post-arb': fake('post-arb', z.strictObject({ minEdge: z.number().min(0).default(0.005) })),
};
