import { beforeAll } from 'vitest';
import type { BookSide, GameState } from '../../src/book/types.ts';
import { loadTape, type Tape } from '../../src/backtest/tape.ts';
import type { BacktestExecution } from '../../src/backtest/venue/execution.ts';
import type { PlaceOutcome } from '../../src/engine/types.ts';
import type { OrderUpdate } from '../../src/exchange/schemas/price-feed.ts';
import { bookKeyOf, oppositeSelection, sideIndexOf, type Selection } from '../../src/markets/types.ts';
import { takerSelectionOfLabel, wireFromSelection } from '../../src/markets/wire-selection.ts';
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
    if (it.event.type === 'orderUpdate' && !it.event.payload.live && it.event.payload.sideOrders.length >= 2 && x.game(it.event.payload.gameID)) found = it.event.payload;
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
      x.applyPrice({ type: 'orderUpdate', payload: { ...u, epoch: u.epoch + time.clock.now(), sideOrders } }, time.clock.now());
    },
  };
}
