import { payout, type AmericanOdds } from '../odds/american.ts';
import type { Selection } from '../markets/types.ts';
import { fillRisk, fillWin } from './fill.ts';
import type { Position } from './position.ts';
import type { ScoreRegions } from './score-regions.ts';

/**
 * Positions merged by selection, as the worst-case search consumes them: per group, the
 * summed P&L by grade code, contingent parts capped at 0.
 *
 * The worst case is a float sum, so its bits depend on the order of the terms: groups keep
 * the order their first position came in, and each group sums its positions in the order
 * they were added. Adding A then B to a fresh set is therefore exactly the same as adding
 * B to a copy of (fresh + A), which is what lets owners keep the part that rarely changes
 * (matched bets) and add the rest to a copy per query (`copyFrom` into a set kept for the
 * purpose).
 */

/**
 * The groups of a set, in order: what the score regions are built from. Interned: every set
 * whose groups are the same, in the same order, holds the same shape, so the regions built
 * for one serve every other (other games' and other owners' sets included) until the shapes
 * are let go (see `SHAPE_LIMIT`). Never written once made, but for its regions.
 */
export interface GroupShape {
  /** The first selection seen of each group (all of a group's selections grade alike). */
  readonly selections: readonly Selection[];
  /** Group identity: market, side and outcome (see `groupCode`). */
  readonly codes: readonly number[];
  /** Group identity: the line (0 where there is none). */
  readonly lines: readonly number[];
  /** The score regions of exactly these groups, once built. */
  regions: ScoreRegions | null;
}

/**
 * How many shapes are kept for reuse before they are all let go and interning starts over:
 * a bot running for days sees ever new lines, and a shape lives on only while a set holds it.
 */
const SHAPE_LIMIT = 4_096;

/** Codes `groupCode` gives: 0 to 11. */
const CODES = 12;

class Shape implements GroupShape {
  regions: ScoreRegions | null = null;
  /** The shapes with one more group, by that group's code, then its line (Map keys: 0 and -0 alike, NaN equal to NaN, as `sameLine`). */
  readonly #next: (Map<number, Shape> | undefined)[] = new Array<Map<number, Shape> | undefined>(CODES);

  constructor(
    readonly selections: readonly Selection[],
    readonly codes: readonly number[],
    readonly lines: readonly number[],
    readonly generation: number,
  ) {}

  /** The shape of these groups followed by the group of `s` (`code`, `line`): made once, then found. */
  with(s: Selection, code: number, line: number): Shape {
    // Let go at the last limit: its equal among the shapes kept now continues instead.
    if (this.generation !== interned.generation) return this.#rebased().with(s, code, line);
    const byLine = (this.#next[code] ??= new Map());
    let next = byLine.get(line);
    if (next === undefined) {
      if (interned.count >= SHAPE_LIMIT) {
        startOver();
        return this.with(s, code, line);
      }
      next = new Shape([...this.selections, s], [...this.codes, code], [...this.lines, line], this.generation);
      byLine.set(line, next);
      interned.count++;
    }
    return next;
  }

  /** The shape of the same groups among those kept now. */
  #rebased(): Shape {
    let shape = interned.root;
    for (let i = 0; i < this.codes.length; i++)
      shape = shape.with(this.selections[i] as Selection, this.codes[i] as number, this.lines[i] as number);
    return shape;
  }
}

/** The shapes kept: all reached from `root` by adding groups, `count` of them, made in `generation`. */
const interned = { root: new Shape([], [], [], 0), count: 0, generation: 0 };

/** Let go every shape kept (sets holding them keep them): the next ones are made afresh. */
function startOver(): void {
  interned.generation++;
  interned.root = new Shape([], [], [], interned.generation);
  interned.count = 0;
}

/** Slots per group: one per grade code (the refund slot stays 0). */
export const STRIDE = 5;

/**
 * A number that, with `groupLine`, tells groups apart exactly as `bookKeyOf` + `sideIndexOf`
 * do (same book, same side), without building a string per position.
 */
function groupCode(s: Selection): number {
  switch (s.type) {
    case 'moneyline':
      return s.team === 'home' ? 0 : 1;
    case 'spread':
      // Same team and same line (±0 alike) ⇔ same home-view line and side.
      return s.team === 'home' ? 2 : 3;
    case 'total':
      return s.ou === 'over' ? 4 : 5;
    case 'moneyline1x2':
      return (s.outcome === 'home' ? 6 : s.outcome === 'away' ? 8 : 10) + (s.yes ? 0 : 1);
  }
}

