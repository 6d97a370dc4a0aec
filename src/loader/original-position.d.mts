/**
 * The source file, line and column (from 1) of a position (from 1) in compiled code of
 * ours; null for any other file, or a position its map does not cover.
 */
export declare function originalPosition(
  file: string,
  line: number,
  column: number,
  compiledDir?: string,
): { source: string; line: number; column: number } | null;
