import { readFile } from 'node:fs/promises';
import { SerialWriter } from '../../shared/atomic-file.ts';
import { parseMessageId } from './message-id.ts';

/** What a cursor file held at start. */
export type LoadedCursor =
  | { readonly kind: 'none' }
  | { readonly kind: 'cursor'; readonly cursor: string }
  /** Not usable here: the run starts without it (REST gives the state; nothing is replayed). */
  | { readonly kind: 'damaged'; readonly reason: string };

/** A cursor this far past the machine's clock is not a real exchange's: refused. */
const MAX_AHEAD_MS = 24 * 3_600_000;

/**
 * The user feed's replay cursor kept in a file (feeds §5: "persist the last one
 * processed"), so a restarted process replays what happened while it was away instead of
 * starting blind. The file names the feed it came from: a cursor from another venue (a
 * simulator on a fast clock, say) could be ahead of this one's ids, and the forward-only
 * check would then drop every live message. Replaced atomically; a cursor saved late only
 * means a longer replay, whose fills dedupe by txID and whose order updates replay in order.
 */
export class FileCursorStore {
  readonly #writer: SerialWriter;
  #saved: string | null = null;

  constructor(
    readonly path: string,
    /** The user feed's address (streaming base): what the saved cursor belongs to. */
    readonly venue: string,
  ) {
    this.#writer = new SerialWriter(path, 0o600);
  }

  async load(now: number): Promise<LoadedCursor> {
    let text: string;
    try {
      text = (await readFile(this.path, 'utf8')).trim();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
      return { kind: 'damaged', reason: `cannot read ${this.path}: ${(err as Error).message}` };
    }
    if (text.length === 0) return { kind: 'none' };
    let held: unknown;
    try {
      held = JSON.parse(text);
    } catch {
      held = null;
    }
    const { venue, cursor } = (typeof held === 'object' && held !== null ? held : {}) as {
      venue?: unknown;
      cursor?: unknown;
    };
    const id = typeof cursor === 'string' ? parseMessageId(cursor) : null;
    if (id === null || typeof venue !== 'string')
      return { kind: 'damaged', reason: `${this.path} does not hold {"venue", "cursor": "<unix-ms>-<seq>"}` };
    if (venue !== this.venue)
      return { kind: 'damaged', reason: `${this.path} holds the cursor of ${venue}, not of ${this.venue}` };
    if (id.ms > now + MAX_AHEAD_MS)
      return {
        kind: 'damaged',
        reason: `${this.path} holds a cursor from ${new Date(id.ms).toISOString()}, ahead of this machine's clock`,
      };
    this.#saved = id.text;
    return { kind: 'cursor', cursor: id.text };
  }

  /** Write `cursor` unless it is what the file already holds; saves run in call order. */
  async save(cursor: string | null): Promise<void> {
    if (cursor === null || cursor === this.#saved) return;
    const before = this.#saved;
    this.#saved = cursor;
    try {
      await this.#writer.write(`${JSON.stringify({ venue: this.venue, cursor })}\n`);
    } catch (err) {
      // Not written after all: the next save of this cursor must try again.
      if (this.#saved === cursor) this.#saved = before;
      throw err;
    }
  }
}
