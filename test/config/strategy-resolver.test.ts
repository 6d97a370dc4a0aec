import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultStrategyResolver, isModulePath, isStrategyModule } from '../../src/config/strategy-resolver.ts';
import { FAKE_REGISTRY, fixedSpread } from './fake-registry.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

describe('defaultStrategyResolver', () => {
  it('tells paths from registry names', () => {
    expect(['./a.ts', '../b/c.ts', '/abs/d.ts'].map(isModulePath)).toEqual([true, true, true]);
    expect(['fixed-spread', 'a.ts', 'dir/a.ts'].map(isModulePath)).toEqual([false, false, false]);
  });

  it('looks names up in a record or a Map, never on the prototype', async () => {
    await expect(defaultStrategyResolver(FAKE_REGISTRY)('fixed-spread', '/x')).resolves.toBe(fixedSpread);
    await expect(defaultStrategyResolver(new Map([['fs', fixedSpread]]))('fs', '/x')).resolves.toBe(fixedSpread);
    await expect(defaultStrategyResolver(FAKE_REGISTRY)('constructor', '/x')).rejects.toThrow(
      /^unknown strategy "constructor"/,
    );
    await expect(defaultStrategyResolver({})('a.ts', '/x')).rejects.toThrow(
      'unknown strategy "a.ts"; none are registered. A strategy in a file is named by its path, e.g. ./a.ts',
    );
  });

  it('imports a path relative to the base directory: default export first, else `strategy`', async () => {
    const resolve = defaultStrategyResolver({});
    expect((await resolve('./strategies/spread-default.ts', FIXTURES)).name).toBe('fixture-default');
    expect((await resolve('./strategies/spread-named.ts', FIXTURES)).name).toBe('fixture-named');
    await expect(resolve('./strategies/not-a-strategy.ts', FIXTURES)).rejects.toThrow(/exports no strategy/);
    await expect(resolve('./strategies', FIXTURES)).rejects.toThrow(/strategy module not found/);
  });

  it('recognises a StrategyModule by its shape', () => {
    expect(isStrategyModule(fixedSpread)).toBe(true);
    expect(isStrategyModule({ ...fixedSpread, params: {} })).toBe(false);
    expect(isStrategyModule({ ...fixedSpread, quote: 1 })).toBe(false);
    expect(isStrategyModule(null)).toBe(false);
  });
});
