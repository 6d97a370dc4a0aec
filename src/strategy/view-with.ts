import type { StrategyView } from '../market-model/types.ts';

/**
 * `view` with some fields replaced: for a strategy that wraps another and hands it a
 * changed view (another fair value, a narrower game). The fields not replaced (or given as
 * undefined) are read from `view` when the inner strategy reads them, so they stay lazy.
 */
export function viewWith(view: StrategyView, changes: Partial<StrategyView>): StrategyView {
  const pick = <K extends keyof StrategyView>(k: K): StrategyView[K] =>
    changes[k] !== undefined ? (changes[k] as StrategyView[K]) : view[k];
  return {
    now: pick('now'),
    game: pick('game'),
    mode: pick('mode'),
    commissionRate: pick('commissionRate'),
    activity: pick('activity'),
    fair: pick('fair'),
    refusals: pick('refusals'),
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
