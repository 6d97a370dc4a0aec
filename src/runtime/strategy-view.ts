import type { OwnBook } from '../orders/own-book.ts';
import type { GameActivity, GameState, OwnFill, OwnOrder, Refusal, StrategyView, TradingMode } from '../book/types.ts';
import type { Position } from '../money/position.ts';

/** The fields a view holds as given; the rest it reads from `own` on demand. */
type EagerFields = 'now' | 'game' | 'mode' | 'commissionRate' | 'activity' | 'fair' | 'refusals';

/** What a view is built from. */
export interface StrategyViewSource extends Pick<StrategyView, EagerFields> {
  readonly own: OwnBook;
  readonly strategyId: string;
}

/**
 * One strategy's view of one game for one evaluation. The own-book reads (orders, fills,
 * positions, the two exact worst cases) are made on first use and kept: many strategies
 * never read some of them, and the liabilities are the dearest figures here. The reads
 * happen inside the synchronous `quote` call, so they see the same state an eager copy
 * would. A class rather than an object literal with getters, which V8 builds slowly.
 */
export class LazyStrategyView implements StrategyView {
  readonly now: number;
  readonly game: GameState;
  readonly mode: TradingMode;
  readonly commissionRate: number;
  readonly activity: GameActivity;
  readonly fair: ReadonlyMap<string, number> | null;
  readonly refusals: readonly Refusal[];
  readonly #own: OwnBook;
  readonly #strategyId: string;
  #orders: readonly OwnOrder[] | null = null;
  #fills: readonly OwnFill[] | null = null;
  #positions: readonly Position[] | null = null;
  #liability: number | null = null;
  #accountLiability: number | null = null;

  constructor(s: StrategyViewSource) {
    this.now = s.now;
    this.game = s.game;
    this.mode = s.mode;
    this.commissionRate = s.commissionRate;
    this.activity = s.activity;
    this.fair = s.fair;
    this.refusals = s.refusals;
    this.#own = s.own;
    this.#strategyId = s.strategyId;
  }

  get orders(): readonly OwnOrder[] {
    return (this.#orders ??= this.#own.liveOrders(this.game.id, this.#strategyId));
  }

  get fills(): readonly OwnFill[] {
    return (this.#fills ??= this.#own.fills(this.game.id, this.#strategyId));
  }

  get positions(): readonly Position[] {
    return (this.#positions ??= this.#own.positions(this.game.id, this.#strategyId));
  }

  get liability(): number {
    return (this.#liability ??= this.#own.positionsLiability(this.game.id, this.#strategyId));
  }

  get accountLiability(): number {
    return (this.#accountLiability ??= this.#own.projectedLiability(this.game.id));
  }
}
