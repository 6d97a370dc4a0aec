import { describe, expect, it } from 'vitest';
import { FairMarks, type MarkedFill } from '../../src/backtest/report/fair-marks.ts';
import { OpenMarks, type MarkVisitor } from '../../src/backtest/report/open-marks.ts';
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
  const reads = { n: 0 };
  const recorded = {
    book: (g: string, k: string) => {
      reads.n++;
      return books.get(`${g}|${k}`);
    },
  } as unknown as RecordedMarket;
  return { books, recorded, reads };
}

type Fill = MarkedFill & { readonly id: number; readonly group: string };

/** Marks summed per group, as report.html's P&L per strategy and per league is. */
class Groups implements MarkVisitor<Fill> {
  sums = new Map<string, number>();
  restarts = 0;
  restart(): void {
    this.sums = new Map();
    this.restarts++;
  }
  mark(f: Fill, value: number): void {
    this.sums.set(f.group, (this.sums.get(f.group) ?? 0) + value);
  }
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

  it('reads each book once per sum, values a fill again only when its fair moved, and sums the same floats', () => {
    const m = market();
    const marks = new FairMarks(m.recorded);
    const open = new OpenMarks<Fill>(marks);
    const fills: Fill[] = [];
    for (let i = 0; i < 150; i++) {
      const g = `g${i % 70}`;
      m.books.set(`${g}|moneyline`, book(-110 - (i % 70), -105 + (i % 13)));
      const f = {
        id: i,
        group: `s${i % 4}`,
        fair: marks.bookFair(g, 'moneyline'),
        side: (i % 3 === 0 ? 1 : 0) as 0 | 1,
        row: { win: 10 + i / 7, risk: 11 + i / 3 },
      };
      fills.push(f);
      open.add(f);
    }
    // The fill-by-fill sums: the whole and per group, in fill order.
    const alone = (fs: readonly Fill[]) => {
      let total = 0;
      const groups = new Map<string, number>();
      for (const f of fs) {
        const v = marks.now(f);
        if (v === null) continue;
        total += v;
        groups.set(f.group, (groups.get(f.group) ?? 0) + v);
      }
      return { total, groups };
    };
    const groups = new Groups();
    m.reads.n = 0;
    const first = open.sum(groups);
    expect(m.reads.n).toBe(70);
    expect(groups.restarts).toBe(1);
    const want = alone(fills);
    expect(first).toBe(want.total);
    expect(groups.sums).toEqual(want.groups);
    // Nothing moved: every book is read (its last consensus is the last one read), no fill is marked again.
    m.reads.n = 0;
    expect(open.sum(groups)).toBe(first);
    expect(m.reads.n).toBe(70);
    expect(groups.restarts).toBe(1);
    // One book moves: the sum and the groups are worked out afresh, to the fill-by-fill floats.
    m.books.set('g3|moneyline', book(-180, 150));
    const moved = open.sum(groups);
    expect(groups.restarts).toBe(2);
    expect(moved).not.toBe(first);
    expect(moved).toBe(alone(fills).total);
    expect(groups.sums).toEqual(alone(fills).groups);
    // Fills leave (a whole book's with them) and come: still the fill-by-fill sums.
    open.retain((f) => f.id % 70 !== 9 && f.id % 5 !== 0);
    const left = fills.filter((f) => f.id % 70 !== 9 && f.id % 5 !== 0);
    m.reads.n = 0;
    const afterRetain = open.sum(groups);
    expect(m.reads.n).toBe(new Set(left.map((f) => f.fair)).size);
    expect(afterRetain).toBe(alone(left).total);
    expect(groups.sums).toEqual(alone(left).groups);
    open.add(fills[9]!);
    expect(open.sum(groups)).toBe(alone([...left, fills[9]!]).total);
    expect(groups.sums).toEqual(alone([...left, fills[9]!]).groups);
    // A sum for no visitor, then one for the visitor again: the visitor is given every mark again.
    const restarts = groups.restarts;
    open.sum();
    open.sum(groups);
    expect(groups.restarts).toBe(restarts + 1);
    expect(groups.sums).toEqual(alone([...left, fills[9]!]).groups);
  });
});
