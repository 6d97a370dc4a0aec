/**
 * The account's open orders, then its matched bets: read one after the other, in that
 * order. A fill between the two reads then shows in both (its order still open, its bet
 * matched), so the position looks larger for a moment, until the user feed's next message
 * corrects it. Read the other way round, or side by side, such a fill can show in neither:
 * an order filled in full looks gone without a bet, so its exposure is missed, or a place
 * whose answer was lost is taken for not placed and sent again.
 */
export async function openOrdersThenBets<U, B>(rest: {
  getUnmatched(): Promise<U>;
  getMatchedBets(): Promise<B>;
}): Promise<{ readonly unmatched: U; readonly bets: B }> {
  const unmatched = await rest.getUnmatched();
  const bets = await rest.getMatchedBets();
  return { unmatched, bets };
}
