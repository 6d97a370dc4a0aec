import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../src/engine/types.ts';
import {
  QUOTE_BOOK_SETTLE_MS,
  QuoteSeries,
  quoteBookOrder,
  type QuotedOrder,
} from '../../src/backtest/report/quote-series.ts';
import { RecordedMarket } from '../../src/backtest/venue/recorded-market.ts';

/** An order of ours on a game's moneyline: what the series reads of it. */
function order(gameID: string, odds: number): Pick<OrderView, 'gameID' | 'bookKey' | 'selection' | 'odds'> {
  return { gameID, bookKey: 'moneyline', selection: { type: 'moneyline', team: 'home' }, odds };
}

/**
 * Forty games quoted one after another, each for its own number of samples and with its own
 * number of fills; games end as the next ones start. `kept` is what the series keeps.
 */
function replay(kept: number) {
  const series = new QuoteSeries(kept);
  const recorded = new RecordedMarket();
  const ended = new Set<string>();
  let t = 0;
  let mostBooks = 0;
  for (let g = 0; g < 40; g++) {
    const id = `g${g}`;
    const quoted: QuotedOrder[] = [series.quoted(order(id, 110 + g) as OrderView, null)];
    for (let f = 0; f < (g * 7) % 5; f++) series.fill(id, 'moneyline', t);
    for (let s = 0; s < 3 + ((g * 11) % 7); s++) {
      series.sample(t, quoted, recorded);
      t += 10_000;
    }
    ended.add(id);
    // Nothing of ours on the game from here on.
    series.sample(t, [], recorded);
    t += QUOTE_BOOK_SETTLE_MS;
    series.retire(t, (x) => ended.has(x));
    mostBooks = Math.max(mostBooks, series.books.length);
  }
  const top = (n: number) =>
    [...series.books]
      .sort(quoteBookOrder)
      .slice(0, n)
      .map((b) => ({ key: b.key, rows: b.rows }));
  return { top, mostBooks };
}

describe('quote series over a long replay', () => {
  it('keeps the rows of only the books that can still be among the kept, and keeps the same ones', () => {
    const all = replay(Number.POSITIVE_INFINITY);
    const bounded = replay(12);
    expect(all.mostBooks).toBe(40);
    // Done books beyond the twelve best are dropped as their games end: one game is quoted at a time.
    expect(bounded.mostBooks).toBeLessThanOrEqual(13);
    expect(bounded.top(12)).toEqual(all.top(12));
  });
});
