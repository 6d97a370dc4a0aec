import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledEntry } from '../../src/loader/compiled-entry.mjs';

/**
 * A TypeScript entry compiled ahead into plain JavaScript (what `linesmith backtest`'s
 * replay process runs): each module keeps its source's `import.meta.url`, a lazy import
 * still works, and the compiled form is reused exactly while its sources are unchanged.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ls-compiled-entry-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Each test's compiled entries go to a cache folder of its own. */
function cache(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ls-compiled-cache-'));
  dirs.push(dir);
  return dir;
}

const ENTRY = [
  "import { where, value } from './dep.ts';",
  'const size: number = value * 2;',
  "const lazy = await import('./lazy.ts');",
  'console.log(JSON.stringify({ entry: import.meta.url, dep: where, size, lazy: lazy.where }));',
].join('\n');
const dep = (value: number) =>
  `export const where: string = import.meta.url;\nexport const value: number = ${value};\n`;
const LAZY = 'export const where: string = import.meta.url;\n';

const ORIGINAL_POSITION = fileURLToPath(new URL('../../src/loader/original-position.mjs', import.meta.url));

const runCompiled = (file: string) =>
  JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' })) as unknown;

describe('compiledEntry', () => {
  it('runs as plain JavaScript with each module’s own import.meta.url, its lazy import included', async () => {
    const dir = project({ 'entry.ts': ENTRY, 'dep.ts': dep(21), 'lazy.ts': LAZY });
    const compiled = await compiledEntry(join(dir, 'entry.ts'), cache());
    expect(compiled).not.toBeNull();
    expect(compiled!.endsWith('.mjs')).toBe(true);
    expect(runCompiled(compiled!)).toEqual({
      entry: pathToFileURL(join(dir, 'entry.ts')).href,
      dep: pathToFileURL(join(dir, 'dep.ts')).href,
      size: 42,
      lazy: pathToFileURL(join(dir, 'lazy.ts')).href,
    });
  });

  it('is reused while its sources are unchanged, and made again when one changes', async () => {
    const dir = project({ 'entry.ts': ENTRY, 'dep.ts': dep(21), 'lazy.ts': LAZY });
    const at = cache();
    const first = (await compiledEntry(join(dir, 'entry.ts'), at))!;
    const made = statSync(first).mtimeMs;
    expect(await compiledEntry(join(dir, 'entry.ts'), at)).toBe(first);
    expect(statSync(first).mtimeMs).toBe(made);

    writeFileSync(join(dir, 'dep.ts'), dep(5));
    const second = (await compiledEntry(join(dir, 'entry.ts'), at))!;
    expect(second).not.toBe(first);
    expect((runCompiled(second) as { size: number }).size).toBe(10);
    // The earlier compilation stays for a day (a process started from it may still load a chunk), then goes.
    expect(existsSync(first)).toBe(true);
    const dayAgo = (Date.now() - 25 * 3600 * 1000) / 1000;
    utimesSync(dirname(first), dayAgo, dayAgo);

    // A change in a module loaded lazily counts too.
    writeFileSync(join(dir, 'lazy.ts'), `${LAZY}// changed\n`);
    const third = (await compiledEntry(join(dir, 'entry.ts'), at))!;
    expect(third).not.toBe(second);
    expect(existsSync(first)).toBe(false);
    expect(existsSync(second)).toBe(true);
  });

  it('maps a position in compiled code back to its source file, line and column', async () => {
    const thrower = [
      'export const n: number = 1;',
      '',
      "export function boom(): never { throw new Error('boom'); }",
      '',
    ];
    const dir = project({
      'entry.ts': [
        "import { boom } from './boom.ts';",
        "import { originalPosition } from '" + ORIGINAL_POSITION + "';",
        'try { boom(); } catch (e) {',
        "  const frame = /\\((.*):(\\d+):(\\d+)\\)/.exec((e as Error).stack!.split('\\n')[1]!)!;",
        '  console.log(JSON.stringify(originalPosition(frame[1]!, Number(frame[2]), Number(frame[3]), process.argv[2])));',
        '}',
      ].join('\n'),
      'boom.ts': thrower.join('\n'),
    });
    const at = cache();
    const compiled = (await compiledEntry(join(dir, 'entry.ts'), at))!;
    const pos = JSON.parse(execFileSync(process.execPath, [compiled, at], { encoding: 'utf8' })) as {
      source: string;
      line: number;
      column: number;
    };
    expect(pos.source.endsWith('/boom.ts')).toBe(true);
    expect(pos.line).toBe(3);
    expect(pos.column).toBe(thrower[2]!.indexOf('new Error') + 1);
  });

  it('is null when the entry does not compile, so the caller runs it from source', async () => {
    const dir = project({ 'entry.ts': "import { nothing } from './missing.ts';\nconsole.log(nothing);\n" });
    expect(await compiledEntry(join(dir, 'entry.ts'), cache())).toBeNull();
  });
});
