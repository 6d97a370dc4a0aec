import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linesmith } from '../support/cli.ts';

/**
 * A strategy written as a user writes one: in its own folder outside the repository, with
 * no node_modules, importing everything from `linesmith/strategy`, run by the linesmith
 * command. The folder either has no package.json at all (TypeScript files there are not in
 * an ES module scope) or one that says `"type": "module"`.
 */
const STRATEGY = `import { defineStrategy, fairOfBook, makerOdds, postIntent, selectedBookKeys, sideSelection, BOOK_SIDES, z } from 'linesmith/strategy';

export default defineStrategy({
  name: 'outside',
  description: 'Quotes the moneyline five points either side of fair.',
  params: z.strictObject({ size: z.number().positive().default(5) }),
  quote(view, params) {
    if (view.mode === 'halted' || view.game.ended) return [];
    const intents = [];
    for (const key of selectedBookKeys(view.game, ['moneyline'])) {
      const book = view.game.books.get(key);
      const p0 = fairOfBook(view, key, book, { minDepth: 20, maxOverround: 0.25 });
      if (p0 === null) continue;
      for (const k of BOOK_SIDES) {
        const odds = makerOdds(k === 0 ? p0 : 1 - p0, 0.05);
        const selection = sideSelection(book, key, k);
        if (odds === null || selection === null) continue;
        intents.push(postIntent(key + ':' + k, selection, odds, params.size, { toleranceCents: 3, sizeTolerance: 0.2, expirationMinutes: null }));
      }
    }
    return intents;
  },
});
`;

const CONFIG = `paper:
  seed: 7
  speed: 60
strategies:
  - id: mine
    module: ./strategies/outside.ts
    params: { size: 4 }
risk:
  maxGameLiability: 200
  maxTotalLiability: 1000
  maxOrderSize: 50
  maxOrdersPerGame: 20
logging:
  level: warn
`;

async function project(packageJson: string | null): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ls-outside-'));
  await mkdir(join(dir, 'strategies'));
  await writeFile(join(dir, 'strategies/outside.ts'), STRATEGY);
  await writeFile(
    join(dir, 'config.yaml'),
    CONFIG.replace('level: warn', `level: warn\n  file: ${join(dir, 'run.log')}`),
  );
  if (packageJson !== null) await writeFile(join(dir, 'package.json'), packageJson);
  return dir;
}

describe('a strategy in its own folder, importing only linesmith/strategy', () => {
  it('loads and trades from a folder with no package.json (not an ES module scope)', async () => {
    const dir = await project(null);
    const r = await linesmith(['paper', '--config', join(dir, 'config.yaml'), '--duration', '3s']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('with mine (./strategies/outside.ts)');
    expect(Number(/orders sent\s+(\d+)/.exec(r.stdout)?.[1])).toBeGreaterThan(0);
  });

  it('loads from an ES module package that has no node_modules: zod and the helpers come from linesmith', async () => {
    const dir = await project('{ "name": "my-strategies", "private": true, "type": "module" }\n');
    const r = await linesmith(['paper', '--config', join(dir, 'config.yaml'), '--duration', '3s']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('with mine (./strategies/outside.ts)');
  });
});
