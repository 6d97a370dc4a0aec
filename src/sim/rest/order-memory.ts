import type { SimContext } from '../context.ts';

/**
 * What the REST renderers need of orders the engine may already have forgotten, remembered
 * at fill time, once per simulator: every route that renders a matched or graded bet reads
 * the same memory, so a bet looks the same whichever endpoint shows it.
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
   * long after the engine has forgotten the closed order.
   */
  readonly takenRatios: ReadonlyMap<string, number>;
}

const memories = new WeakMap<SimContext, OrderMemory>();

export function orderMemory(ctx: SimContext): OrderMemory {
  let memory = memories.get(ctx);
  if (memory) return memory;
  const stakes = new Map<string, number>();
  const takenRatios = new Map<string, number>();
  const unsubscribe = ctx.engine.onEvent((e) => {
    if (e.kind === 'fill') {
      const after = e.fill.makerOrderAfter;
      stakes.set(e.fill.maker.orderId, after.bet);
      takenRatios.set(after.id, after.bet > 0 ? Math.min(1, after.filled / after.bet) : 1);
      const taker = ctx.engine.order(e.fill.taker.orderId);
      if (taker) stakes.set(taker.id, taker.bet);
    } else if (e.kind === 'betGraded') {
      stakes.delete(e.bet.orderId);
    }
  });
  ctx.hooks.onClose.push(unsubscribe);
  memory = { stakes, takenRatios };
  memories.set(ctx, memory);
  return memory;
}
