import { z } from 'zod';
import { DEFAULT_FAIR_OPTIONS } from './fair.ts';

/** Parameter fields several strategies share, so their meaning and defaults stay one. */

export const fairDepthParam = () =>
  z
    .number()
    .nonnegative()
    .default(DEFAULT_FAIR_OPTIONS.minDepth)
    .describe(
      'Consensus fair price: taker stake (currency) each side must show, summed best-first over offers not ' +
        'ours, before its price counts; thinner books get no fair price unless the fair feed has one',
    );

export const maxOverroundParam = () =>
  z
    .number()
    .nonnegative()
    .default(DEFAULT_FAIR_OPTIONS.maxOverround)
    .describe(
      'Consensus fair price: books whose overround (sum of implied probabilities of the two depth prices − 1) exceeds this give no fair price',
    );

export const toleranceCentsParam = (d: number) =>
  z
    .number()
    .nonnegative()
    .default(d)
    .describe(
      'Refresh tolerance put on every intent: the order manager keeps a resting order whose odds are within ' +
        'this many cents (American, ±100 joined) of the new quote',
    );

export const sizeToleranceParam = (d: number) =>
  z
    .number()
    .min(0)
    .max(1)
    .default(d)
    .describe(
      'Refresh tolerance on size: keep a resting order whose remaining size is within this fraction of the intent size',
    );

export const minSizeParam = (d: number) =>
  z
    .number()
    .nonnegative()
    .default(d)
    .describe('Intents cut below this size (currency) by the liability limit are dropped');

export const expirationParam = (d: number | null) =>
  z
    .number()
    .int()
    .positive()
    .nullable()
    .default(d)
    .describe(
      'expirationMinutes put on every order, so a quote the runtime stops refreshing dies on its own; null: none',
    );
