import { z } from 'zod';
import { durationField, money, pathField, type SchemaContext } from '../fields.ts';

/** Limits the runtime enforces whatever the strategies ask for. */
export interface RiskConfig {
  /** Worst-case loss allowed on one game, over all its markets and our resting orders. */
  readonly maxGameLiability: number;
  /** Worst-case loss allowed over all games. */
  readonly maxTotalLiability: number;
  /** Largest stake of one order. */
  readonly maxOrderSize: number;
  /** Most orders resting on one game at once. */
  readonly maxOrdersPerGame: number;
  /** While this file exists every order is cancelled and nothing is quoted. */
  readonly killSwitchFile?: string;
  /** Cancel open orders the run did not place (a previous run's leftovers) before quoting. */
  readonly cancelUnknownOrdersAtStart: boolean;
  /** Dead man's switch: the exchange cancels everything when no heartbeat comes for this long. */
  readonly heartbeatSeconds: number;
  /** A price feed silent for this long is stale: quotes on it are pulled. */
  readonly staleFeedMs: number;
  /** Send post quotes as postArb when that pays. */
  readonly usePostArb: boolean;
}

export function riskSection(ctx: SchemaContext) {
  return z
    .strictObject({
      maxGameLiability: money,
      maxTotalLiability: money,
      maxOrderSize: money,
      maxOrdersPerGame: z.int({ error: 'expected a whole number' }).min(1).max(10_000),
      killSwitchFile: pathField(ctx).optional(),
      cancelUnknownOrdersAtStart: z.boolean().default(false),
      // The exchange takes a whole number of seconds from 6 to 86400.
      heartbeatSeconds: durationField('s', { min: 6, max: 86_400, integer: true }).default(20),
      staleFeedMs: durationField('ms', { min: 100, max: 3_600_000, integer: true }).default(15_000),
      usePostArb: z.boolean().default(true),
    })
    .superRefine((r, c) => {
      // zod runs this even when a cap failed its own check; comparing with an invalid cap only adds noise.
      if (![r.maxGameLiability, r.maxTotalLiability, r.maxOrderSize].every((v) => money.safeParse(v).success)) return;
      // Either cap would make the other unreachable, which is almost always a typo.
      if (r.maxGameLiability > r.maxTotalLiability) {
        c.addIssue({
          code: 'custom',
          path: ['maxGameLiability'],
          message: `${r.maxGameLiability} is above maxTotalLiability ${r.maxTotalLiability}`,
        });
      }
      if (r.maxOrderSize > r.maxGameLiability) {
        c.addIssue({
          code: 'custom',
          path: ['maxOrderSize'],
          message: `${r.maxOrderSize} is above maxGameLiability ${r.maxGameLiability}: no such order could ever be placed`,
        });
      }
    }) satisfies z.ZodType<RiskConfig, unknown>;
}
