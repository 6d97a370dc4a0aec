import { z } from 'zod';
import { MARKET_TYPES } from '../../markets/types.ts';
import type { Interest, LivePolicy } from '../../strategy/types.ts';
import { durationField } from '../fields.ts';

/**
 * One strategy instance as the file declares it. `params` is only checked to be a
 * mapping here: its schema belongs to the strategy module, which the loader resolves and
 * applies separately (load.ts), so the schema of this section does not depend on which
 * strategies exist.
 */
export interface StrategyEntry {
  readonly id: string;
  /** Registry name (`fixed-spread`) or a path relative to the config file (`./my-strategy.ts`). */
  readonly module: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly interest: Interest;
  readonly live: LivePolicy;
  readonly throttleMs: number;
  readonly enabled: boolean;
}

/** Ids show up in logs, metrics and order references, so they stay short and plain. */
export const STRATEGY_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

const name = z.string({ error: 'expected a name' }).trim().min(1, 'must not be empty');
/** YAML reads an unquoted numeric id as a number; the exchange's ids are strings. */
const gameID = z
  .union([z.string().trim().min(1), z.int().nonnegative().refine(Number.isSafeInteger)], {
    error: 'expected a game id',
  })
  .transform(String);

const interestSchema = z
  .strictObject({
    leagues: z.array(name).default([]),
    sports: z.array(name).default([]),
    games: z.array(gameID).default([]),
    markets: z.array(z.enum(MARKET_TYPES, { error: `expected one of ${MARKET_TYPES.join(', ')}` })).default([]),
  })
  .prefault({})
  .transform((i): Interest => ({ leagues: i.leagues, sports: i.sports, gameIDs: i.games, marketTypes: i.markets }));

const liveSchema = z
  .union(
    [z.enum(['pull', 'keep']), z.strictObject({ widen: z.number().min(0).max(0.2, 'at most 0.2 probability points') })],
    {
      error: 'expected pull, keep or { widen: <probability points, 0 to 0.2> }',
    },
  )
  .default('pull')
  .transform((l): LivePolicy => (typeof l === 'string' ? { kind: l } : { kind: 'widen', probabilityPoints: l.widen }));

export const strategyEntrySchema = z.strictObject({
  id: z
    .string({ error: 'expected an id' })
    .regex(STRATEGY_ID, 'letters, digits, ".", "-" and "_", starting with a letter or digit, at most 40'),
  module: z.string({ error: 'expected a strategy name or a path' }).trim().min(1, 'must not be empty'),
  // `params:` with nothing after it is YAML null: the author meant "no params".
  params: z
    .record(z.string(), z.unknown(), { error: 'expected a mapping of parameters' })
    .nullable()
    .default({})
    .transform((p) => p ?? {}),
  interest: interestSchema,
  live: liveSchema,
  throttleMs: durationField('ms', { min: 0, max: 60_000, integer: true }).default(250),
  enabled: z.boolean().default(true),
}) satisfies z.ZodType<StrategyEntry, unknown>;

export const strategiesSection = z
  .array(strategyEntrySchema, { error: 'expected a list of strategies' })
  .min(1, 'list at least one strategy');
