import type { OwnBook } from '../orders/own-book.ts';
import type {
  GameActivity,
  GameState,
  OwnFill,
  OwnOrder,
  Refusal,
  StrategyView,
  TradingMode,
} from '../market-model/types.ts';
import type { Position } from '../money/position.ts';

/**
 * Where a view reads the inputs a strategy may not read at all (its game's activity, the
 * fair values, its refusals): one object for the runtime's life, so a view needs no closure.
 */
export interface ViewInputs {
  activity(gameID: string, now: number): GameActivity;
  fair(gameID: string): ReadonlyMap<string, number> | null;
  refusals(strategyId: string, gameID: string, now: number): readonly Refusal[];
}

/** What a strategy read of its view, as bits of `ViewReads.reads`. */
export const READ = {
  now: 1,
  activity: 2,
  fair: 4,
  refusals: 8,
  mode: 16,
  commissionRate: 32,
  orders: 64,
  /** fills, positions or liability: all three follow from the strategy's fills (and the commission rate). */
  fills: 128,
  accountLiability: 256,
} as const;

/**
 * One strategy's view of one game for one evaluation. The own-book reads (orders, fills,
 * positions, the two exact worst cases) are made on first use and kept: many strategies
 * never read some of them, and the liabilities are the dearest figures here. The reads
 * happen inside the synchronous `quote` call, so they see the same state an eager copy
 * would. A class rather than an object literal with getters, which V8 builds slowly.
 *
 * It notes which fields the strategy read (`reads`, bits of READ): the runtime asks a
 * strategy again only when something it read changed (see strategy-memo.ts).
 */
export class LazyStrategyView implements StrategyView {
  readonly game: GameState;
  /** Bits of READ: the fields read so far. */
  reads = 0;
  readonly #now: number;
  readonly #mode: TradingMode;
  readonly #commissionRate: number;
  readonly #inputs: ViewInputs;
  #activity: GameActivity | null = null;
  /** undefined: not read yet (null is a value: no fair feed for the game). */
  #fair: ReadonlyMap<string, number> | null | undefined = undefined;
  #refusals: readonly Refusal[] | null = null;
  readonly #own: OwnBook;
  readonly #strategyId: string;
  #orders: readonly OwnOrder[] | null = null;
  #fills: readonly OwnFill[] | null = null;
  #positions: readonly Position[] | null = null;
  #liability: number | null = null;
  #accountLiability: number | null = null;

  /**
   * The view of `strategyId` on `game` at `now`; the rest it reads on demand, from `own` and
   * `inputs`. Arguments rather than one object of them: a view is built on every evaluation.
   */
  constructor(
    own: OwnBook,
    strategyId: string,
    now: number,
    game: GameState,
    mode: TradingMode,
    commissionRate: number,
    inputs: ViewInputs,
  ) {
    this.#now = now;
    this.game = game;
    this.#mode = mode;
    this.#commissionRate = commissionRate;
    this.#inputs = inputs;
    this.#own = own;
    this.#strategyId = strategyId;
  }

  get now(): number {
    this.reads |= READ.now;
    return this.#now;
  }

  get mode(): TradingMode {
    this.reads |= READ.mode;
    return this.#mode;
  }

  get commissionRate(): number {
    this.reads |= READ.commissionRate;
    return this.#commissionRate;
  }

  get activity(): GameActivity {
    this.reads |= READ.activity;
    return (this.#activity ??= this.#inputs.activity(this.game.id, this.#now));
  }

  get fair(): ReadonlyMap<string, number> | null {
    this.reads |= READ.fair;
    if (this.#fair === undefined) this.#fair = this.#inputs.fair(this.game.id);
    return this.#fair;
  }

  get refusals(): readonly Refusal[] {
    this.reads |= READ.refusals;
    return (this.#refusals ??= this.#inputs.refusals(this.#strategyId, this.game.id, this.#now));
  }

  get orders(): readonly OwnOrder[] {
    this.reads |= READ.orders;
    return (this.#orders ??= this.#own.liveOrders(this.game.id, this.#strategyId));
  }

  get fills(): readonly OwnFill[] {
    this.reads |= READ.fills;
    return (this.#fills ??= this.#own.fills(this.game.id, this.#strategyId));
  }

  get positions(): readonly Position[] {
    this.reads |= READ.fills;
    return (this.#positions ??= this.#own.positions(this.game.id, this.#strategyId));
  }

  get liability(): number {
    this.reads |= READ.fills;
    return (this.#liability ??= this.#own.positionsLiability(this.game.id, this.#strategyId));
  }

  get accountLiability(): number {
    this.reads |= READ.accountLiability;
    return (this.#accountLiability ??= this.#own.projectedLiability(this.game.id));
  }

  /** The strategy's live orders as it read them (null: not read). */
  get ordersRead(): readonly OwnOrder[] | null {
    return this.#orders;
  }

  /** Its fills as it read them (null: not read as such; positions or liability may have been). */
  get fillsRead(): readonly OwnFill[] | null {
    return this.#fills;
  }

  /** Its game's activity as it read it (null: not read). */
  get activityRead(): GameActivity | null {
    return this.#activity;
  }

  /** The fair values as it read them (null: not read, or none for the game). */
  get fairRead(): ReadonlyMap<string, number> | null {
    return this.#fair ?? null;
  }

  /** Its refusals as it read them (empty: not read, or none). */
  get refusalsRead(): readonly Refusal[] {
    return this.#refusals ?? NO_REFUSALS;
  }

  /** The account's worst case on the game as it read it (null: not read). */
  get accountLiabilityRead(): number | null {
    return this.#accountLiability;
  }
}

const NO_REFUSALS: readonly Refusal[] = Object.freeze([]);
