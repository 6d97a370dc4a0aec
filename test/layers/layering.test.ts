import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** Runs the project's layering rules over a small tree of its own: what `npm run lint:layers` would say of it. */
async function cruise(dir: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [DEPCRUISE, 'src', 'strategies', '--config', CONFIG, '--output-type', 'err'],
      { cwd: dir },
    );
    return { ok: true, output: stdout };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ls-layers-'));
  dirs.push(dir);
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, module: 'nodenext', noEmit: true } }),
  );
  await mkdir(join(dir, 'strategies'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const dirs: string[] = [];
let downward = '';
let upward = '';
let cycle = '';
let stray = '';

describe('the layering rule (.dependency-cruiser.cjs)', () => {
  beforeAll(async () => {
    const [a, b, c, d] = await Promise.all([
      tree({
        'src/runtime/r.ts': "import { x } from '../shared/s.ts';\nexport const r = x;\n",
        'src/shared/s.ts': 'export const x = 1;\n',
      }),
      tree({
        'src/shared/s.ts': "import { r } from '../runtime/r.ts';\nexport const x = r;\n",
        'src/runtime/r.ts': 'export const r = 1;\n',
      }),
      tree({
        'src/orders/o.ts': "import { b } from '../market-model/b.ts';\nexport const o = b;\n",
        'src/market-model/b.ts': "import type { O } from '../orders/t.ts';\nexport const b: O = 1;\n",
        'src/orders/t.ts': 'export type O = number;\n',
      }),
      tree({
        'src/newfolder/n.ts': "import { x } from '../shared/s.ts';\nexport const n = x;\n",
        'src/shared/s.ts': 'export const x = 1;\n',
      }),
    ]);
    const results = await Promise.all([a, b, c, d].map(cruise));
    const said = results.map((r) => `${r.ok ? 'OK' : 'FAILED'}\n${r.output}`);
    [downward = '', upward = '', cycle = '', stray = ''] = said;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('accepts an import from a lower layer', () => {
    expect(downward).toMatch(/^OK/);
  });

  it('fails an upward import with the name of the rule it breaks', () => {
    expect(upward).toMatch(/^FAILED/);
    expect(upward).toContain('layer-shared-imports-only-down');
    expect(upward).toContain('src/shared/s.ts → src/runtime/r.ts');
  });

  it('fails a circle between two folders, even through a type-only import', () => {
    expect(cycle).toMatch(/^FAILED/);
    expect(cycle).toContain('layer-market-model-imports-only-down');
  });

  it('fails a folder that has no rank', () => {
    expect(stray).toMatch(/^FAILED/);
    expect(stray).toContain('folder-not-in-a-layer');
  });
});
