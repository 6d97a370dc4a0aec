import type { Clock } from '../../shared/clock.ts';

/** A user-feed message id `"<unix-ms>-<seq>"`, compared numerically part by part. */
export interface MessageId {
  readonly ms: number;
  readonly seq: number;
}

const ID_PATTERN = /^(\d{1,16})-(\d{1,9})$/;

export function parseMessageId(text: unknown): MessageId | null {
  if (typeof text !== 'string') return null;
  const m = ID_PATTERN.exec(text);
  if (!m) return null;
  const ms = Number(m[1]);
  const seq = Number(m[2]);
  return Number.isSafeInteger(ms) && Number.isSafeInteger(seq) ? { ms, seq } : null;
}

export function formatMessageId(id: MessageId): string {
  return `${id.ms}-${id.seq}`;
}

export function compareMessageIds(a: MessageId, b: MessageId): number {
  return a.ms !== b.ms ? a.ms - b.ms : a.seq - b.seq;
}

interface Entry<T> {
  readonly id: MessageId;
  /** Clock time it was logged, for the age bound. */
  readonly at: number;
  readonly message: T;
}

class UserLog<T> {
  entries: Entry<T>[] = [];
  head = 0;
  lastMs = -1;
  seq = 0;
  /** Newest id ever dropped from the log: a replay from before it is incomplete. */
  dropped: MessageId | null = null;

  get size(): number {
    return this.entries.length - this.head;
  }
}

export interface RetentionLimits {
  readonly count: number;
  readonly ms: number;
}

export type ReplayResult<T> =
  { readonly complete: true; readonly messages: T[] } | { readonly complete: false; readonly messages: T[] };

/**
 * The user feed's retained messages, per user, for gap recovery
 * (`GET /v2/user/messages`). Ids are `"<ms>-<seq>"`, strictly increasing per user: the
 * clock's ms, and a sequence within that ms that resets when the ms moves. The log keeps
 * at most `count` messages per user and none older than `ms` on the clock.
 */
export class UserFeedLog<T> {
  readonly #logs = new Map<string, UserLog<T>>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: () => RetentionLimits,
  ) {}

  /** Log a new message for the user; `build` receives its id. */
  append(userId: string, build: (id: string) => T): T {
    const log = this.#logOf(userId);
    const now = Math.floor(this.clock.now());
    const id = this.#nextId(log, now);
    const message = build(formatMessageId(id));
    log.entries.push({ id, at: now, message });
    this.#trim(log, now);
    return message;
  }

  /**
   * A message for the user that is not kept (nobody can be reading the account's feed):
   * it takes its id, so a replay from before it answers incomplete (`cache_expired`), and
   * costs neither the message nor a place in the log.
   */
  pass(userId: string): void {
    const log = this.#logOf(userId);
    log.dropped = this.#nextId(log, Math.floor(this.clock.now()));
  }

  #logOf(userId: string): UserLog<T> {
    let log = this.#logs.get(userId);
    if (!log) this.#logs.set(userId, (log = new UserLog<T>()));
    return log;
  }

  /**
   * The next id of the user's log at `now`, in whole ms: a virtual clock moves in fractions
   * of a ms (latency models), and an id with a fraction is not one the contract's pattern
   * reads, so a client would skip the message.
   */
  #nextId(log: UserLog<T>, now: number): MessageId {
    if (now > log.lastMs) {
      log.lastMs = now;
      log.seq = 0;
      return { ms: now, seq: 0 };
    }
    // Same ms (or a clock that stepped back): keep the ms, move the sequence.
    log.seq++;
    return { ms: log.lastMs, seq: log.seq };
  }

  /**
   * Messages after `after` (and before `before`, when given), oldest first. Complete when
   * nothing after `after` has been dropped yet.
   */
  replay(userId: string, after: MessageId, before: MessageId | null = null): ReplayResult<T> {
    const log = this.#logs.get(userId);
    if (!log) return { complete: true, messages: [] };
    this.#trim(log, this.clock.now());
    const { entries } = log;
    let lo = log.head;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareMessageIds(entries[mid]!.id, after) <= 0) lo = mid + 1;
      else hi = mid;
    }
    const messages: T[] = [];
    for (let i = lo; i < entries.length; i++) {
      const e = entries[i]!;
      if (before !== null && compareMessageIds(e.id, before) >= 0) break;
      messages.push(e.message);
    }
    const complete = log.dropped === null || compareMessageIds(log.dropped, after) <= 0;
    return complete ? { complete: true, messages } : { complete: false, messages };
  }

  /** Messages currently held for the user. */
  size(userId: string): number {
    const log = this.#logs.get(userId);
    if (!log) return 0;
    this.#trim(log, this.clock.now());
    return log.size;
  }

  #trim(log: UserLog<T>, now: number): void {
    const { count, ms } = this.limits();
    const maxCount = Math.max(0, Math.floor(count));
    const horizon = now - ms;
    const { entries } = log;
    let head = log.head;
    while (head < entries.length && (entries.length - head > maxCount || entries[head]!.at < horizon)) {
      log.dropped = entries[head]!.id;
      head++;
    }
    if (head > 1024 && head * 2 > entries.length) {
      log.entries = entries.slice(head);
      head = 0;
    }
    log.head = head;
  }
}
