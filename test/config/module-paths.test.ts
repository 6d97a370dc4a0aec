import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';

/**
 * A config names strategy modules by path and the loader imports them: a config is code.
 * Paths resolve against the config file's directory (`./`, `../`) or stand as written
 * (absolute), never against the directory linesmith starts in; and a module's top-level
 * code runs when the config is loaded, before (and whether or not) the rest is accepted.
 */
const zodUrl = pathToFileURL(createRequire(import.meta.url).resolve('zod')).href;
const moduleText = (name: string) => `import { z } from ${JSON.stringify(zodUrl)};
globalThis.__linesmithLoaded = [...(globalThis.__linesmithLoaded ?? []), ${JSON.stringify(name)}];
export default { name: ${JSON.stringify(name)}, description: 'test module', params: z.strictObject({}), quote: () => [] };
`;
const loaded = () => (globalThis as { __linesmithLoaded?: string[] }).__linesmithLoaded ?? [];

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'linesmith-modules-'));
  await mkdir(join(root, 'configs', 'deep'), { recursive: true });
  await mkdir(join(root, 'mods'), { recursive: true });
  await writeFile(join(root, 'mods', 'up.mjs'), moduleText('up-one'));
  await writeFile(join(root, 'mods', 'abs.mjs'), moduleText('absolute'));
  await writeFile(join(root, 'configs', 'deep', 'here.mjs'), moduleText('beside'));
  await writeFile(join(root, 'mods', 'rejected.mjs'), moduleText('ran-anyway'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const risk = [
  'risk:',
  '  maxGameLiability: 100',
  '  maxTotalLiability: 1000',
  '  maxOrderSize: 10',
  '  maxOrdersPerGame: 4',
];

describe('strategy modules named by path in a config', () => {
  it('resolve against the config file, with ../ and absolute paths too, whatever the working directory', async () => {
    const file = join(root, 'configs', 'deep', 'run.yaml');
    await writeFile(
      file,
      [
        'strategies:',
        '  - id: a',
        '    module: ../../mods/up.mjs',
        '  - id: b',
        `    module: ${join(root, 'mods', 'abs.mjs')}`,
        '  - id: c',
        '    module: ./here.mjs',
        ...risk,
      ].join('\n') + '\n',
    );
    expect(process.cwd()).not.toBe(join(root, 'configs', 'deep'));
    const c = await loadConfig(file, { resolveStrategy: defaultStrategyResolver({}) });
    expect(c.strategies.map((s) => [s.id, s.module.name])).toEqual([
      ['a', 'up-one'],
      ['b', 'absolute'],
      ['c', 'beside'],
    ]);
  });

  it('run their code when the config is loaded, even when the config is then rejected', async () => {
    const file = join(root, 'configs', 'bad.yaml');
    await writeFile(
      file,
      [
        'strategies:',
        '  - id: a',
        '    module: ../mods/rejected.mjs',
        'risk:',
        '  maxGameLiability: -5',
        '  maxTotalLiability: 1000',
        '  maxOrderSize: 10',
        '  maxOrdersPerGame: 4',
      ].join('\n') + '\n',
    );
    await expect(loadConfig(file, { resolveStrategy: defaultStrategyResolver({}) })).rejects.toBeInstanceOf(
      ConfigError,
    );
    expect(loaded()).toContain('ran-anyway');
  });
});
