/**
 * Intent keys of the shape the built-in strategies use: a book key, a side and, for a
 * laddered quote, a level. A strategy gives the same keys on every evaluation, so each is
 * built once and kept (a small set: the book keys a game lists), rather than joined again
 * per intent; the order manager then keys its plan by a string whose hash is already known.
 */
const sideKeys = new Map<string, readonly [string, string]>();
const levelKeys = new Map<string, string[]>();

/** `${bookKey}:${side}`. */
export function sideKey(bookKey: string, side: 0 | 1): string {
  let keys = sideKeys.get(bookKey);
  if (keys === undefined) sideKeys.set(bookKey, (keys = [`${bookKey}:0`, `${bookKey}:1`]));
  return keys[side];
}

/** `${bookKey}:${side}:${level}` for a whole level ≥ 0. */
export function levelKey(bookKey: string, side: 0 | 1, level: number): string {
  let keys = levelKeys.get(bookKey);
  if (keys === undefined) levelKeys.set(bookKey, (keys = []));
  return (keys[level * 2 + side] ??= `${bookKey}:${side}:${level}`);
}
