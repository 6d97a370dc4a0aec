import { z } from 'zod';
import { FILL_MODEL_KINDS, type FillModelConfig } from '../../backtest/venue/queue-model.ts';
import type { LatencyConfig } from '../../backtest/venue/latency.ts';

/** How `linesmith backtest` simulates execution against a recording. */
export interface BacktestConfig {
  readonly fillModel: FillModelConfig;
  /** One-way delay of each leg of an order request and of each user-feed message; place, cancel and edit requests may have their own. */
  readonly latency: LatencyConfig;
  /** Starting balance of the simulated account. */
  readonly balance: number;
  /** Taker commission rate of the simulated account. */
  readonly commission: number;
  /** Seed of the latency model (`--seed` overrides). */
  readonly seed: number;
  /** How often P&L, liability and quotes are sampled for the report, exchange ms. */
  readonly sampleMs: number;
}

const ms = z.number().min(0).max(600_000);

const fixed = { kind: z.literal('fixed'), ms };
const uniform = { kind: z.literal('uniform'), minMs: ms, maxMs: ms };
const lognormal = { kind: z.literal('lognormal'), medianMs: ms, sigma: z.number().min(0).max(5) };
const ordered = (l: { minMs: number; maxMs: number }) => l.minMs <= l.maxMs;
const disordered = { message: 'minMs must not exceed maxMs', path: ['maxMs'] };

const leg = z.discriminatedUnion('kind', [
  z.strictObject(fixed),
  z.strictObject(uniform).refine(ordered, disordered),
  z.strictObject(lognormal),
]);
/** The model of every leg, and optionally one of their own for the place, cancel and edit requests. */
const legs = { place: leg.optional(), cancel: leg.optional(), edit: leg.optional() };
const latency = z.discriminatedUnion('kind', [
  z.strictObject({ ...fixed, ...legs }),
  z.strictObject({ ...uniform, ...legs }).refine(ordered, disordered),
  z.strictObject({ ...lognormal, ...legs }),
]);

export function backtestSection() {
  return z
    .strictObject({
      fillModel: z
        .enum(FILL_MODEL_KINDS as [FillModelConfig['kind'], ...FillModelConfig['kind'][]])
        .default('risk-averse'),
      power: z.number().positive().max(10).default(2),
      latency: latency.default({ kind: 'fixed', ms: 50 }),
      balance: z.number().positive().max(1e12).default(10_000),
      commission: z.number().min(0).max(0.25, 'must be at most 0.25 (a rate: 0.01 is 1 %)').default(0.01),
      seed: z.int().default(1),
      sampleMs: z.int().min(100).max(3_600_000).default(10_000),
    })
    .prefault({})
    .transform((b): BacktestConfig => ({
      fillModel: { kind: b.fillModel, power: b.power },
      latency: b.latency,
      balance: b.balance,
      commission: b.commission,
      seed: b.seed,
      sampleMs: b.sampleMs,
    }));
}
