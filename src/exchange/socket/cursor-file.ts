import { readFile } from 'node:fs/promises';
import { SerialWriter } from '../../shared/atomic-file.ts';
import { parseMessageId } from './message-id.ts';

/** What a cursor file held at start. */
export type LoadedCursor =
  | { readonly kind: 'none' }
  | { readonly kind: 'cursor'; readonly cursor: string }
  /** Unreadable: the run starts without it (REST gives the state; nothing is replayed). */
  | { readonly kind: 'damaged'; readonly reason: string };

/**
 * The user feed's replay cursor kept in a file (feeds §5: "persist the last one
 * processed"), so a restarted process replays what happened while it was away instead of
 * starting blind. The file is replaced atomically; a cursor saved late only means a longer
 * replay, whose fills dedupe by txID and whose order updates replay in order.
 */
export class FileCursorStore {
  readonly #writer: SerialWriter;
  #saved: string | null = null;

  constructor(readonly path: string) {
    this.#writer = new SerialWriter(path, 0o600);
  }

  async load(): Promise<LoadedCursor> {
    let text: string;
    try {
      text = (await readFile(this.path, 'utf8')).trim();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
      return { kind: 'damaged', reason: `cannot read ${this.path}: ${(err as Error).message}` };
    }
    if (text.length === 0) return { kind: 'none' };
    if (parseMessageId(text) === null) return { kind: 'damaged', reason: `${this.path} does not hold a user-feed message id ("<unix-ms>-<seq>")` };
    this.#saved = text;
    return { kind: 'cursor', cursor: text };
  }

  /** Write `cursor` unless it is what the file already holds; saves run in call order. */
  save(cursor: string | null): Promise<void> {
    if (cursor === null || cursor === this.#saved) return Promise.resolve();
    this.#saved = cursor;
    return this.#writer.write(`${cursor}\n`);
  }
}
