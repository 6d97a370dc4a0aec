// A TypeScript entry point compiled ahead into plain JavaScript, kept in a cache and reused
// while its sources are unchanged. A process that loads its TypeScript through tsx carries
// tsx's loader thread (a second V8 isolate that compiles every module) and the compiled
// sources with their source maps for as long as it runs: some 48 MB of resident memory for
// `linesmith backtest` before it reads one event (118 MB against 70 MB compiled). A replay
// of a long recording is measured against a memory ceiling, so the launcher starts it from
// the compiled entry (./replay-process.mjs).
//
// The bundle holds linesmith's own modules only; packages stay imports from node_modules.
// Lazy imports stay lazy (split into chunks). Each module's `import.meta.url` is its source
// file's, so paths made from it (worker scripts, templates, package.json) are what they are
// when the module runs from source.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Changes with how entries are compiled, so a cache written by another version is not reused. */
const FORMAT = 2;

/** How long an entry's earlier compilations are kept. */
const PRUNE_AFTER_MS = 24 * 3600 * 1000;

/** Where compiled entries are kept: the package's own cache folder, as other tools keep theirs. */
export const COMPILED_CACHE_DIR = join(PACKAGE_ROOT, 'node_modules', '.cache', 'linesmith', 'compiled');

/**
 * @typedef {{ format: number, entry: string, inputs: string[], digest: string, main: string }} Manifest
 */

/** @param {string} text */
function sha256(text) {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * One digest of the inputs' paths and contents, in the manifest's order; null when one of
 * them cannot be read (deleted or renamed: the entry is compiled again).
 * @param {readonly string[]} inputs paths relative to the package root
 */
function digestOf(inputs) {
  const h = createHash('sha256').update(`format ${FORMAT}\n`);
  for (const rel of inputs) {
    let content;
    try {
      content = readFileSync(join(PACKAGE_ROOT, rel));
    } catch {
      return null;
    }
    h.update(rel).update('\0').update(content).update('\0');
  }
  return h.digest('hex');
}

/**
 * Gives each module its own source file's `import.meta.url` in the bundle.
 * @type {import('esbuild').Plugin}
 */
const sourceMetaUrl = {
  name: 'source-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const source = readFileSync(args.path, 'utf8');
      const ext = extname(args.path);
      return {
        contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: ext === '.ts' || ext === '.mts' || ext === '.cts' ? 'ts' : 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};

/**
 * @param {string} entry absolute path
 * @param {string} key
 * @param {string} cacheDir
 * @returns {Promise<string>} the compiled main file
 */
async function compile(entry, key, cacheDir) {
  const esbuild = await import('esbuild');
  // Unique per call: test workers of one process may compile the same entry at once.
  const staging = join(cacheDir, `${key}.staging-${randomUUID()}`);
  const result = await esbuild
    .build({
      entryPoints: { main: entry },
      absWorkingDir: PACKAGE_ROOT,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      metafile: true,
      // Beside each file, read only when a position is asked for (./original-position.mjs).
      sourcemap: 'linked',
      logLevel: 'silent',
      plugins: [sourceMetaUrl],
    })
    // esbuild's service process would otherwise live as long as the launcher waits on the child.
    .finally(() => esbuild.stop());
  // tsconfig.json sets how TypeScript compiles (class fields, for one).
  const inputs = [...Object.keys(result.metafile.inputs), 'tsconfig.json']
    .map((p) => relative(PACKAGE_ROOT, resolve(PACKAGE_ROOT, p)))
    .sort();
  const digest = digestOf(inputs);
  if (digest === null) throw new Error('a source changed while it was compiled');
  const dir = `${key}-${digest.slice(0, 16)}`;
  const target = join(cacheDir, dir);
  try {
    renameSync(staging, target);
  } catch (err) {
    // Another launch compiled the same sources first: theirs is as good.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(target, 'main.mjs'))) throw err;
  }
  /** @type {Manifest} */
  const manifest = {
    format: FORMAT,
    entry: relative(PACKAGE_ROOT, entry),
    inputs,
    digest,
    main: join(dir, 'main.mjs'),
  };
  const manifestFile = join(cacheDir, `${key}.json`);
  const written = `${manifestFile}.${randomUUID()}`;
  writeFileSync(written, JSON.stringify(manifest));
  renameSync(written, manifestFile);
  // Earlier compilations of this entry go once they are a day old: a process started from
  // one may still import a lazy chunk of it.
  const old = Date.now() - PRUNE_AFTER_MS;
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (name.startsWith(`${key}-`) && name !== dir && statSync(path).mtimeMs < old)
      rmSync(path, { recursive: true, force: true });
  }
  return join(cacheDir, manifest.main);
}

/**
 * The compiled form of a TypeScript entry point (an absolute path, or one relative to the
 * package root): the cached one while every source it was made from is unchanged, else
 * compiled now (a fraction of a second) and cached. Null when it cannot be compiled here
 * (esbuild missing, the cache folder not writable, a compile error): the caller runs the
 * entry from source instead, as before.
 * @param {string} entry
 * @param {string} [cacheDir] where compiled entries are kept
 * @returns {Promise<string | null>}
 */
export async function compiledEntry(entry, cacheDir = COMPILED_CACHE_DIR) {
  const abs = resolve(PACKAGE_ROOT, entry);
  const key = sha256(abs).slice(0, 16);
  try {
    mkdirSync(cacheDir, { recursive: true });
    /** @type {Manifest | null} */
    let manifest = null;
    try {
      manifest = JSON.parse(readFileSync(join(cacheDir, `${key}.json`), 'utf8'));
    } catch {
      // None yet, or unreadable: compiled below.
    }
    if (
      manifest !== null &&
      manifest.format === FORMAT &&
      Array.isArray(manifest.inputs) &&
      existsSync(join(cacheDir, manifest.main)) &&
      digestOf(manifest.inputs) === manifest.digest
    ) {
      return join(cacheDir, manifest.main);
    }
    return await compile(abs, key, cacheDir);
  } catch {
    return null;
  }
}

/**
 * The script of a worker thread: its TypeScript entry compiled, or else `fallback` (the
 * `.mjs` beside it that registers the TypeScript loader and imports the entry). A thread
 * that loads through tsx starts a loader thread of its own as well, a second isolate: a
 * sweep of 2 worker threads peaked at 331 MB resident through tsx and 248 MB compiled.
 * @param {URL} entry the worker's `.ts` file
 * @param {URL} fallback
 * @returns {Promise<string | URL>}
 */
export async function compiledWorker(entry, fallback) {
  return (await compiledEntry(fileURLToPath(entry))) ?? fallback;
}
