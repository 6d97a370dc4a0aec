import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { linesmith, ROOT } from '../support/cli.ts';

const exec = promisify(execFile);

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A child process in the project folder, with none of this vitest's own variables (a nested vitest would take them as its own). */
async function inProject(dir: string, file: string, args: readonly string[], timeoutMs: number): Promise<Ran> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'TEST'),
  );
  try {
    const r = await exec(file, args, { cwd: dir, env: { ...env, NO_COLOR: '1', CI: 'true' }, timeout: timeoutMs });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('linesmith init', () => {
  // The projects' node_modules hold only links into this checkout: removing them removes links.
  const made: string[] = [];
  afterAll(async () => {
    for (const d of made) await rm(d, { recursive: true, force: true });
  });

  it('scaffolds a project outside the repository that installs, passes its test and paper-trades', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'ls-init-'));
    made.push(parent);
    const dir = join(parent, 'my-strategies');
    const init = await linesmith(['init', dir]);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    for (const f of [
      'package.json',
      'config.yaml',
      'strategies/fair-quoter.ts',
      'test/fair-quoter.test.ts',
      'tsconfig.json',
      'vitest.config.ts',
      '.gitignore',
      'README.md',
    ]) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      type: string;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg).toMatchObject({
      name: 'my-strategies',
      type: 'module',
      dependencies: { linesmith: `file:${ROOT.replace(/\/$/, '')}` },
    });
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(['@types/node', 'typescript', 'vitest']);

    // Installed as a user installs it: npm links the checkout for the file: dependency (and
    // its bin). The dev tools come from the checkout's node_modules instead of the registry,
    // which CI may not reach quickly: package.json goes to npm without them, then back.
    const { devDependencies: _dev, ...withoutDev } = pkg;
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(withoutDev, null, 2)}\n`);
    const install = await inProject(
      dir,
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'],
      60_000,
    );
    expect(install.stderr).not.toMatch(/ERR!/);
    expect(install.code).toBe(0);
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    await symlink(join(ROOT, 'node_modules/vitest'), join(dir, 'node_modules/vitest'), 'dir');
    await mkdir(join(dir, 'node_modules/@types'), { recursive: true });
    await symlink(join(ROOT, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'), 'dir');

    const test = await inProject(dir, process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run'], 120_000);
    expect(stripVTControlCharacters(test.stdout + test.stderr)).toMatch(/Tests\s+1 passed/);
    expect(test.code).toBe(0);

    const paper = await inProject(
      dir,
      process.execPath,
      [join(dir, 'node_modules/.bin/linesmith'), 'paper', '--config', 'config.yaml', '--duration', '3s'],
      60_000,
    );
    expect(paper.stderr).toBe('');
    expect(paper.code).toBe(0);
    expect(paper.stdout).toContain('with fair-quoter (./strategies/fair-quoter.ts)');
    expect(Number(/orders sent\s+(\d+)/.exec(paper.stdout)?.[1])).toBeGreaterThan(0);
    expect(paper.stdout).toMatch(/open orders left\s+0/);
  }, 240_000);

  it('refuses a folder that is not empty, with exit code 2 and nothing written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-init-'));
    made.push(dir);
    await writeFile(join(dir, 'notes.txt'), 'mine\n');
    const r = await linesmith(['init', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not empty/);
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
  });
});
