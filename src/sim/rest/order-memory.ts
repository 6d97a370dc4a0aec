import type { SimContext } from '../context.ts';

/**
 * What the REST renderers need of orders the engine may already have forgotten, remembered
 * at fill time, once per simulator: every route that renders a matched or graded bet reads
 * the same memory, so a bet looks the same whichever endpoint shows it.
 *
 * It holds no more than the engine: an order's entries go once the engine has forgotten
 * its game (`settledGameRetentionMs` / `settledGameRetentionCount`), since no route can
 * show that game's bets any more. The check runs at each settlement, so what is kept past
 * the engine's retention is at most one settlement's lag.
 */
export interface OrderMemory {
  /**
   * Original stake of every order that has open bets: the engine forgets closed orders after
   * its retention period while their bets stay open until settlement. Entries go once the
   * order's bets are graded.
   */
  readonly stakes: ReadonlyMap<string, number>;
  /**
   * The filled fraction of every order that was taken as a maker, as of its last fill (a
   * cancel or expiry does not change it): offer-side graded rows show it, and they are read
   * long after the engine has forgotten the closed order, until it forgets the game.
   */
  readonly takenRatios: ReadonlyMap<string, number>;
}

const memories = new WeakMap<SimContext, OrderMemory>();

export function orderMemory(ctx: SimContext): OrderMemory {
  let memory = memories.get(ctx);
  if (memory) return memory;
  const stakes = new Map<string, number>();
  const takenRatios = new Map<string, number>();
  /** Per game: the orders with an entry above, to drop once the engine forgets the game. */
  const byGame = new Map<string, Set<string>>();
  const note = (gameID: string, orderID: string) => {
    let ids = byGame.get(gameID);
    if (!ids) byGame.set(gameID, (ids = new Set()));
    ids.add(orderID);
  };
  const forgetGone = () => {
    for (const [gameID, ids] of byGame) {
      if (ctx.engine.game(gameID) !== undefined) continue;
      for (const id of ids) {
        stakes.delete(id);
        takenRatios.delete(id);
      }
      byGame.delete(gameID);
    }
  };
  const unsubscribe = ctx.engine.onEvent((e) => {
    if (e.kind === 'fill') {
      const after = e.fill.makerOrderAfter;
      stakes.set(e.fill.maker.orderID, after.bet);
      takenRatios.set(after.id, after.bet > 0 ? Math.min(1, after.filled / after.bet) : 1);
      note(after.gameID, after.id);
      const taker = ctx.engine.order(e.fill.taker.orderID);
      if (taker) {
        stakes.set(taker.id, taker.bet);
        note(taker.gameID, taker.id);
      }
    } else if (e.kind === 'betGraded') {
      stakes.delete(e.bet.orderID);
    } else if (
      e.kind === 'gameChanged' &&
      (e.change === 'ended' || e.change === 'regraded' || e.change === 'refunded')
    ) {
      forgetGone();
    }
  });
  ctx.hooks.onClose.push(unsubscribe);
  memory = { stakes, takenRatios };
  memories.set(ctx, memory);
  return memory;
}
