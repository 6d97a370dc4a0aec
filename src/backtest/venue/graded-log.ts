import type { GradedRow, GradedSinceResponse } from '../../exchange/schemas/bets.ts';

/**
 * The rows of a poll that finds nothing new: one list for every such poll (most polls of a
 * replay, once a second through its hours); frozen, as its readers only read it.
 */
const NO_GRADED = Object.freeze([]) as readonly GradedRow[] as GradedRow[];

/** Rows read past that the log keeps before it lets them go, in one copy. */
const KEEP_READ = 1_024;

/**
 * Our graded rows in settlement order, as getGradedSince walks them: the cursor is how many
 * rows were read. Most polls find nothing new: those send the cursor back as it came, with
 * no copy of the rows. The rows before a cursor sent are read; once there are `keepRead` of
 * them they go, and a cursor from before the oldest row kept resumes there, as the
 * exchange's does once its retention dropped rows. Only the runtime's walk reads the log,
 * and it moves on: a replay of months holds the rows not yet read, not every grade.
 */
export class GradedLog {
  /** Rows not yet let go of, oldest first: the rows from `#dropped` on. */
  #rows: GradedRow[] = [];
  /** Rows let go of (the whole-log position of `#rows[0]`). */
  #dropped = 0;
  readonly #keepRead: number;

  constructor(keepRead = KEEP_READ) {
    this.#keepRead = keepRead;
  }

  push(row: GradedRow): void {
    this.#rows.push(row);
  }

  /** Rows held now (read or not). */
  get held(): number {
    return this.#rows.length;
  }

  /** The page after `cursor` (undefined: from the oldest row kept); `settledThrough` as the answer gives it. */
  since(cursor: string | undefined, settledThrough: string): GradedSinceResponse {
    const dropped = this.#dropped;
    const from = cursor === undefined ? dropped : Math.max(Number(cursor), dropped);
    if (cursor !== undefined && from === dropped + this.#rows.length)
      return { graded: NO_GRADED, hasMore: false, cursor, settledThrough };
    let at = from - dropped;
    if (at >= this.#keepRead) {
      this.#rows = this.#rows.slice(at);
      this.#dropped = from;
      at = 0;
    }
    const rows = this.#rows.slice(at);
    return { graded: rows, hasMore: false, cursor: String(from + rows.length), settledThrough };
  }
}
