import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z as zod } from 'zod';
import { ROOT } from '../support/cli.ts';

describe('linesmith/strategy, the entry for strategy authors', () => {
  it('is exported by package.json and is the barrel src/strategy/index.ts', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string> };
    expect(pkg.exports['./strategy']).toBe('./src/strategy/index.ts');
    const api = await import('linesmith/strategy');
    const barrel = await import('../../src/strategy/index.ts');
    expect(api.postIntent).toBe(barrel.postIntent);
  });

  it('re-exports the zod the params loader validates with', async () => {
    const api = await import('linesmith/strategy');
    expect(api.z).toBe(zod);
  });

  it('holds what a strategy needs: module type helper, intents, fair price, ladder, risk, params', async () => {
    const api = await import('linesmith/strategy');
    for (const name of [
      'defineStrategy',
      'postIntent',
      'fairOfBook',
      'makerOdds',
      'clearOfBook',
      'stepOut',
      'fitUnderLimit',
      'applyMode',
      'marketsParam',
      'toleranceCentsParam',
      'viewWith',
      'bookExposures',
    ]) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('defineStrategy returns the module as written, its params typed from the schema', async () => {
    const { defineStrategy, z } = await import('linesmith/strategy');
    const params = z.strictObject({ size: z.number().default(3) });
    const seen: number[] = [];
    const m = defineStrategy({ name: 'n', description: 'd', params, quote: (_view, p) => (seen.push(p.size), []) });
    expect(m.params).toBe(params);
    expect(m.quote({} as never, params.parse({}))).toEqual([]);
    expect(seen).toEqual([3]);
  });
});

describe('the built-in strategies', () => {
  it('import from the strategy entry only', () => {
    const dir = join(ROOT, 'strategies');
    const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
    expect(modules.length).toBeGreaterThanOrEqual(3);
    for (const f of modules) {
      const sources = [...readFileSync(join(dir, f), 'utf8').matchAll(/^import[^;]*?from '([^']+)'/gms)].map(
        (m) => m[1],
      );
      expect(sources, f).toEqual(['../src/strategy/index.ts']);
    }
  });
});
