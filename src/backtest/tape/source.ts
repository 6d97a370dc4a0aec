import type { MetaData } from '../../record/format.ts';
import type { InputProblem } from '../errors.ts';
import type { LateRecords, Tape, TapeItem, TapeStats } from '../tape.ts';
import { TapeFile } from './file.ts';

/**
 * What a replay reads: the recording's items a chunk at a time, and what is known of it
 * before the first item (its files, counts, first and last time). An in-memory `Tape` is
 * one chunk; a tape file streams its chunks, so memory does not grow with the recording.
 */
export interface TapeSource {
  readonly files: readonly string[];
  readonly meta: readonly MetaData[];
  readonly stats: TapeStats;
  readonly problems: readonly InputProblem[];
  readonly complete: boolean;
  readonly late: LateRecords | null;
  readonly count: number;
  readonly start: number;
  readonly end: number;
  chunks(): AsyncIterator<readonly TapeItem[]>;
}

export function tapeSource(t: Tape | TapeFile): TapeSource {
  if (t instanceof TapeFile) {
    const f = t.footer;
    return {
      files: f.files,
      meta: f.meta,
      stats: f.stats,
      problems: f.problems,
      complete: f.complete,
      late: f.late,
      count: f.count,
      start: f.start,
      end: f.end,
      chunks: () => t.chunks(),
    };
  }
  const items = t.items;
  return {
    files: t.files,
    meta: t.meta,
    stats: t.stats,
    problems: t.problems,
    complete: t.complete,
    late: t.late,
    count: items.length,
    start: items[0]!.t,
    end: items[items.length - 1]!.t,
    chunks: async function* () {
      yield items;
    },
  };
}

/**
 * A read position in a source: `chunk[pos]` is the next item while `pos < chunk.length`;
 * `fill` moves on to the next chunk (false at the end). Items are taken without an await
 * each; only a new chunk waits.
 */
export class TapeCursor {
  chunk: readonly TapeItem[] = [];
  pos = 0;
  readonly #chunks: AsyncIterator<readonly TapeItem[]>;

  constructor(source: TapeSource) {
    this.#chunks = source.chunks();
  }

  async fill(): Promise<boolean> {
    while (this.pos >= this.chunk.length) {
      const n = await this.#chunks.next();
      if (n.done) return false;
      this.chunk = n.value;
      this.pos = 0;
    }
    return true;
  }

  /** Stops reading early (closes a tape file). */
  async close(): Promise<void> {
    await this.#chunks.return?.();
  }
}
