import type { StrategyView } from '../market-model/types.ts';

/**
 * `view` with some fields replaced: for a strategy that wraps another and hands it a
 * changed view (another fair value, a narrower game). The fields not replaced (or given as
 * undefined) that the runtime works out on demand (the own book's, activity, fair values,
 * refusals) are read from `view` when the inner strategy reads them, so they stay lazy, and
 * what the inner strategy never reads is not noted as read.
 */
export function viewWith(view: StrategyView, changes: Partial<StrategyView>): StrategyView {
  const pick = <K extends keyof StrategyView>(k: K): StrategyView[K] =>
    changes[k] !== undefined ? (changes[k] as StrategyView[K]) : view[k];
  return {
    now: pick('now'),
    game: pick('game'),
    mode: pick('mode'),
    commissionRate: pick('commissionRate'),
    get activity() {
      return pick('activity');
    },
    get fair() {
      return pick('fair');
    },
    get refusals() {
      return pick('refusals');
    },
    get orders() {
      return pick('orders');
    },
    get fills() {
      return pick('fills');
    },
    get positions() {
      return pick('positions');
    },
    get liability() {
      return pick('liability');
    },
    get accountLiability() {
      return pick('accountLiability');
    },
  };
}
