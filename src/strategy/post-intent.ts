import type { Selection } from '../markets/types.ts';
import type { QuoteIntent } from './types.ts';

/** What a quoting strategy's params say of every resting quote it posts. */
export interface PostTerms {
  readonly toleranceCents: number;
  readonly sizeTolerance: number;
  readonly expirationMinutes: number | null;
}

/**
 * A resting quote. Two literals rather than a spread: the same fields in the same order
 * (intents are compared and logged as JSON), without copying an object per intent.
 */
export function postIntent(
  key: string,
  selection: Selection,
  odds: number,
  size: number,
  terms: PostTerms,
): QuoteIntent {
  return terms.expirationMinutes !== null
    ? {
        key,
        selection,
        odds,
        size,
        orderType: 'post',
        toleranceCents: terms.toleranceCents,
        sizeTolerance: terms.sizeTolerance,
        expirationMinutes: terms.expirationMinutes,
      }
    : {
        key,
        selection,
        odds,
        size,
        orderType: 'post',
        toleranceCents: terms.toleranceCents,
        sizeTolerance: terms.sizeTolerance,
      };
}
