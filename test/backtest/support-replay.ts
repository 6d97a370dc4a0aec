import { beforeAll } from 'vitest';
import type { BookSide, GameState } from '../../src/market-model/types.ts';
import { loadTape, type Tape } from '../../src/backtest/tape.ts';
import type { BacktestExecution } from '../../src/backtest/venue/execution.ts';
import type { LatencyLegs } from '../../src/backtest/venue/latency.ts';
import { SimulatedVenue } from '../../src/backtest/venue/simulated-venue.ts';
import type { PlaceOutcome } from '../../src/engine/types.ts';
import type { OrderUpdate, PriceFeedEvent } from '../../src/exchange/schemas/price-feed.ts';
import { bookKeyOf, oppositeSelection, sideIndexOf, type Selection } from '../../src/markets/types.ts';
import { takerSelectionOfLabel, wireFromSelection } from '../../src/markets/wire-selection.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import type { ManualTimeSource } from '../../src/shared/time.ts';

/** The first file of the paper-seed7 recording: opening snapshots, then the price feed. */
export const FIRST_FILE = 'backtest/data/paper-seed7/feed-20260115T120000000Z-000001.jsonl.gz';

/** Loads FIRST_FILE once for the calling test file (in its beforeAll); the getter is for tests and set-ups. */
export function firstFileTape(): () => Tape {
  let tape: Tape | undefined;
  beforeAll(async () => {
    tape = await loadTape([FIRST_FILE]);
  });
  return () => {
    if (!tape) throw new Error('the tape is loaded in beforeAll: ask for it inside a test');
    return tape;
  };
}

/** An execution at a recorded side update, and the moves tests make from there. */
export interface AtSideUpdate {
  /** The side update replayed last: a pre-game game's side with at least two recorded orders. */
  readonly u: OrderUpdate;
  readonly game: GameState;
  /** The selection a taker backs against the update's side, and its book. */
  readonly taker: Selection;
  readonly bookKey: string;
  /** The recorded side of `u` as the execution holds it now. */
  side(): BookSide;
  /** Wire fields of an order taking from that side, and of one listed on it (backing the other selection). */
  readonly takerWire: ReturnType<typeof wireFromSelection>;
  readonly makerWire: ReturnType<typeof wireFromSelection>;
  /** One order on the game, with a fresh userReference; its outcome, which the execution gives at once. */
  place(input: Record<string, unknown>): PlaceOutcome;
  /** `dt` later, the recording lists these orders on the side of `u`. */
  update(sideOrders: OrderUpdate['sideOrders'], dt?: number): void;
}

/**
 * Replays `tape` into `x` up to its first side update of a game not yet live with at least
 * two orders on it: the opening snapshots, then the price events, each at its time.
 */
export function replayToSideUpdate(tape: Tape, time: ManualTimeSource, x: BacktestExecution): AtSideUpdate {
  const items = tape.items;
  let i = 0;
  for (; items[i]!.kind !== 'price'; i++) {
    const it = items[i]!;
    if (it.kind === 'snapshot') x.applySnapshot(it.game, it.t);
  }
  let found: OrderUpdate | undefined;
  for (; i < items.length && !found; i++) {
    const it = items[i]!;
    if (it.kind !== 'price') continue;
    time.advanceTo(it.t);
    x.applyPrice(it.event, it.t);
    const u = preGameSideUpdate(it.event);
    if (u && x.game(u.gameID)) found = u;
  }
  if (!found) throw new Error('no pre-game side update in the sample');
  const u = found;
  const game = x.game(u.gameID)!;
  const taker = takerSelectionOfLabel(game.participants, u.type, u)!;
  const bookKey = bookKeyOf(taker);
  let refs = 0;
  return {
    u,
    game,
    taker,
    bookKey,
    side: () => x.recorded.book(u.gameID, bookKey)!.sides[sideIndexOf(taker)],
    takerWire: wireFromSelection(game.participants, taker),
    makerWire: wireFromSelection(game.participants, oppositeSelection(taker)),
    place: (input) => {
      let out: PlaceOutcome | undefined;
      x.place([{ gameID: u.gameID, userReference: `ls1:test:${++refs}`, ...input }], (o) => (out = o[0]));
      if (!out) throw new Error('the place did not complete at once');
      return out;
    },
    update: (sideOrders, dt = 1_000) => {
      time.advance(dt);
      x.applyPrice(
        { type: 'orderUpdate', payload: { ...u, epoch: u.epoch! + time.clock.now(), sideOrders } },
        time.clock.now(),
      );
    },
  };
}

/** The update `e` is if it is a side update of a game not yet live with at least two orders on it. */
export function preGameSideUpdate(e: PriceFeedEvent): OrderUpdate | undefined {
  return e.type === 'orderUpdate' && !e.payload.live && e.payload.sideOrders.length >= 2 ? e.payload : undefined;
}

/**
 * A simulated venue on `time` as the tests run it: the conservative fill model (power 2), 1% commission, a silent logger.
 * `latencyMs` is every leg's delay, or each leg's.
 */
export function simulatedVenue(
  time: ManualTimeSource,
  o: { latencyMs: number | { readonly [leg in keyof LatencyLegs]: number }; balance: number },
): SimulatedVenue {
  const ms = o.latencyMs;
  const latency: LatencyLegs =
    typeof ms === 'number'
      ? { place: () => ms, cancel: () => ms, edit: () => ms, fromExchange: () => ms }
      : { place: () => ms.place, cancel: () => ms.cancel, edit: () => ms.edit, fromExchange: () => ms.fromExchange };
  return new SimulatedVenue({
    time,
    fillModel: { kind: 'conservative', power: 2 },
    latency,
    balance: o.balance,
    commission: 0.01,
    logger: silentLogger(),
  });
}

/**
 * Replays `tape` into `venue`: each snapshot at its time, each price event once the clock is
 * there (it is never put back). With `until`, stops after the first price event it gives a
 * value for, and returns that value.
 */
export function replayIntoVenue<T>(
  tape: Tape,
  time: ManualTimeSource,
  venue: SimulatedVenue,
  until?: (e: PriceFeedEvent) => T | undefined,
): T | undefined {
  for (const it of tape.items) {
    if (it.kind === 'snapshot') venue.snapshot(it.game, it.t);
    else if (it.kind === 'price') {
      time.advanceTo(Math.max(it.t, time.clock.now()));
      venue.price(it.event, it.t);
      const found = until?.(it.event);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
