// Module resolution hooks for the strategies a config names by path, which live in the
// user's own folder rather than in this package (registered by ./register.mjs).
//
// 1. `linesmith` and `linesmith/*` resolve to the running linesmith when the importing
//    folder has no copy of its own, so a strategy beside its config needs no node_modules,
//    and zod comes with `linesmith/strategy`. An installed copy wins.
// 2. A `.ts` file written with import/export statements loads as an ES module even where
//    its package scope says CommonJS (no package.json, or one without "type": "module").
//    tsx would otherwise hand it to Node as CommonJS, and Node refuses it ("Cannot require()
//    ES Module ... in a cycle"); linesmith itself is ES modules only, so a strategy that
//    imports it is one too. A file that uses require() or module.exports, and every `.cts`,
//    keep their CommonJS format, as do files under node_modules.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** @type {string} */
let self = '';

/** @param {{ self: string }} data */
export function initialize(data) {
  self = data.self;
}

const LINESMITH = /^linesmith(\/|$)/;
const ESM_STATEMENT = /^[ \t]*(import[\s{*'"]|export[\s{*])/m;
const COMMONJS_MARK = /\brequire\s*\(|\bmodule\.exports\b|^[ \t]*import\s+\w+\s*=\s*require\b/m;

/**
 * @param {string} specifier
 * @param {{ parentURL?: string, conditions: string[], importAttributes?: object }} context
 * @param {(specifier: string, context?: object) => Promise<{ url: string, format?: string | null }>} next
 */
export async function resolve(specifier, context, next) {
  let resolved;
  try {
    resolved = await next(specifier, context);
  } catch (err) {
    if (LINESMITH.test(specifier) && err?.code === 'ERR_MODULE_NOT_FOUND' && self !== '') {
      return next(specifier, { ...context, parentURL: self });
    }
    throw err;
  }
  if (resolved.format !== 'module' && isUserTypeScript(resolved.url) && writtenAsEsm(resolved.url)) {
    return { ...resolved, format: 'module' };
  }
  return resolved;
}

/** @param {string} url */
function isUserTypeScript(url) {
  return url.startsWith('file:') && /\.tsx?$/.test(new URL(url).pathname) && !url.includes('/node_modules/');
}

/** @param {string} url */
function writtenAsEsm(url) {
  let source;
  try {
    source = readFileSync(fileURLToPath(url), 'utf8');
  } catch {
    // Unreadable: the loader after us reports it in its own words.
    return false;
  }
  return ESM_STATEMENT.test(source) && !COMMONJS_MARK.test(source);
}
