import type { z } from 'zod';
import type { StrategyView } from '../market-model/types.ts';
import type { QuoteIntent, StrategyModule } from './types.ts';

/** A strategy as its author writes it: `quote` takes the params its schema outputs. */
export interface StrategyDefinition<S extends z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly params: S;
  quote(view: StrategyView, params: z.output<S>): readonly QuoteIntent[];
}

/**
 * The module itself, typed from its schema, so an author writes the schema once and
 * `quote` sees its output type (defaults filled in) without naming it.
 */
export function defineStrategy<S extends z.ZodType>(definition: StrategyDefinition<S>): StrategyModule<z.output<S>> {
  return definition as StrategyModule<z.output<S>>;
}
