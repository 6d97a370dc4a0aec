/**
 * User-feed message ids, `"<unix-ms>-<seq>"`. They order the feed and are its replay
 * cursor; compared numerically part by part (a string compare puts "9-0" after "10-0").
 */
export interface MessageId {
  readonly ms: number;
  readonly seq: number;
  readonly text: string;
}

const PATTERN = /^(\d{1,16})-(\d{1,16})$/;

export function parseMessageId(text: string): MessageId | null {
  const m = PATTERN.exec(text);
  if (!m) return null;
  const ms = Number(m[1]);
  const seq = Number(m[2]);
  return Number.isSafeInteger(ms) && Number.isSafeInteger(seq) ? { ms, seq, text } : null;
}

export function compareMessageIds(a: MessageId, b: MessageId): number {
  return a.ms !== b.ms ? a.ms - b.ms : a.seq - b.seq;
}

/**
 * The forward-only cursor every message passes, live or replayed: a message is new only
 * when its id is after the last one processed. That one check is what makes replaying
 * over buffered live messages lose nothing and count nothing twice.
 */
export class MessageCursor {
  #last: MessageId | null;

  constructor(start: string | null = null) {
    if (start === null) {
      this.#last = null;
      return;
    }
    const id = parseMessageId(start);
    if (!id) throw new RangeError(`not a user-feed message id: ${JSON.stringify(start).slice(0, 64)}`);
    this.#last = id;
  }

  get value(): string | null {
    return this.#last?.text ?? null;
  }

  /** Advance to `id` if it is new; false (and no change) when it is not after the cursor. */
  advance(id: MessageId): boolean {
    if (this.#last !== null && compareMessageIds(id, this.#last) <= 0) return false;
    this.#last = id;
    return true;
  }
}
