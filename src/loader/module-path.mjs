// How a config's `module` value names a strategy in a file rather than a built-in one. The
// config loader resolves strategies with it, and the launcher reads it before any TypeScript
// is loaded (./replay-process.mjs), so it is plain JavaScript.
import { isAbsolute } from 'node:path';
import { parse } from 'yaml';

/**
 * A `module` value is a path when it looks like one (`./x.ts`, `../x.ts`, `/abs/x.ts`);
 * anything else is a registry name. A bare `x.ts` is therefore a name, and the "unknown
 * strategy" message says how to write it as a path: guessing would make `fixed-spread`
 * and a stray file of that name ambiguous.
 * @param {string} ref
 */
export function isModulePath(ref) {
  return (
    ref.startsWith('./') || ref.startsWith('../') || ref.startsWith('.\\') || ref.startsWith('..\\') || isAbsolute(ref)
  );
}

/**
 * Whether a config's text can be read and names built-in strategies only: code compiled
 * ahead (./compiled-entry.mjs) runs it without the TypeScript loader a strategy file needs.
 * @param {string} text
 */
export function namesBuiltInStrategiesOnly(text) {
  let doc;
  try {
    doc = parse(text);
  } catch {
    return false;
  }
  const strategies = doc?.strategies;
  if (!Array.isArray(strategies)) return false;
  return strategies.every((s) => typeof s?.module === 'string' && !isModulePath(s.module.trim()));
}
