import { describe, expect, it } from 'vitest';
import type { GradedRow } from '../../src/exchange/schemas/bets.ts';
import { GradedLog } from '../../src/backtest/venue/graded-log.ts';

/**
 * The venue's graded rows as getGradedSince walks them: every row handed out once, in
 * order, however the walk pages; the rows walked past let go of, so a replay of months
 * holds what is not read yet.
 */
const row = (n: number) => ({ id: `r${n}` }) as unknown as GradedRow;
const ids = (rows: readonly GradedRow[]) => rows.map((r) => r.id);
const AT = '2026-01-15T12:00:00.000Z';

describe('the venue’s graded log', () => {
  it('hands out every row once, in order, and lets go of what the walk moved past', () => {
    const log = new GradedLog(100);
    const seen: string[] = [];
    let cursor: string | undefined;
    let most = 0;
    for (let n = 0; n < 5_000; n++) {
      log.push(row(n));
      // A poll after every 7th row: the walk sends back the cursor it got.
      if (n % 7 === 6) {
        const page = log.since(cursor, AT);
        seen.push(...ids(page.graded));
        cursor = page.cursor;
        most = Math.max(most, log.held);
      }
    }
    const last = log.since(cursor, AT);
    seen.push(...ids(last.graded));
    expect(seen).toEqual(Array.from({ length: 5_000 }, (_, n) => `r${n}`));
    expect(last.cursor).toBe('5000');
    // At most the rows read past before a copy, and one poll's worth.
    expect(most).toBeLessThanOrEqual(100 + 7);
    // Caught up: the same cursor back, no rows.
    const again = log.since(last.cursor, AT);
    expect(again.graded).toHaveLength(0);
    expect(again.cursor).toBe('5000');
    expect(again.settledThrough).toBe(AT);
  });

  it('resumes a cursor from before the oldest row kept at that row, as the exchange does', () => {
    const log = new GradedLog(10);
    for (let n = 0; n < 30; n++) log.push(row(n));
    expect(ids(log.since(undefined, AT).graded)).toHaveLength(30);
    // Read through 25: the 25 before go.
    expect(ids(log.since('25', AT).graded)).toEqual(['r25', 'r26', 'r27', 'r28', 'r29']);
    expect(log.held).toBe(5);
    expect(ids(log.since('3', AT).graded)).toEqual(['r25', 'r26', 'r27', 'r28', 'r29']);
    expect(log.since(undefined, AT).cursor).toBe('30');
  });
});
