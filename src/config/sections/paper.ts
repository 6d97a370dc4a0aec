import { z } from 'zod';
import { pathField, type SchemaContext } from '../fields.ts';

/** The in-process simulator a paper run trades against. */
export interface PaperConfig {
  /** Seed of the synthetic market: the same seed and scenario give the same market. */
  readonly seed: number;
  /** Exchange time runs this many times faster than wall time. */
  readonly speed: number;
  /** Scenario YAML (src/sim/market/scenario.ts); the built-in scenario when absent. */
  readonly scenario?: string;
  /** Starting balance of the paper account. */
  readonly balance: number;
  /** Taker commission rate of the paper account (0.01 = 1 %). */
  readonly commission: number;
}

export function paperSection(ctx: SchemaContext) {
  return z.strictObject({
    seed: z.int({ error: 'expected a whole number' }),
    speed: z
      .number()
      .positive('must be positive (1 = real time, 60 = an exchange hour per minute)')
      .max(100_000)
      .default(60),
    scenario: pathField(ctx).optional(),
    balance: z.number().positive().max(1e12).default(10_000),
    commission: z.number().min(0).max(0.25, 'must be at most 0.25 (a rate: 0.01 is 1 %)').default(0.01),
  }) satisfies z.ZodType<PaperConfig, unknown>;
}
