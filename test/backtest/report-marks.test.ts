import { describe, expect, it, vi } from 'vitest';
import { FairMarks, type MarkedFill } from '../../src/backtest/report/fair-marks.ts';
import { OpenMarks, type GroupedFill, type MarkGroup } from '../../src/backtest/report/open-marks.ts';
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

type Fill = GroupedFill & { readonly id: number; readonly group: string };

/** Groups by name, as report.html's P&L per strategy and per league: a fill counts in one of them and in "all". */
function groupsOf() {
  const byName = new Map<string, MarkGroup>();
  const group = (name: string) => {
    let g = byName.get(name);
    if (!g) byName.set(name, (g = { marked: 0 }));
    return g;
  };
  const sums = () => new Map([...byName].map(([name, g]) => [name, g.marked]));
  return { group, sums };
}

/** The fill-by-fill sums, the whole and per group (each fill also in "all"), in fill order. */
function fillByFill(marks: FairMarks, fs: readonly Fill[]) {
  let total = 0;
  const groups = new Map<string, number>();
  const add = (name: string, v: number) => groups.set(name, (groups.get(name) ?? 0) + v);
  for (const f of fs) {
    const v = marks.now(f);
    if (v === null) continue;
    total += v;
    add(f.group, v);
    add('all', v);
  }
  return { total, groups };
}

describe('report marks', () => {
  it('a sample marks every open fill at the fair of now, as the sum of each fill valued alone, in fill order', () => {
    const m = market();
    const marks = new FairMarks(m.recorded);
    const open = new OpenMarks<GroupedFill & { readonly id: number }>(marks);
    const fills: (GroupedFill & { readonly id: number })[] = [];
    // Many fills over many books, several fills per book.
    for (let i = 0; i < 150; i++) {
      const g = `g${i % 70}`;
      m.books.set(`${g}|moneyline`, book(-110 - (i % 70), -105 + (i % 13)));
      const f = {
        id: i,
        fair: marks.bookFair(g, 'moneyline'),
        side: (i % 3 === 0 ? 1 : 0) as 0 | 1,
        row: { win: 10 + i / 7, risk: 11 + i / 3 },
        markGroups: [],
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
    const valued = vi.spyOn(marks, 'valueAt');
    const open = new OpenMarks<Fill>(marks);
    const { group, sums } = groupsOf();
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
        markGroups: [group(`s${i % 4}`), group('all')],
      };
      fills.push(f);
      open.add(f);
    }
    m.reads.n = 0;
    const first = open.sum();
    expect(m.reads.n).toBe(70);
    expect(valued).toHaveBeenCalledTimes(150);
    const want = fillByFill(marks, fills);
    expect(first).toBe(want.total);
    expect(sums()).toEqual(want.groups);
    // Nothing moved: every book is read (its last consensus is the last one read), no fill is valued again.
    m.reads.n = 0;
    valued.mockClear();
    expect(open.sum()).toBe(first);
    expect(m.reads.n).toBe(70);
    expect(valued).not.toHaveBeenCalled();
    // One book moves: its fills alone are valued again; the sums are the fill-by-fill floats.
    m.books.set('g3|moneyline', book(-180, 150));
    valued.mockClear();
    const moved = open.sum();
    expect(valued).toHaveBeenCalledTimes(fills.filter((f) => f.id % 70 === 3).length);
    expect(moved).not.toBe(first);
    expect(moved).toBe(fillByFill(marks, fills).total);
    expect(sums()).toEqual(fillByFill(marks, fills).groups);
    // Fills leave (a whole book's and a whole group's with them) and come: still the fill-by-fill sums.
    open.retain((f) => f.id % 70 !== 9 && f.id % 5 !== 0 && f.group !== 's2');
    const left = fills.filter((f) => f.id % 70 !== 9 && f.id % 5 !== 0 && f.group !== 's2');
    m.reads.n = 0;
    valued.mockClear();
    const afterRetain = open.sum();
    expect(m.reads.n).toBe(new Set(left.map((f) => f.fair)).size);
    expect(valued).not.toHaveBeenCalled();
    expect(afterRetain).toBe(fillByFill(marks, left).total);
    // A group with no open fill left marks nothing.
    expect(sums()).toEqual(new Map([...fillByFill(marks, left).groups, ['s2', 0]]));
    open.add(fills[9]!);
    valued.mockClear();
    const withOneMore = open.sum();
    expect(valued).toHaveBeenCalledTimes(1);
    expect(withOneMore).toBe(fillByFill(marks, [...left, fills[9]!]).total);
    expect(sums()).toEqual(new Map([...fillByFill(marks, [...left, fills[9]!]).groups, ['s2', 0]]));
  });

  it('sums with the fill-by-fill floats where another order of the same terms gives other floats', () => {
    const m = market();
    const marks = new FairMarks(m.recorded);
    const open = new OpenMarks<Fill>(marks);
    const { group, sums } = groupsOf();
    const fills: Fill[] = [];
    // Values of very different sizes: rounding depends on the order the terms are added in.
    for (let i = 0; i < 200; i++) {
      const g = `g${Math.floor(i / 10)}`;
      m.books.set(`${g}|moneyline`, book(-110 - (i % 37), -105 + (i % 13)));
      const f = {
        id: i,
        group: `s${i % 3}`,
        fair: marks.bookFair(g, 'moneyline'),
        side: (i % 2) as 0 | 1,
        row: { win: i % 7 === 0 ? 1e9 / (i + 1) : 0.1 + i / 7, risk: i % 5 === 0 ? 3e-7 * i : 11 + i / 3 },
        markGroups: [group(`s${i % 3}`), group('all')],
      };
      fills.push(f);
      open.add(f);
    }
    const check = (fs: readonly Fill[], total: number) => {
      const want = fillByFill(marks, fs);
      expect(total).toBe(want.total);
      expect(sums()).toEqual(want.groups);
    };
    check(fills, open.sum());
    // The books move one by one, late ones and early ones, and fills come and leave between.
    let live = fills;
    for (let step = 0; step < 40; step++) {
      const b = (step * 7) % 20;
      m.books.set(`g${b}|moneyline`, book(-100 - ((step * 13) % 90), -100 - ((step * 5) % 40)));
      if (step % 9 === 4) {
        const late = { ...fills[(step * 11) % 200]!, id: 1000 + step };
        open.add(late);
        live = [...live, late];
      }
      if (step % 13 === 12) {
        open.retain((f) => f.id % 13 !== step % 13);
        live = live.filter((f) => f.id % 13 !== step % 13);
      }
      check(live, open.sum());
    }
  });
});
