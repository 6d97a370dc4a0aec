import type { GradeVersion } from './types.ts';

interface UserGrades {
  /** Retained versions, in settlement order. */
  readonly entries: GradeVersion[];
  /** Versions dropped from the front so far: the position of `entries[0]` in the whole log. */
  dropped: number;
}

const NONE: readonly GradeVersion[] = [];

/**
 * Every user's grade versions in settlement order (the getGradedSince walk), of which the
 * versions settled before a horizon can be dropped from the front: positions in the whole
 * log stay meaningful through `dropped`.
 */
export class GradeLogs {
  readonly #logs = new Map<string, UserGrades>();

  append(grade: GradeVersion): void {
    let log = this.#logs.get(grade.userId);
    if (!log) this.#logs.set(grade.userId, (log = { entries: [], dropped: 0 }));
    log.entries.push(grade);
  }

  /** The user's retained versions, oldest first. */
  entries(userId: string): readonly GradeVersion[] {
    return this.#logs.get(userId)?.entries ?? NONE;
  }

  /** How many of the user's versions were dropped: the whole-log position of the first retained one. */
  dropped(userId: string): number {
    return this.#logs.get(userId)?.dropped ?? 0;
  }

  /** Versions retained over every user. */
  get size(): number {
    let n = 0;
    for (const log of this.#logs.values()) n += log.entries.length;
    return n;
  }

  /** Drop every version settled at or before `horizon` (they lead each log: it is in settlement order). */
  dropThrough(horizon: number): void {
    for (const log of this.#logs.values()) {
      const { entries } = log;
      let n = 0;
      while (n < entries.length && entries[n]!.settledAt <= horizon) n++;
      if (n === 0) continue;
      entries.splice(0, n);
      log.dropped += n;
    }
  }
}