function groupLine(s: Selection): number {
  return s.type === 'spread' || s.type === 'total' ? s.line : 0;
}

/** Line equality as the book key's string sees it: 0 and -0 alike, NaN equal to NaN. */
function sameLine(a: number, b: number): boolean {
  return a === b || (a !== a && b !== b);
}

export class PnlGroups {
  #shape: Shape = interned.root;
  /** `STRIDE` slots per group; may run past the groups (a reused set), and those slots are zeroed before use. */
  #pnl: number[] = [];

  /** Number of groups. */
  get size(): number {
    return this.#shape.codes.length;
  }

  /** The groups' identities and their regions, shared with every set of the same groups; valid until the next `add` to this set. */
  get shape(): GroupShape {
    return this.#shape;
  }

  /** Summed P&L, `STRIDE` slots per group by grade code; valid until the next `add`. */
  get pnl(): readonly number[] {
    return this.#pnl;
  }

  add(p: Position): void {
    this.addMoney(p.selection, p.amount, p.odds, p.commissionRate, p.contingent === true);
  }

  addAll(ps: readonly Position[]): void {
    for (const p of ps) this.add(p);
  }

  /**
   * Add one position given by its parts (no `Position` object needed). The money is
   * `fillMoney`'s (the same win and risk functions) laid out as `pnlByOutcome` does:
   * [win, −risk, win/2, −risk/2, 0].
   */
  addMoney(
    selection: Selection,
    amount: number,
    odds: AmericanOdds,
    commissionRate: number,
    contingent: boolean,
  ): void {
    const g = this.#groupOf(selection);
    const winWithoutCommission = amount * payout(odds);
    const win = fillWin(winWithoutCommission, commissionRate);
    const risk = fillRisk(amount, winWithoutCommission, commissionRate);
    const v0 = win;
    const v1 = 0 - risk;
    const v2 = win / 2;
    const v3 = 0 - risk / 2;
    const pnl = this.#pnl;
    const o = g * STRIDE;
    if (contingent) {
      pnl[o] = (pnl[o] as number) + Math.min(0, v0);
      pnl[o + 1] = (pnl[o + 1] as number) + Math.min(0, v1);
      pnl[o + 2] = (pnl[o + 2] as number) + Math.min(0, v2);
      pnl[o + 3] = (pnl[o + 3] as number) + Math.min(0, v3);
    } else {
      pnl[o] = (pnl[o] as number) + v0;
      pnl[o + 1] = (pnl[o + 1] as number) + v1;
      pnl[o + 2] = (pnl[o + 2] as number) + v2;
      pnl[o + 3] = (pnl[o + 3] as number) + v3;
    }
  }

  /**
   * Become an independent copy of `other` (adding to either leaves the other as it was),
   * reusing this set's storage: for an owner that answers many queries of the form "its
   * positions plus these", one scratch set instead of a new copy each.
   */
  copyFrom(other: PnlGroups): void {
    this.#shape = other.#shape;
    const n = other.size * STRIDE;
    const from = other.#pnl;
    const to = this.#pnl;
    // In order, so a slot past the end is an append, never a hole.
    for (let i = 0; i < n; i++) to[i] = from[i] as number;
  }

  #groupOf(s: Selection): number {
    const code = groupCode(s);
    const line = groupLine(s);
    const shape = this.#shape;
    const codes = shape.codes;
    const lines = shape.lines;
    const n = codes.length;
    for (let i = 0; i < n; i++) if (codes[i] === code && sameLine(lines[i] as number, line)) return i;
    return this.#newGroup(s, code, line);
  }

  #newGroup(s: Selection, code: number, line: number): number {
    const shape = this.#shape.with(s, code, line);
    this.#shape = shape;
    const n = shape.codes.length - 1;
    const pnl = this.#pnl;
    // A reused set (copyFrom) may hold old sums past its groups: each slot is set, not assumed 0.
    for (let k = n * STRIDE; k < (n + 1) * STRIDE; k++) pnl[k] = 0;
    return n;
  }
}
