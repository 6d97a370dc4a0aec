// Where a position in compiled code (./compiled-entry.mjs) came from in the source. The
// compiled replay runs without Node's --enable-source-maps, which parses every module's map
// as it loads (some 8 MB resident for the CLI); a strategy error's report names the source
// file and line of its throw all the same, so the map of a compiled file is read here, when
// a position in it is first asked for.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { COMPILED_CACHE_DIR } from './compiled-entry.mjs';

/** @type {Map<string, SourceMap | null>} */
const maps = new Map();

/**
 * The source file (a path or URL as the map names it), line and column (from 1) of a
 * position (line and column from 1) in a compiled file; null for a file that is not
 * compiled code of ours, has no map, or a position the map does not cover.
 * @param {string} file
 * @param {number} line
 * @param {number} column
 * @param {string} [compiledDir] where compiled entries are kept
 * @returns {{ source: string, line: number, column: number } | null}
 */
export function originalPosition(file, line, column, compiledDir = COMPILED_CACHE_DIR) {
  const path = file.startsWith('file:') ? new URL(file).pathname : file;
  if (!path.startsWith(compiledDir)) return null;
  let map = maps.get(path);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(path, map);
  }
  if (map === null) return null;
  const entry = map.findEntry(line - 1, column - 1);
  if (!entry || typeof entry.originalSource !== 'string') return null;
  return { source: entry.originalSource, line: entry.originalLine + 1, column: entry.originalColumn + 1 };
}
