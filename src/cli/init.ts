import { cp, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { LinesmithError } from '../shared/errors.ts';
import { usageError } from './exit-codes.ts';

/** The files of a new project; `gitignore` is renamed on the way, since npm leaves `.gitignore` files out of a package. */
const TEMPLATE = fileURLToPath(new URL('./init-template/', import.meta.url));
const LINESMITH_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The sample recording the project's scripts and test replay, as the installed package holds it. */
const SAMPLE_FEED = 'node_modules/linesmith/backtest/data/paper-seed13-deep';

export class InitError extends LinesmithError {
  override readonly code = 'LS_ERR_INIT';
}

export interface InitOptions {
  /** How the project's package.json names linesmith; default `file:` this installation. */
  readonly linesmith?: string;
}

export interface InitResult {
  readonly dir: string;
  readonly files: readonly string[];
}

/** Writes a strategy project into `dir`, which must not exist or be empty. */
export async function initProject(dir: string, o: InitOptions = {}): Promise<InitResult> {
  const target = resolve(dir);
  const existing = await readdir(target).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw new InitError(`cannot use ${target}: ${e.message}`);
  });
  if (existing.length > 0) throw new InitError(`${target} is not empty; give a new or empty folder`);
  await mkdir(target, { recursive: true });
  await cp(TEMPLATE, target, { recursive: true });
  await rename(join(target, 'gitignore'), join(target, '.gitignore'));
  await writeFile(
    join(target, 'package.json'),
    `${JSON.stringify(await packageJson(target, o.linesmith ?? `file:${LINESMITH_ROOT.replace(/\/$/, '')}`), null, 2)}\n`,
  );
  return { dir: target, files: (await listFiles(target)).sort() };
}

interface OwnPackage {
  readonly version: string;
  readonly devDependencies: Readonly<Record<string, string>>;
}

/** The project's manifest: linesmith, and the test tools at the versions linesmith itself is tested with. */
async function packageJson(target: string, linesmith: string): Promise<unknown> {
  const own = JSON.parse(await readFile(join(LINESMITH_ROOT, 'package.json'), 'utf8')) as OwnPackage;
  const dev = (name: string): string => own.devDependencies[name] ?? '*';
  return {
    name: packageName(basename(target)),
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      test: 'vitest run',
      typecheck: 'tsc --noEmit',
      paper: 'linesmith paper --config config.yaml --duration 60s',
      backtest: `linesmith backtest --config config.yaml --feed ${SAMPLE_FEED} --report backtest-report`,
    },
    dependencies: { linesmith },
    devDependencies: { '@types/node': dev('@types/node'), typescript: dev('typescript'), vitest: dev('vitest') },
  };
}

/** npm's rules for a name: lower case, URL-safe, at most 214 characters. */
function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, 214);
  return name === '' ? 'linesmith-strategies' : name;
}

async function listFiles(dir: string, root = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(path, root)));
    else out.push(relative(root, path));
  }
  return out;
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Create a strategy project: a sample strategy, a config, a backtest test on a sample recording')
    .argument('<dir>', 'folder to create (new or empty)')
    .option('--linesmith <spec>', 'how package.json depends on linesmith (default: file: this installation)')
    .action(async (dir: string, o: { linesmith?: string }) => {
      try {
        const r = await initProject(dir, o.linesmith !== undefined ? { linesmith: o.linesmith } : {});
        const rel = relative(process.cwd(), r.dir);
        const shown = rel === '' ? '.' : rel.startsWith('..') ? r.dir : rel;
        process.stdout.write(
          `created ${r.dir}\n${r.files.map((f) => `  ${f}\n`).join('')}\nnext:\n  cd ${shown}\n  npm install\n  ` +
            `npm test          # backtests strategies/fair-quoter.ts on a sample recording\n  npm run paper     # ` +
            `paper-trades config.yaml on the simulator for a minute\n`,
        );
      } catch (err) {
        if (!(err instanceof InitError)) throw err;
        usageError('init', err.message);
      }
    });
}
