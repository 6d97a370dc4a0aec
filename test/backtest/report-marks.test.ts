import { describe, expect, it } from 'vitest';
import { FairMarks, type MarkedFill } from '../../src/backtest/report/fair-marks.ts';
import { OpenMarks } from '../../src/backtest/report/open-marks.ts';
import type { RecordedMarket } from '../../src/backtest/venue/recorded-market.ts';
import type { MarketBook } from '../../src/market-model/types.ts';
import { consensusFair } from '../../src/strategy/fair.ts';

/** A book whose consensus is set by the best odds of its two sides (a single offer each, deep enough). */
function book(odds0: number, odds1: number): MarketBook {
  const side = (odds: number) => ({
    taker: { type: 'moneyline', team: 'home' },
    offers: [{ id: 'x', odds, sumUntaken: 1_000, mine: false }],
    epoch: 0,
  });
  return { key: 'moneyline', type: 'moneyline', sides: [side(odds0), side(odds1)] } as unknown as MarketBook;
}

/** A recorded market of replaceable books: a test moves a price by putting a new book in. */
function market() {
  const books = new Map<string, MarketBook | undefined>();
  const recorded = { book: (g: string, k: string) => books.get(`${g}|${k}`) } as unknown as RecordedMarket;
  return { books, recorded };
}

describe('report marks', () => {
  it('a sample marks every open fill at the fair of now, as the sum of each fill valued alone, in fill order', () => {
    const m = market();
    const marks = new FairMarks(m.recorded);
    const open = new OpenMarks<MarkedFill & { readonly id: number }>(marks);
    const fills: (MarkedFill & { readonly id: number })[] = [];
    // Many fills over many books, several fills per book.
    for (let i = 0; i < 150; i++) {
      const g = `g${i % 70}`;
      m.books.set(`${g}|moneyline`, book(-110 - (i % 70), -105 + (i % 13)));
      const f = {
        id: i,
        fair: marks.bookFair(g, 'moneyline'),
        side: (i % 3 === 0 ? 1 : 0) as 0 | 1,
        row: { win: 10 + i / 7, risk: 11 + i / 3 },
      };
      fills.push(f);
      open.add(f);
    }
    const alone = (fs: readonly MarkedFill[]) => fs.reduce((s, f) => s + (marks.now(f) ?? 0), 0);
    const first = open.sum();
    expect(first).toBe(alone(fills));
    // The market moves: the next sample reads it, not what the last one read.
    for (let b = 0; b < 70; b += 3) m.books.set(`g${b}|moneyline`, book(-150, 120));
    const second = open.sum();
    expect(second).not.toBe(first);
    expect(second).toBe(alone(fills));
    // A book with no consensus now counts at its last one; a book gone does too.
    m.books.set('g1|moneyline', book(-300, -300));
    expect(consensusFair(m.books.get('g1|moneyline'))).toBeNull();
    m.books.delete('g2|moneyline');
    expect(open.sum()).toBe(alone(fills));
    // Graded fills leave; the rest keep their order and their books.
    open.retain((f) => f.id % 4 !== 0 && f.id % 70 !== 5);
    const left = fills.filter((f) => f.id % 4 !== 0 && f.id % 70 !== 5);
    expect(open.size).toBe(left.length);
    m.books.set('g7|moneyline', book(-300, 250));
    expect(open.sum()).toBe(alone(left));
    open.add(fills[0]!);
    expect(open.sum()).toBe(alone([...left, fills[0]!]));
  });

  it("reads a book's consensus again once the market replaced it, and only then", () => {
    const m = market();
    m.books.set('g|moneyline', book(-120, 100));
    const marks = new FairMarks(m.recorded);
    const f: MarkedFill = { fair: marks.bookFair('g', 'moneyline'), side: 0, row: { win: 10, risk: 10 } };
    const before = marks.now(f);
    expect(before).not.toBeNull();
    m.books.set('g|moneyline', book(100, -120));
    const after = marks.now(f);
    expect(after).not.toBe(before);
    expect(after).toBeCloseTo(-before!, 12);
  });
});
