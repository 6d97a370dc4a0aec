/**
 * Text given in pieces, joined into batches of at least `size` characters (the last one
 * shorter, none empty): a few large strings to write or escape rather than many small ones,
 * and none so large that the whole text is ever one string.
 */
export function* textBatches(pieces: Iterable<string>, size: number): Generator<string> {
  let batch: string[] = [];
  let length = 0;
  for (const p of pieces) {
    batch.push(p);
    length += p.length;
    if (length >= size) {
      yield batch.join('');
      batch = [];
      length = 0;
    }
  }
  if (length > 0) yield batch.join('');
}
