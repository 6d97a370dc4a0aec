import { participantsOf } from '../market-model/market-model.ts';
import type { MatchedBet } from '../exchange/schemas/bets.ts';
import type { Game } from '../exchange/schemas/game.ts';
import type { LookupOrder, UnmatchedOrder } from '../exchange/schemas/orders.ts';
import { selectionFromWire } from '../markets/wire-selection.ts';
import { restingPosition, worstCaseLiability } from '../money/liability.ts';
import type { Position } from '../money/position.ts';
import { fillFromBet } from '../orders/fills.ts';
import { wireOfUnmatched } from '../orders/order-manager.ts';
import { totalSidesOf } from '../orders/total-sides.ts';

/**
 * The exact worst case of each game were every resting order filled: the matched bets as
 * positions and each resting order as one that may fill (counted only where it loses),
 * through the same exact function the risk gate uses. A resting total's side is read with
 * lookupOrder (getUnmatched names none); an order whose selection cannot be read is counted
 * as its whole stake lost, so the figure never understates the risk.
 */
export async function worstCasesWithResting(
  games: ReadonlyMap<string, Game | null>,
  unmatched: readonly UnmatchedOrder[],
  bets: readonly MatchedBet[],
  commissionRate: number,
  lookup: (orderID: string) => Promise<LookupOrder>,
): Promise<Map<string, number>> {
  const totalSides = await totalSidesOf(unmatched, () => true, lookup);
  const out = new Map<string, number>();
  for (const [id, game] of games) {
    const p = game ? participantsOf(game) : null;
    const positions: Position[] = [];
    let unread = 0;
    for (const b of bets) {
      if (b.game?.id !== id) continue;
      const f = p ? fillFromBet(b, p, commissionRate, null, 0) : null;
      if (!f) unread += b.risk;
      else
        positions.push({
          selection: f.selection,
          amount: f.amount,
          odds: f.odds,
          commissionRate: f.origin === 'wager' && !f.isPostArb ? commissionRate : 0,
        });
    }
    for (const u of unmatched) {
      if (u.game?.id !== id) continue;
      const selection = p ? selectionFromWire(p, wireOfUnmatched(u, totalSides)) : null;
      if (!selection) unread += u.remaining;
      else positions.push(restingPosition(selection, u.remaining, u.odds, 0));
    }
    out.set(id, worstCaseLiability(positions) - unread);
  }
  return out;
}
